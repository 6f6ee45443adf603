// A small AXI4-Lite register block: the worked example of plugging a user's
// RTL peripheral with an AXI4-Lite port into npusim through the TLM ->
// AXI4-Lite bridge (docs/cosim.md, models/rtl/axi_lite_bridge.h).
//
//   0x0  ID       read-only, 0x41584C34 ("AXL4")
//   0x4  SCRATCH  read/write, write strobes honoured
//   0x8  COUNT    read-only: rising clock edges since reset
//   0xC  WRITES   read-only: completed writes to SCRATCH
//   a write to a read-only register: SLVERR (the register is unchanged)
//   outside the map, or not a register's first byte: DECERR
//
// The address and data of a write are accepted independently (either may
// come first); the response comes WAIT_STATES cycles after the last of them
// (a read: after the address), so a master must wait for BVALID/RVALID
// rather than assume a fixed latency.
module axil_regs #(
    parameter int unsigned WAIT_STATES = 0
) (
    input  logic        aclk,
    input  logic        aresetn,
    // write address
    input  logic        awvalid,
    output logic        awready,
    input  logic [11:0] awaddr,
    input  logic [2:0]  awprot,
    // write data
    input  logic        wvalid,
    output logic        wready,
    input  logic [31:0] wdata,
    input  logic [3:0]  wstrb,
    // write response
    output logic        bvalid,
    input  logic        bready,
    output logic [1:0]  bresp,
    // read address
    input  logic        arvalid,
    output logic        arready,
    input  logic [11:0] araddr,
    input  logic [2:0]  arprot,
    // read data
    output logic        rvalid,
    input  logic        rready,
    output logic [31:0] rdata,
    output logic [1:0]  rresp
);
  localparam logic [31:0] ID = 32'h4158_4C34;
  localparam logic [1:0] OKAY = 2'b00, SLVERR = 2'b10, DECERR = 2'b11;

  logic [31:0] scratch, count, writes;
  logic        aw_q, w_q, ar_q;
  logic [11:0] awaddr_q, araddr_q;
  logic [31:0] wdata_q;
  logic [3:0]  wstrb_q;
  logic [15:0] wwait, rwait;

  // The protection attributes select nothing here.
  wire unused_prot = ^{awprot, arprot};

  // One address or data beat is held until its response has been sent.
  assign awready = !aw_q && !bvalid;
  assign wready = !w_q && !bvalid;
  assign arready = !ar_q && !rvalid;

  // A register of the map, addressed at its first byte.
  wire aw_known = awaddr_q[11:4] == '0 && awaddr_q[1:0] == 2'd0;
  wire ar_known = araddr_q[11:4] == '0 && araddr_q[1:0] == 2'd0;

  function automatic logic [31:0] reg_value(input logic [1:0] idx);
    unique case (idx)
      2'd0: return ID;
      2'd1: return scratch;
      2'd2: return count;
      default: return writes;
    endcase
  endfunction

  always_ff @(posedge aclk or negedge aresetn) begin
    if (!aresetn) begin
      scratch <= '0;
      count <= '0;
      writes <= '0;
      aw_q <= 1'b0;
      w_q <= 1'b0;
      ar_q <= 1'b0;
      awaddr_q <= '0;
      araddr_q <= '0;
      wdata_q <= '0;
      wstrb_q <= '0;
      wwait <= '0;
      rwait <= '0;
      bvalid <= 1'b0;
      bresp <= OKAY;
      rvalid <= 1'b0;
      rresp <= OKAY;
      rdata <= '0;
    end else begin
      count <= count + 32'd1;
      // write
      if (awvalid && awready) begin
        aw_q <= 1'b1;
        awaddr_q <= awaddr;
      end
      if (wvalid && wready) begin
        w_q <= 1'b1;
        wdata_q <= wdata;
        wstrb_q <= wstrb;
      end
      if (aw_q && w_q && !bvalid) begin
        if (wwait == 16'(WAIT_STATES)) begin
          wwait <= '0;
          aw_q <= 1'b0;
          w_q <= 1'b0;
          bvalid <= 1'b1;
          if (!aw_known) begin
            bresp <= DECERR;
          end else if (awaddr_q[3:2] != 2'd1) begin
            bresp <= SLVERR;
          end else begin
            bresp <= OKAY;
            for (int b = 0; b < 4; b++)
              if (wstrb_q[b]) scratch[8*b+:8] <= wdata_q[8*b+:8];
            writes <= writes + 32'd1;
          end
        end else begin
          wwait <= wwait + 16'd1;
        end
      end
      if (bvalid && bready) bvalid <= 1'b0;
      // read
      if (arvalid && arready) begin
        ar_q <= 1'b1;
        araddr_q <= araddr;
      end
      if (ar_q && !rvalid) begin
        if (rwait == 16'(WAIT_STATES)) begin
          rwait <= '0;
          ar_q <= 1'b0;
          rvalid <= 1'b1;
          rresp <= ar_known ? OKAY : DECERR;
          rdata <= ar_known ? reg_value(araddr_q[3:2]) : '0;
        end else begin
          rwait <= rwait + 16'd1;
        end
      end
      if (rvalid && rready) rvalid <= 1'b0;
    end
  end
endmodule
