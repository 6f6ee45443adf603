// fma32 of sa_pkg as a module, for tests that drive it alone (tests/rtl).
module sa_fma32 (
    input  logic [31:0] a,
    input  logic [31:0] b,
    input  logic [31:0] c,
    output logic [31:0] d
);
    assign d = sa_pkg::fma32(a, b, c);
endmodule
