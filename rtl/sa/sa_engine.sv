// Weight-stationary systolic array engine: C[M x N] (+)= A[M x K] * B[K x N],
// int8 x int8 -> int32 or fp32 (one fused multiply-add per k, k ascending),
// behind the register front end of the TLM platform (models/accel) which
// latches a job and pulses start_i. Operands and results move through one
// TCDM-style master port (req/gnt, then one rvalid per request carrying
// rdata or err; writes are answered too, so an error response reaches the
// sequencer for every access; a row's next word is requested with the
// response to the one before, one word per clock). See docs/sa.md (numerics, cycle model) and
// docs/cosim.md (how the platform drives this block).
//
// Sequence per weight tile (N tiles outer, K tiles inner, like the TLM
// engine, so faults come in the same order):
//   fetch: C rows (first K tile, accumulate), the k_t rows of B, the M rows
//          of A's K slice, each a byte burst split into 32-bit words with
//          byte enables (no byte outside the row is touched);
//   fill : R cycles, one row of B shifts into the array per cycle;
//   stream: M + R + C - 2 cycles, row r of A enters row r of the array at
//          cycle i + r, partial sums flow down, column c of row i leaves the
//          bottom at cycle i + R - 1 + c (the bottom cell's register) and
//          reaches the accumulator buffer on the next clock (for the last
//          one, the port's first: no array cycle of its own);
//   port : the L1 port is modelled, not built: a tile lasts until
//          ceil(bytes / bandwidth_i) + port_wait_i cycles have passed (bytes
//          counted from the port's transfers plus the C row writes the last
//          K tile owes; port_wait_i, sampled while tile_start_o is high: the
//          cycles the wide port's stream waits for L1 bank-cycles other
//          initiators hold, which the platform's TCDM model answers for the
//          tile at tile_n0_o, tile_k0_o -- docs/cosim.md);
//   write: C rows of the last K tile.
// cycles_o counts array cycles (setup, fill, stream, port wait): the 32-bit
// fetch handshakes run while the array's clock enable is low and are not
// counted, standing in for the wide port the bandwidth models.
module sa_engine #(
    parameter int ROWS = 16,
    parameter int COLS = 16,
    parameter int MAXM = 1024     // rows of A / C a job may have (accumulator depth)
) (
    input  logic        clk_i,
    input  logic        rst_ni,
    // job, latched at start_i
    input  logic        start_i,
    input  logic [31:0] a_addr_i,
    input  logic [31:0] b_addr_i,
    input  logic [31:0] c_addr_i,
    input  logic [15:0] m_i,
    input  logic [15:0] n_i,
    input  logic [15:0] k_i,
    input  logic [31:0] lda_i,
    input  logic [31:0] ldb_i,
    input  logic [31:0] ldc_i,
    input  logic        fp32_i,
    input  logic        accumulate_i,
    input  logic [15:0] setup_cycles_i,
    input  logic [15:0] bandwidth_i,    // bytes per cycle of the modelled L1 port, >= 1
    // the modelled port's bank waits, per weight tile (see "port" above)
    output logic        tile_start_o,   // a weight tile starts: port_wait_i is sampled
    output logic [31:0] tile_n0_o,      // its first column of B
    output logic [31:0] tile_k0_o,      // its first row of B
    input  logic [31:0] port_wait_i,
    // status
    output logic        busy_o,
    output logic        done_o,         // pulse: the job completed
    output logic        error_o,        // pulse: the job aborted on an error response
    output logic        tile_end_o,     // pulse: a weight tile (and its C writes) ended
    output logic [31:0] cycles_o,       // array cycles since start_i
    output logic [31:0] stall_o,        // of which the port held a tile beyond its compute
    // the row burst in progress; after error_o, the one that faulted
    output logic [1:0]  row_operand_o,  // 1 A, 2 B, 3 C
    output logic        row_write_o,
    output logic [31:0] row_index_o,
    output logic [63:0] row_addr_o,
    output logic [15:0] row_len_o,
    // TCDM master
    output logic        mem_req_o,
    input  logic        mem_gnt_i,
    output logic [31:0] mem_addr_o,
    output logic        mem_we_o,
    output logic [3:0]  mem_be_o,
    output logic [31:0] mem_wdata_o,
    input  logic        mem_rvalid_i,
    input  logic [31:0] mem_rdata_i,
    input  logic        mem_err_i
);
    localparam int MAXE = ROWS > COLS ? ROWS : COLS;  // elements in a row burst
    localparam logic [31:0] QNAN = 32'h7fc0_0000;
    localparam logic [1:0] OP_A = 2'd1, OP_B = 2'd2, OP_C = 2'd3;

    typedef enum logic [3:0] {
        S_IDLE, S_SETUP, S_TILE, S_ROW, S_REQ, S_RSP, S_UNPACK, S_FILL, S_STREAM, S_PORT, S_NEXT
    } state_e;
    typedef enum logic [1:0] {P_CRD, P_B, P_A, P_CWR} phase_e;

    state_e state;
    phase_e phase;

    // the latched job
    logic [31:0] a_q, b_q, c_q, lda_q, ldb_q, ldc_q;
    logic [31:0] m_q, n_q, k_q;
    logic        fp32_q, acc_q;
    logic [31:0] setup_q, bw_q;

    // sequencer
    logic [31:0] n0, k0, idx, cnt, cyc, stall, tile_cyc, tile_bytes, tile_wait, port_cyc;
    logic [31:0] wa;  // word address of the transfer in flight
    logic        done_q, error_q, tile_end_q;

    // storage (A's K slice and the N tile's partial sums: one memory per
    // array row / column below, one write port each)
    logic [31:0] bbuf [ROWS][COLS];   // the weight tile as fetched
    logic [31:0] wreg [ROWS][COLS];   // the weights in the array
    logic [7:0]  rowbuf [4*MAXE];     // one row burst, byte by byte

    // --- tile and row geometry ----------------------------------------------
    logic [31:0] n_t, k_t, esz, nrows, row_idx, row_len;
    logic        first_k, last_k;
    logic [63:0] row_base, row_ld, row_off, row_addr, row_last;
    logic [1:0]  row_op;

    always_comb begin
        n_t = n_q - n0 < COLS ? n_q - n0 : COLS;
        k_t = k_q - k0 < ROWS ? k_q - k0 : ROWS;
        first_k = k0 == 0;
        last_k = k0 + ROWS >= k_q;
        esz = fp32_q ? 32'd4 : 32'd1;
        row_idx = idx;
        unique case (phase)
            P_B: begin
                row_op = OP_B;
                row_base = {32'b0, b_q};
                row_ld = {32'b0, ldb_q};
                row_idx = k0 + idx;
                row_off = {32'b0, n0 * esz};
                row_len = n_t * esz;
                nrows = k_t;
            end
            P_A: begin
                row_op = OP_A;
                row_base = {32'b0, a_q};
                row_ld = {32'b0, lda_q};
                row_off = {32'b0, k0 * esz};
                row_len = k_t * esz;
                nrows = m_q;
            end
            default: begin  // C read or write
                row_op = OP_C;
                row_base = {32'b0, c_q};
                row_ld = {32'b0, ldc_q};
                row_off = {32'b0, n0 * 4};
                row_len = n_t * 4;
                nrows = m_q;
            end
        endcase
        row_addr = row_base + {32'b0, row_idx} * row_ld + row_off;
        row_last = row_addr + {32'b0, row_len} - 64'd1;
    end

    // --- the port -----------------------------------------------------------------
    // One request per clock: the response to the word at wa that arrives
    // without an error issues the next word's request in the same clock
    // (next_req), so a row streams at one word per clock; after an error
    // response nothing more is issued (no access past a faulting word).
    logic        last_word, next_req;
    logic [31:0] ra;  // the address requested this clock
    assign last_word = {32'b0, wa} + 64'd3 >= row_last;
    assign next_req = state == S_RSP && mem_rvalid_i && !mem_err_i && !last_word;
    assign ra = next_req ? wa + 32'd4 : wa;

    // The bytes of the row that the word at wa (the response) and the word
    // at ra (the request) carry.
    logic [3:0]  be, be_req;
    logic [31:0] wdata;
    logic [63:0] lane_off [4], lane_req [4];
    always_comb begin
        for (int l = 0; l < 4; l++) begin
            lane_off[l] = {32'b0, wa} + 64'(l) - row_addr;
            be[l] = {32'b0, wa} + 64'(l) >= row_addr && {32'b0, wa} + 64'(l) <= row_last;
            lane_req[l] = {32'b0, ra} + 64'(l) - row_addr;
            be_req[l] = {32'b0, ra} + 64'(l) >= row_addr && {32'b0, ra} + 64'(l) <= row_last;
            wdata[8*l +: 8] = be_req[l] ? rowbuf[lane_req[l][$clog2(4*MAXE)-1:0]] : 8'b0;
        end
    end

    assign mem_req_o = state == S_REQ || next_req;
    assign mem_addr_o = ra;
    assign mem_we_o = phase == P_CWR;
    assign mem_be_o = be_req;
    assign mem_wdata_o = wdata;

    // --- the array ------------------------------------------------------------
    logic        stream_en;
    logic [31:0] lin [ROWS];          // A entering each row (skewed)
    logic [31:0] top [COLS];          // partial sums entering each column (skewed)
    logic [31:0] a_h [ROWS][COLS];    // A leaving each cell to the right
    logic [31:0] ps_q [ROWS][COLS];   // partial sums leaving each cell downwards
    logic        zero_init;
    // The cycle before: streaming, and its stream cycle (the bottom row's
    // registers then hold the sums that cycle computed).
    logic        stream_d;
    logic [31:0] cnt_d;

    assign stream_en = state == S_STREAM;
    assign zero_init = first_k && !acc_q;

    // A's K slice, one memory per array row: element r of each A row.
    for (genvar r = 0; r < ROWS; r++) begin : g_abuf
        logic [31:0] mem [MAXM];
        always_ff @(posedge clk_i)
            if (state == S_UNPACK && phase == P_A)
                mem[idx % MAXM] <= fp32_q ? {rowbuf[4*r+3], rowbuf[4*r+2], rowbuf[4*r+1], rowbuf[4*r]}
                                          : {{24{rowbuf[r][7]}}, rowbuf[r]};
        logic [32:0] i_in;  // the row of A entering this array row: cnt - r (bit 32: not yet)
        assign i_in = {1'b0, cnt} - 33'(r);
        assign lin[r] = !i_in[32] && i_in[31:0] < m_q ? mem[i_in[31:0] % MAXM] : 32'b0;
    end

    // The partial sums of the N tile, one memory per column: loaded from C
    // (accumulate), fed into the top of the column, written back from its
    // bottom, read out to C.
    logic [31:0] cval [COLS];  // row idx of the accumulators, for the C write
    for (genvar c = 0; c < COLS; c++) begin : g_acc
        logic [31:0] mem [MAXM];
        always_ff @(posedge clk_i) begin
            if (state == S_UNPACK && phase == P_CRD)
                mem[idx % MAXM] <= {rowbuf[4*c+3], rowbuf[4*c+2], rowbuf[4*c+1], rowbuf[4*c]};
            else if (stream_d && cnt_d >= 32'(ROWS - 1 + c) && cnt_d - 32'(ROWS - 1 + c) < m_q)
                mem[(cnt_d - 32'(ROWS - 1 + c)) % MAXM] <= ps_q[ROWS-1][c];
        end
        logic [32:0] i_in;  // the row entering the top of this column: cnt - c (bit 32: not yet)
        assign i_in = {1'b0, cnt} - 33'(c);
        assign top[c] = !i_in[32] && i_in[31:0] < m_q && !zero_init ? mem[i_in[31:0] % MAXM] : 32'b0;
        assign cval[c] = mem[idx % MAXM];
    end

    for (genvar r = 0; r < ROWS; r++) begin : g_row
        for (genvar c = 0; c < COLS; c++) begin : g_col
            sa_cell u_cell (
                .clk_i   (clk_i),
                .en_i    (stream_en),
                .fp32_i  (fp32_q),
                .active_i(32'(r) < k_t),
                .w_i     (wreg[r][c]),
                .a_i     (c == 0 ? lin[r] : a_h[r][c == 0 ? 0 : c-1]),
                .ps_i    (r == 0 ? top[c] : ps_q[r == 0 ? 0 : r-1][c]),
                .a_o     (a_h[r][c]),
                .ps_o    (ps_q[r][c])
            );
        end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
            stream_d <= 1'b0;
            cnt_d <= '0;
        end else begin
            stream_d <= state == S_STREAM;
            cnt_d <= cnt;
        end
    end

    // --- sequencer --------------------------------------------------------------
    always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
            state <= S_IDLE;
            phase <= P_B;
            done_q <= 1'b0;
            error_q <= 1'b0;
            tile_end_q <= 1'b0;
            cyc <= '0;
            stall <= '0;
        end else begin
            done_q <= 1'b0;
            error_q <= 1'b0;
            tile_end_q <= 1'b0;
            unique case (state)
                S_IDLE: if (start_i) begin
                    a_q <= a_addr_i;
                    b_q <= b_addr_i;
                    c_q <= c_addr_i;
                    m_q <= {16'b0, m_i};
                    n_q <= {16'b0, n_i};
                    k_q <= {16'b0, k_i};
                    lda_q <= lda_i;
                    ldb_q <= ldb_i;
                    ldc_q <= ldc_i;
                    fp32_q <= fp32_i;
                    acc_q <= accumulate_i;
                    setup_q <= {16'b0, setup_cycles_i};
                    bw_q <= {16'b0, bandwidth_i};
                    n0 <= '0;
                    k0 <= '0;
                    cnt <= '0;
                    cyc <= '0;
                    stall <= '0;
                    state <= setup_cycles_i == 0 ? S_TILE : S_SETUP;
                end
                S_SETUP: begin
                    cyc <= cyc + 1;
                    cnt <= cnt + 1;
                    if (cnt + 1 == setup_q) state <= S_TILE;
                end
                S_TILE: begin
                    tile_cyc <= '0;
                    tile_wait <= port_wait_i;
                    tile_bytes <= last_k ? m_q * n_t * 4 : 32'b0;
                    phase <= first_k && acc_q ? P_CRD : P_B;
                    idx <= '0;
                    state <= S_ROW;
                end
                S_ROW: begin
                    if (row_last > 64'hffff_ffff) begin
                        error_q <= 1'b1;  // past the end of the address space: no access
                        state <= S_IDLE;
                    end else begin
                        wa <= {row_addr[31:2], 2'b00};
                        if (phase == P_CWR)
                            for (int c = 0; c < COLS; c++)
                                for (int b = 0; b < 4; b++)
                                    rowbuf[4*c+b] <= 8'((fp32_q && cval[c][30:23] == 8'hff && cval[c][22:0] != 0
                                                         ? QNAN : cval[c]) >> (8*b));
                        state <= S_REQ;
                    end
                end
                S_REQ: if (mem_gnt_i) state <= S_RSP;
                S_RSP: if (mem_rvalid_i) begin
                    if (mem_err_i) begin
                        error_q <= 1'b1;
                        state <= S_IDLE;
                    end else begin
                        if (phase != P_CWR)
                            for (int l = 0; l < 4; l++)
                                if (be[l]) rowbuf[lane_off[l][$clog2(4*MAXE)-1:0]] <= mem_rdata_i[8*l +: 8];
                        if (last_word) state <= S_UNPACK;
                        else begin
                            // next_req asked for it this clock: its response
                            // comes next, or it asks again until granted.
                            wa <= wa + 4;
                            state <= mem_gnt_i ? S_RSP : S_REQ;
                        end
                    end
                end
                S_UNPACK: begin
                    unique case (phase)
                        P_B: for (int c = 0; c < COLS; c++)
                            bbuf[idx % ROWS][c] <= fp32_q ? {rowbuf[4*c+3], rowbuf[4*c+2], rowbuf[4*c+1], rowbuf[4*c]}
                                                          : {{24{rowbuf[c][7]}}, rowbuf[c]};
                        default: ;  // A and C rows: their memories take them (g_abuf, g_acc)
                    endcase
                    if (phase != P_CWR) tile_bytes <= tile_bytes + row_len;
                    if (idx + 1 < nrows) begin
                        idx <= idx + 1;
                        state <= S_ROW;
                    end else begin
                        idx <= '0;
                        cnt <= '0;
                        unique case (phase)
                            P_CRD: begin phase <= P_B; state <= S_ROW; end
                            P_B: begin phase <= P_A; state <= S_ROW; end
                            P_A: state <= S_FILL;
                            default: state <= S_NEXT;
                        endcase
                    end
                end
                S_FILL: begin
                    for (int c = 0; c < COLS; c++) begin
                        wreg[0][c] <= bbuf[ROWS - 1 - (cnt % ROWS)][c];
                        for (int r = 1; r < ROWS; r++) wreg[r][c] <= wreg[r-1][c];
                    end
                    cyc <= cyc + 1;
                    tile_cyc <= tile_cyc + 1;
                    cnt <= cnt + 1;
                    if (cnt + 1 == ROWS) begin
                        cnt <= '0;
                        state <= S_STREAM;
                    end
                end
                S_STREAM: begin
                    cyc <= cyc + 1;
                    tile_cyc <= tile_cyc + 1;
                    cnt <= cnt + 1;
                    if (cnt + 1 == m_q + ROWS + COLS - 2) state <= S_PORT;
                end
                S_PORT: begin
                    // ceil(tile_bytes / bw) + tile_wait cycles, without a divider
                    if (tile_cyc >= tile_wait && 64'(port_cyc) * 64'(bw_q) >= 64'(tile_bytes)) begin
                        if (last_k) begin
                            phase <= P_CWR;
                            idx <= '0;
                            state <= S_ROW;
                        end else state <= S_NEXT;
                    end else begin
                        cyc <= cyc + 1;
                        stall <= stall + 1;
                        tile_cyc <= tile_cyc + 1;
                    end
                end
                S_NEXT: begin
                    tile_end_q <= 1'b1;
                    if (k0 + ROWS < k_q) k0 <= k0 + ROWS;
                    else begin
                        k0 <= '0;
                        n0 <= n0 + COLS;
                    end
                    if (last_k && n0 + COLS >= n_q) begin
                        done_q <= 1'b1;
                        state <= S_IDLE;
                    end else state <= S_TILE;
                end
                default: state <= S_IDLE;
            endcase
        end
    end

    assign port_cyc = tile_cyc - tile_wait;  // the tile's cycles the port moved data in (once >= tile_wait)
    assign busy_o = state != S_IDLE;
    assign tile_start_o = state == S_TILE;
    assign tile_n0_o = n0;
    assign tile_k0_o = k0;
    assign done_o = done_q;
    assign error_o = error_q;
    assign tile_end_o = tile_end_q;
    assign cycles_o = cyc;
    assign stall_o = stall;
    assign row_operand_o = row_op;
    assign row_write_o = phase == P_CWR;
    assign row_index_o = row_idx;
    assign row_addr_o = row_addr;
    assign row_len_o = row_len[15:0];
endmodule
