// One cell of the weight-stationary array: holds a weight, passes the A value
// right and the partial sum down, one cycle per hop. int8: ps + a * w in
// int32 (a, w sign-extended; sums wrap). fp32: fma32(a, w, ps), one rounding.
// A row beyond the tile's K extent passes the partial sum through untouched
// (an fp32 -0.0 must not become +0.0 in a cell that holds no weight).
module sa_cell (
    input  logic        clk_i,
    input  logic        en_i,      // array clock enable (streaming)
    input  logic        fp32_i,
    input  logic        active_i,  // this row holds a row of B in the current tile
    input  logic [31:0] w_i,
    input  logic [31:0] a_i,
    input  logic [31:0] ps_i,
    output logic [31:0] a_o,
    output logic [31:0] ps_o,
    output logic [31:0] ps_d_o     // the partial sum this cycle computes (the bottom row writes it)
);
    logic [31:0] ps_d, fma_d;
    logic        fma_on;

    // The FMA's operands are held at zero unless it is used (fp32, a weight
    // row of the tile, streaming): in hardware that saves switching; the
    // Verilated model evaluates every cell's FMA each cycle, and zeros keep
    // it on its short path.
    assign fma_on = fp32_i && active_i && en_i;
    assign fma_d = sa_pkg::fma32(fma_on ? a_i : 32'b0, fma_on ? w_i : 32'b0, fma_on ? ps_i : 32'b0);

    always_comb begin
        if (!active_i) ps_d = ps_i;
        else if (fp32_i) ps_d = fma_d;
        else ps_d = ps_i + a_i * w_i;
    end

    always_ff @(posedge clk_i) begin
        if (en_i) begin
            a_o  <= a_i;
            ps_o <= ps_d;
        end
    end

    assign ps_d_o = ps_d;
endmodule
