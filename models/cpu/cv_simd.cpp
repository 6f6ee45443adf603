// CORE-V xcvsimd arithmetic: packed 16-bit (.h) and 8-bit (.b) lanes, from
// the CV32E40P user manual's SIMD tables (see cv_ops.h). Every lane result
// is cut to the lane width (no saturation, no carries between lanes); dot
// products and complex multiplies sum in 32 bits with wrap-around, as the
// CV32E40P multiplier does.
#include "cv_ops.h"

namespace npu::cpu {

namespace {

struct lanes {
    unsigned width;  // 8 or 16
    unsigned count;  // 4 or 2
    std::uint32_t mask;

    explicit lanes(bool bytes) : width(bytes ? 8 : 16), count(bytes ? 4 : 2), mask(bytes ? 0xffu : 0xffffu) {}

    std::uint32_t u(std::uint32_t v, unsigned i) const { return (v >> (i * width)) & mask; }
    std::int32_t s(std::uint32_t v, unsigned i) const {
        const std::uint32_t sign = (mask >> 1) + 1;
        return static_cast<std::int32_t>((u(v, i) ^ sign) - sign);
    }
    // `v` in every lane.
    std::uint32_t replicate(std::uint32_t v) const { return (v & mask) * (width == 8 ? 0x01010101u : 0x00010001u); }
    std::uint32_t put(std::uint32_t word, unsigned i, std::uint32_t v) const {
        return (word & ~(mask << (i * width))) | ((v & mask) << (i * width));
    }
};

// The second operand's lanes: the sci immediate is zero-extended for the
// unsigned operations, sign-extended for the rest (the manual; LLVM's
// assembler takes 0..63 resp. -32..31 for exactly these).
bool unsigned_imm(unsigned fn) {
    switch (fn) {
    case cv_v_avgu:
    case cv_v_minu:
    case cv_v_maxu:
    case cv_v_srl:
    case cv_v_sra:
    case cv_v_sll:
    case cv_v_dotup:
    case cv_v_sdotup:
    case cv_v_cmpgtu:
    case cv_v_cmpgeu:
    case cv_v_cmpltu:
    case cv_v_cmpleu: return true;
    default: return false;
    }
}

std::uint32_t second_operand(unsigned fn, const lanes& l, std::uint32_t b, std::uint32_t imm) {
    switch (imm >> 8 & 3) {
    case cv_sc: return l.replicate(b);
    case cv_sci: {
        const std::uint32_t imm6 = imm & 63;
        return l.replicate(unsigned_imm(fn) ? imm6 : (imm6 ^ 32u) - 32u);
    }
    default: return b;
    }
}

// Lane-wise operations whose result lane depends on the operands' lane only.
std::uint32_t lane_op(unsigned fn, const lanes& l, std::uint32_t a, std::uint32_t b, unsigned i) {
    const std::uint32_t ua = l.u(a, i), ub = l.u(b, i);
    const std::int32_t sa = l.s(a, i), sb = l.s(b, i);
    const std::uint32_t all = l.mask;
    switch (fn) {
    case cv_v_add: return ua + ub;
    case cv_v_sub: return ua - ub;
    // The lane-wide sum, then shifted: 0x7fff + 1 averages to 0xc000.
    case cv_v_avg: return static_cast<std::uint32_t>(l.s(ua + ub, 0) >> 1);
    case cv_v_avgu: return ((ua + ub) & all) >> 1;
    case cv_v_min: return sa < sb ? ua : ub;
    case cv_v_minu: return ua < ub ? ua : ub;
    case cv_v_max: return sa > sb ? ua : ub;
    case cv_v_maxu: return ua > ub ? ua : ub;
    case cv_v_srl: return ua >> (ub & (l.width - 1));
    case cv_v_sra: return static_cast<std::uint32_t>(sa >> (ub & (l.width - 1)));
    case cv_v_sll: return ua << (ub & (l.width - 1));
    case cv_v_or: return ua | ub;
    case cv_v_xor: return ua ^ ub;
    case cv_v_and: return ua & ub;
    case cv_v_abs: return sa < 0 ? 0u - ua : ua;
    case cv_v_cmpeq: return ua == ub ? all : 0;
    case cv_v_cmpne: return ua != ub ? all : 0;
    case cv_v_cmpgt: return sa > sb ? all : 0;
    case cv_v_cmpge: return sa >= sb ? all : 0;
    case cv_v_cmplt: return sa < sb ? all : 0;
    case cv_v_cmple: return sa <= sb ? all : 0;
    case cv_v_cmpgtu: return ua > ub ? all : 0;
    case cv_v_cmpgeu: return ua >= ub ? all : 0;
    case cv_v_cmpltu: return ua < ub ? all : 0;
    default: return ua <= ub ? all : 0;  // cv_v_cmpleu
    }
}

// Sum of the lane products (lanes of a unsigned if a_unsigned, of b if b_unsigned).
std::uint32_t dot(const lanes& l, std::uint32_t a, std::uint32_t b, bool a_unsigned, bool b_unsigned) {
    std::uint32_t sum = 0;
    for (unsigned i = 0; i < l.count; ++i) {
        const std::uint32_t x = a_unsigned ? l.u(a, i) : static_cast<std::uint32_t>(l.s(a, i));
        const std::uint32_t y = b_unsigned ? l.u(b, i) : static_cast<std::uint32_t>(l.s(b, i));
        sum += x * y;
    }
    return sum;
}

// Selects lanes of `src` (and, for shuffle2, of `d`) by the selector word.
std::uint32_t shuffle(const lanes& l, std::uint32_t a, std::uint32_t sel, std::uint32_t d, bool two_sources) {
    const unsigned index_bits = l.width == 8 ? 2 : 1;
    std::uint32_t out = 0;
    for (unsigned i = 0; i < l.count; ++i) {
        const std::uint32_t s = sel >> (i * l.width);
        const std::uint32_t src = !two_sources || (s >> index_bits & 1) ? a : d;
        out = l.put(out, i, l.u(src, s & ((1u << index_bits) - 1)));
    }
    return out;
}

// A 16-bit lane of a complex result: a 32-bit sum shifted right arithmetically.
std::uint32_t cplx_part(std::uint32_t sum, unsigned shift) {
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(sum) >> shift) & 0xffffu;
}

}  // namespace

std::uint32_t cv_simd_op(unsigned fn_b, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm) {
    const unsigned fn = fn_b >> 1;
    const lanes l(fn_b & 1);
    const std::uint32_t imm6 = imm & 63, extra = imm >> 12 & 3;
    const lanes h(false);
    switch (fn) {
    case cv_v_dotup: return dot(l, a, second_operand(fn, l, b, imm), true, true);
    case cv_v_dotusp: return dot(l, a, second_operand(fn, l, b, imm), true, false);
    case cv_v_dotsp: return dot(l, a, second_operand(fn, l, b, imm), false, false);
    case cv_v_sdotup: return d + dot(l, a, second_operand(fn, l, b, imm), true, true);
    case cv_v_sdotusp: return d + dot(l, a, second_operand(fn, l, b, imm), true, false);
    case cv_v_sdotsp: return d + dot(l, a, second_operand(fn, l, b, imm), false, false);
    // extract/insert: Imm6 picks the lane (the decoder admits only lane numbers).
    case cv_v_extract: return static_cast<std::uint32_t>(l.s(a, imm6));
    case cv_v_extractu: return l.u(a, imm6);
    case cv_v_insert: return l.put(d, imm6, a);
    case cv_v_shuffle: {
        if ((imm >> 8 & 3) != cv_sci) return shuffle(l, a, b, d, false);
        // .sci.h: I1 selects the upper, I0 the lower half; shuffleI<k>.sci.b:
        // lane 3 is lane k, lanes 2..0 are picked by I[5:4], I[3:2], I[1:0].
        const std::uint32_t sel = l.width == 16
                                      ? (imm6 >> 1 & 1) << 16 | (imm6 & 1)
                                      : extra << 24 | (imm6 >> 4 & 3) << 16 | (imm6 >> 2 & 3) << 8 | (imm6 & 3);
        return shuffle(l, a, sel, d, false);
    }
    case cv_v_shuffle2: return shuffle(l, a, b, d, true);
    case cv_v_pack: return (a & 0xffffu) << 16 | (b & 0xffffu);
    case cv_v_pack_h: return (a & 0xffff0000u) | b >> 16;
    case cv_v_packhi: return (d & 0x0000ffffu) | (a & 0xffu) << 24 | (b & 0xffu) << 16;
    case cv_v_packlo: return (d & 0xffff0000u) | (a & 0xffu) << 8 | (b & 0xffu);
    // Complex numbers {re = lane 0, im = lane 1}; .r/.i write one half of rD.
    case cv_v_cplxmul_r: {
        const std::uint32_t re =
            static_cast<std::uint32_t>(h.s(a, 0) * h.s(b, 0)) - static_cast<std::uint32_t>(h.s(a, 1) * h.s(b, 1));
        return (d & 0xffff0000u) | cplx_part(re, 15 + extra);
    }
    case cv_v_cplxmul_i: {
        const std::uint32_t im =
            static_cast<std::uint32_t>(h.s(a, 0) * h.s(b, 1)) + static_cast<std::uint32_t>(h.s(a, 1) * h.s(b, 0));
        return cplx_part(im, 15 + extra) << 16 | (d & 0xffffu);
    }
    case cv_v_cplxconj: return h.put(a, 1, 0u - h.u(a, 1));
    // (b - a) * -j: re = a.im - b.im, im = b.re - a.re, each lane-wide then shifted.
    case cv_v_subrotmj:
        return static_cast<std::uint32_t>(h.s(h.u(b, 0) - h.u(a, 0), 0) >> extra) << 16 |
               (static_cast<std::uint32_t>(h.s(h.u(a, 1) - h.u(b, 1), 0) >> extra) & 0xffffu);
    case cv_v_add_div:
    case cv_v_sub_div: {
        std::uint32_t out = 0;
        for (unsigned i = 0; i < 2; ++i) {
            const std::uint32_t v = fn == cv_v_add_div ? h.u(a, i) + h.u(b, i) : h.u(a, i) - h.u(b, i);
            out = h.put(out, i, static_cast<std::uint32_t>(h.s(v, 0) >> extra));
        }
        return out;
    }
    default: break;
    }
    const std::uint32_t op2 = second_operand(fn, l, b, imm);
    std::uint32_t out = 0;
    for (unsigned i = 0; i < l.count; ++i) out = l.put(out, i, lane_op(fn, l, a, op2, i));
    return out;
}

}  // namespace npu::cpu
