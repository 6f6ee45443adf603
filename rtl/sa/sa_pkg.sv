// The systolic array's arithmetic. fma32: IEEE 754 binary32 fused multiply-add, a * b + c, one rounding (round to
// nearest, ties to even), subnormals in and out, no flush to zero. It is the
// systolic array's fp32 cell operation and bit-exact with C's fmaf() in that
// mode (the TLM engine's reference), except NaN payloads: any NaN result is
// the canonical quiet NaN 0x7fc00000 (the array canonicalises NaN on output
// anyway, as the RISC-V F cores do).
//
// Method: both terms are exact integers times a power of two (product
// ma*mb * 2^(ea+eb-300), addend mc * 2^(ec-150), e = biased exponent, 1 for
// subnormals). When they overlap they are summed exactly in a 96-bit frame;
// when one lies entirely far below the other it only decides the sticky bit
// and is replaced by a single 1 four bits below the larger's LSB, under
// the round bit of any result that larger term can produce, which rounds
// identically. The exact sum is then rounded once.
package sa_pkg;
    localparam int W = 96;  // fma32's frame: terms overlap by construction, 76 bits + carry
    localparam logic [31:0] QNAN = 32'h7fc0_0000;

    // The index of the most significant set bit of v (v != 0): its highest
    // nonzero 32-bit word, then halving within it. A bit-by-bit scan took 96
    // steps, which the Verilated model ran for every cell on every fp32
    // stream cycle; 32-bit steps keep the inlined code small.
    function automatic int msb_index(input logic [W-1:0] v);
        logic [31:0] w;
        int n;
        if (v[95:64] != 0) begin w = v[95:64]; n = 64; end
        else if (v[63:32] != 0) begin w = v[63:32]; n = 32; end
        else begin w = v[31:0]; n = 0; end
        if (w[31:16] != 0) begin n += 16; w = w >> 16; end
        if (w[15:8] != 0) begin n += 8; w = w >> 8; end
        if (w[7:4] != 0) begin n += 4; w = w >> 4; end
        if (w[3:2] != 0) begin n += 2; w = w >> 2; end
        if (w[1]) n += 1;
        return n;
    endfunction

    function automatic logic [31:0] fma32(input logic [31:0] a, input logic [31:0] b, input logic [31:0] c);
        logic sa, sb, sc, sp;
        logic [7:0] ea, eb, ec;
        logic [22:0] fa, fb, fc;
        logic a_nan, b_nan, c_nan, a_inf, b_inf, c_inf, a_zero, b_zero, c_zero;
        logic [23:0] ma, mb, mc;
        logic [47:0] prod;
        int lp, lc, lo, hp, hc;          // LSB exponents, frame LSB, term MSB+1 exponents
        logic [W-1:0] tp, tc, mag;       // terms and |sum| in the frame
        logic neg;                       // sign of the sum
        int h, r, expf;                  // MSB index of mag, rounding shift, exponent field
        logic [W-1:0] kept, below;
        logic rnd, sticky;
        logic [31:0] res;

        {sa, ea, fa} = a;
        {sb, eb, fb} = b;
        {sc, ec, fc} = c;
        sp = sa ^ sb;
        a_nan = (ea == 8'hff) && (fa != 0);
        b_nan = (eb == 8'hff) && (fb != 0);
        c_nan = (ec == 8'hff) && (fc != 0);
        a_inf = (ea == 8'hff) && (fa == 0);
        b_inf = (eb == 8'hff) && (fb == 0);
        c_inf = (ec == 8'hff) && (fc == 0);
        a_zero = (ea == 0) && (fa == 0);
        b_zero = (eb == 0) && (fb == 0);
        c_zero = (ec == 0) && (fc == 0);
        ma = {ea != 0, fa};
        mb = {eb != 0, fb};
        mc = {ec != 0, fc};
        prod = {24'b0, ma} * {24'b0, mb};
        lp = int'({24'b0, ea | {7'b0, ea == 0}}) + int'({24'b0, eb | {7'b0, eb == 0}}) - 300;
        lc = int'({24'b0, ec | {7'b0, ec == 0}}) - 150;
        hp = 0;
        hc = 0;
        lo = 0;
        tp = '0;
        tc = '0;
        mag = '0;
        neg = 1'b0;
        h = 0;
        r = 0;
        expf = 0;
        kept = '0;
        below = '0;
        rnd = 1'b0;
        sticky = 1'b0;
        res = 32'b0;

        if (a_nan || b_nan || c_nan || (a_inf && b_zero) || (b_inf && a_zero) ||
            ((a_inf || b_inf) && c_inf && (sp != sc))) begin
            res = QNAN;
        end else if (a_inf || b_inf) begin
            res = {sp, 8'hff, 23'b0};
        end else if (c_inf) begin
            res = c;
        end else if (a_zero || b_zero) begin
            // Exact product zero: the result is c, and 0 + 0 keeps a sign
            // only when both agree (round to nearest: -0 + +0 = +0).
            res = c_zero ? {sp & sc, 31'b0} : c;
        end else begin
            // The terms' exponents (of LSB, and of MSB + 1).
            hp = lp + 48;
            hc = lc + 24;
            if (c_zero) begin
                lo = lp;
                tp = W'(prod);
            end else if (hc < lp - 4) begin
                // c entirely far below the product: only its sign and presence count.
                lo = lp - 4;
                tp = W'(prod) << 4;
                tc = W'(1);
            end else if (hp < lc - 4) begin
                lo = lc - 4;
                tc = W'(mc) << 4;
                tp = W'(1);
            end else begin
                lo = lp < lc ? lp : lc;
                tp = W'(prod) << (lp - lo);
                tc = W'(mc) << (lc - lo);
            end
            if (sp == sc || c_zero) begin
                mag = tp + tc;
                neg = sp;
            end else if (tp >= tc) begin
                mag = tp - tc;
                neg = sp;
            end else begin
                mag = tc - tp;
                neg = sc;
            end
            if (mag == 0) begin
                res = 32'b0;  // exact cancellation: +0 when rounding to nearest
            end else begin
                h = msb_index(mag);
                // Keep 24 significant bits, or stop at the subnormal LSB 2^-149.
                r = h - 23;
                if (lo + r < -149) r = -149 - lo;
                if (r <= 0) begin
                    kept = mag << (-r);
                end else if (r > h + 1) begin
                    kept = '0;  // below half the smallest subnormal: rounds to a signed zero
                end else begin
                    kept = mag >> r;
                    below = mag & ((W'(1) << r) - W'(1));
                    rnd = below[r-1];
                    sticky = (below & ((W'(1) << (r - 1)) - W'(1))) != 0;
                    if (rnd && (sticky || kept[0])) kept = kept + W'(1);
                end
                // kept is the significand (hidden bit at 2^23 when normal) of
                // value kept * 2^(lo + r); adding it to the field below makes a
                // carry into 2^24 bump the exponent by itself.
                expf = lo + r + 149;
                if (expf + (kept[24] ? 2 : kept[23] ? 1 : 0) >= 255) res = {neg, 8'hff, 23'b0};
                else res = {neg, 31'(expf << 23) + kept[30:0]};
            end
        end
        return res;
    endfunction
endpackage
