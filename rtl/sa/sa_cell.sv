// One cell of the weight-stationary array: holds a weight, passes the A value
// right and the partial sum down, one cycle per hop. int8: ps + a * w in
// int32 (a, w sign-extended; sums wrap). fp32: fma32(a, w, ps), one rounding.
// A row beyond the tile's K extent passes the partial sum through untouched
// (an fp32 -0.0 must not become +0.0 in a cell that holds no weight).
//
// The multiply-add is computed in the clocked block, under the clock enable:
// a cell does no arithmetic on the cycles the array does not stream (weight
// fill, operand fetch, the port's wait). In hardware that is the cell's
// operand isolation; in the Verilated model it is most of the host time,
// since combinational logic is evaluated on every clock edge and the fetch
// handshakes are most of a job's clocks (docs/cosim.md, Benchmark).
module sa_cell (
    input  logic        clk_i,
    input  logic        en_i,      // array clock enable (streaming)
    input  logic        fp32_i,
    input  logic        active_i,  // this row holds a row of B in the current tile
    input  logic [31:0] w_i,
    input  logic [31:0] a_i,
    input  logic [31:0] ps_i,
    output logic [31:0] a_o,
    output logic [31:0] ps_o       // the partial sum of the cycle before (the bottom row's is a result)
);
    // fp32 in a block of its own: Verilator inlines fma32 before the
    // statement that calls it, and an if/else chain of assignments to one
    // register is one statement to it (it would run fma32 on int8 jobs too).
    always_ff @(posedge clk_i) begin
        if (en_i) begin
            a_o <= a_i;
            if (active_i && fp32_i) begin
                ps_o <= sa_pkg::fma32(a_i, w_i, ps_i);
            end
            if (active_i && !fp32_i) ps_o <= ps_i + a_i * w_i;
            if (!active_i) ps_o <= ps_i;
        end
    end
endmodule
