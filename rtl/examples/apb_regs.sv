// A small APB4 register block: the worked example of plugging a user's RTL
// peripheral into npusim through the TLM -> APB bridge (docs/cosim.md,
// models/rtl/apb_bridge.h).
//
//   0x0  ID       read-only, 0x41504234 ("APB4")
//   0x4  SCRATCH  read/write, byte strobes honoured
//   0x8  COUNT    read-only: rising clock edges since reset
//   0xC  WRITES   read-only: completed writes to SCRATCH
//   else          PSLVERR (an error response: a bus error in npusim), also
//                 for an address that is not a register's first byte
//
// WAIT_STATES cycles of PREADY low in every access phase, so a bridge must
// wait for the slave rather than assume a fixed latency.
module apb_regs #(
    parameter int unsigned WAIT_STATES = 0
) (
    input  logic        pclk,
    input  logic        presetn,
    input  logic        psel,
    input  logic        penable,
    input  logic        pwrite,
    input  logic [11:0] paddr,
    input  logic [31:0] pwdata,
    input  logic [3:0]  pstrb,
    output logic [31:0] prdata,
    output logic        pready,
    output logic        pslverr
);
  localparam logic [31:0] ID = 32'h4150_4234;

  logic [31:0] scratch, count, writes;
  logic [15:0] waited;

  wire access = psel && penable;
  // A register of the map, addressed at its first byte.
  wire known = paddr[11:4] == '0 && paddr[1:0] == 2'd0;

  // PREADY rises after WAIT_STATES cycles of the access phase.
  if (WAIT_STATES == 0) begin : g_no_wait
    assign pready = access;
  end else begin : g_wait
    assign pready = access && (waited >= 16'(WAIT_STATES));
  end
  assign pslverr = pready && !known;

  always_comb begin
    unique case (paddr[3:2])
      2'd0: prdata = ID;
      2'd1: prdata = scratch;
      2'd2: prdata = count;
      default: prdata = writes;
    endcase
    if (!known) prdata = '0;
  end

  always_ff @(posedge pclk or negedge presetn) begin
    if (!presetn) begin
      scratch <= '0;
      count <= '0;
      writes <= '0;
      waited <= '0;
    end else begin
      count <= count + 32'd1;
      waited <= (access && !pready) ? waited + 16'd1 : '0;
      if (pready && pwrite && known && paddr[3:2] == 2'd1) begin
        for (int b = 0; b < 4; b++)
          if (pstrb[b]) scratch[8*b+:8] <= pwdata[8*b+:8];
        writes <= writes + 32'd1;
      end
    end
  end
endmodule
