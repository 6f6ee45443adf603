// The CORE-V extensions on the pure ISS, instruction by instruction, against
// results worked out by hand from the CV32E40P user manual's tables
// (openhwgroup/cv32e40p docs/source/instruction_set_extensions.rst):
// signs, saturation/clip bounds (Is2 = 0 included), rounding terms, shift
// amounts, 32-bit wrap-around; for xcvsimd also lane boundaries (no carry or
// borrow between lanes), the .sc (lane 0 of rs2) and .sci (sign- or
// zero-extended Imm6) operands, shift amounts cut to the lane width, 32-bit
// wrap of dot products and complex products; for xcvbitmanip fields cut at
// bit 31, rs2[9:0] as the field of the register forms, the manual's three
// cv.bitrev examples. Encodings from llvm-mc-19 -mattr=+xcv... (the
// assembly is listed with each). Also: an extension left out of
// core.isa_extensions makes its encodings illegal.
#include "iss_machine.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 base = iss_machine::ram_base;

struct alu_case {
    u32 insn, rd_in, rs1, rs2, want;
    const char* text;
};

// a0 = rD (10), a1 = rs1 (11), a2 = rs2 (12).
const alu_case alu_cases[] = {
    {0x5005b52bu, 0x00000000u, 0xfffffffbu, 0x00000000u, 0x00000005u, "cv.abs a0, a1"},
    {0x5005b52bu, 0x00000000u, 0x80000000u, 0x00000000u, 0x80000000u, "cv.abs a0, a1"},
    {0x5005b52bu, 0x00000000u, 0x00000007u, 0x00000000u, 0x00000007u, "cv.abs a0, a1"},
    {0x52c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000001u, "cv.slet a0, a1, a2"},
    {0x52c5b52bu, 0x00000000u, 0x00000001u, 0xffffffffu, 0x00000000u, "cv.slet a0, a1, a2"},
    {0x52c5b52bu, 0x00000000u, 0x00000003u, 0x00000003u, 0x00000001u, "cv.slet a0, a1, a2"},
    {0x54c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000000u, "cv.sletu a0, a1, a2"},
    {0x54c5b52bu, 0x00000000u, 0x00000001u, 0xffffffffu, 0x00000001u, "cv.sletu a0, a1, a2"},
    {0x54c5b52bu, 0x00000000u, 0x00000005u, 0x00000005u, 0x00000001u, "cv.sletu a0, a1, a2"},
    {0x56c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0xffffffffu, "cv.min a0, a1, a2"},
    {0x58c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000001u, "cv.minu a0, a1, a2"},
    {0x5ac5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000001u, "cv.max a0, a1, a2"},
    {0x5cc5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0xffffffffu, "cv.maxu a0, a1, a2"},
    {0x6005b52bu, 0x00000000u, 0x12348000u, 0x00000000u, 0xffff8000u, "cv.exths a0, a1"},
    {0x6205b52bu, 0x00000000u, 0x12348000u, 0x00000000u, 0x00008000u, "cv.exthz a0, a1"},
    {0x6405b52bu, 0x00000000u, 0x12345680u, 0x00000000u, 0xffffff80u, "cv.extbs a0, a1"},
    {0x6605b52bu, 0x00000000u, 0x12345680u, 0x00000000u, 0x00000080u, "cv.extbz a0, a1"},
    {0x7055b52bu, 0x00000000u, 0x00000064u, 0x00000000u, 0x0000000fu, "cv.clip a0, a1, 5"},
    {0x7055b52bu, 0x00000000u, 0xffffff9cu, 0x00000000u, 0xfffffff0u, "cv.clip a0, a1, 5"},
    {0x7055b52bu, 0x00000000u, 0x00000003u, 0x00000000u, 0x00000003u, "cv.clip a0, a1, 5"},
    {0x7055b52bu, 0x00000000u, 0xfffffff0u, 0x00000000u, 0xfffffff0u, "cv.clip a0, a1, 5"},
    {0x7005b52bu, 0x00000000u, 0x00000005u, 0x00000000u, 0x00000000u, "cv.clip a0, a1, 0"},
    {0x7005b52bu, 0x00000000u, 0xfffffffbu, 0x00000000u, 0xffffffffu, "cv.clip a0, a1, 0"},
    {0x71f5b52bu, 0x00000000u, 0x7fffffffu, 0x00000000u, 0x3fffffffu, "cv.clip a0, a1, 31"},
    {0x7255b52bu, 0x00000000u, 0xfffffffdu, 0x00000000u, 0x00000000u, "cv.clipu a0, a1, 5"},
    {0x7255b52bu, 0x00000000u, 0x00000014u, 0x00000000u, 0x0000000fu, "cv.clipu a0, a1, 5"},
    {0x7255b52bu, 0x00000000u, 0x00000007u, 0x00000000u, 0x00000007u, "cv.clipu a0, a1, 5"},
    {0x74c5b52bu, 0x00000000u, 0xffffffecu, 0x0000000au, 0xfffffff5u, "cv.clipr a0, a1, a2"},
    {0x74c5b52bu, 0x00000000u, 0x00000014u, 0x0000000au, 0x0000000au, "cv.clipr a0, a1, a2"},
    {0x74c5b52bu, 0x00000000u, 0x00000000u, 0x0000000au, 0x00000000u, "cv.clipr a0, a1, a2"},
    {0x76c5b52bu, 0x00000000u, 0xffffffffu, 0x0000000au, 0x00000000u, "cv.clipur a0, a1, a2"},
    {0x76c5b52bu, 0x00000000u, 0x0000000bu, 0x0000000au, 0x0000000au, "cv.clipur a0, a1, a2"},
    {0x76c5b52bu, 0x00000000u, 0x00000004u, 0x0000000au, 0x00000004u, "cv.clipur a0, a1, a2"},
    {0x04c5a55bu, 0x00000000u, 0x00000007u, 0xffffffffu, 0x00000001u, "cv.addn a0, a1, a2, 2"},
    {0x04c5a55bu, 0x00000000u, 0xfffffff9u, 0xffffffffu, 0xfffffffeu, "cv.addn a0, a1, a2, 2"},
    {0x00c5a55bu, 0x00000000u, 0x7fffffffu, 0x00000001u, 0x80000000u, "cv.addn a0, a1, a2, 0"},
    {0x44c5a55bu, 0x00000000u, 0xfffffff9u, 0xffffffffu, 0x3ffffffeu, "cv.addun a0, a1, a2, 2"},
    {0x84c5a55bu, 0x00000000u, 0x00000005u, 0x00000000u, 0x00000001u, "cv.addrn a0, a1, a2, 2"},
    {0x84c5a55bu, 0x00000000u, 0x00000006u, 0x00000000u, 0x00000002u, "cv.addrn a0, a1, a2, 2"},
    {0x84c5a55bu, 0x00000000u, 0xfffffffau, 0x00000000u, 0xffffffffu, "cv.addrn a0, a1, a2, 2"},
    {0xc6c5a55bu, 0x00000000u, 0x7fffffffu, 0x00000001u, 0x10000000u, "cv.addurn a0, a1, a2, 3"},
    {0x02c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0xfffffffeu, "cv.subn a0, a1, a2, 1"},
    {0x42c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0x7ffffffeu, "cv.subun a0, a1, a2, 1"},
    {0x82c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0xffffffffu, "cv.subrn a0, a1, a2, 1"},
    {0xc2c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0x7fffffffu, "cv.suburn a0, a1, a2, 1"},
    {0x80c5b52bu, 0x0000000au, 0x00000006u, 0xffffffe2u, 0x00000004u, "cv.addnr a0, a1, a2"},
    {0x82c5b52bu, 0xfffffff8u, 0x00000000u, 0x00000004u, 0x0fffffffu, "cv.addunr a0, a1, a2"},
    {0x84c5b52bu, 0x00000005u, 0x00000000u, 0x00000001u, 0x00000003u, "cv.addrnr a0, a1, a2"},
    {0x86c5b52bu, 0xffffffffu, 0x00000000u, 0x00000001u, 0x00000000u, "cv.addurnr a0, a1, a2"},
    {0x88c5b52bu, 0x00000002u, 0x0000000au, 0x00000001u, 0xfffffffcu, "cv.subnr a0, a1, a2"},
    {0x8ac5b52bu, 0x00000002u, 0x0000000au, 0x00000001u, 0x7ffffffcu, "cv.subunr a0, a1, a2"},
    {0x8cc5b52bu, 0x00000002u, 0x00000007u, 0x00000001u, 0xfffffffeu, "cv.subrnr a0, a1, a2"},
    {0x8ec5b52bu, 0x00000002u, 0x00000007u, 0x00000001u, 0x7ffffffeu, "cv.suburnr a0, a1, a2"},
    {0x90c5b52bu, 0x0000000au, 0x00000003u, 0xfffffffcu, 0xfffffffeu, "cv.mac a0, a1, a2"},
    {0x90c5b52bu, 0x7fffffffu, 0x00000001u, 0x00000001u, 0x80000000u, "cv.mac a0, a1, a2"},
    {0x92c5b52bu, 0x0000000au, 0x00000003u, 0x00000004u, 0xfffffffeu, "cv.msu a0, a1, a2"},
    {0x00c5c55bu, 0x00000000u, 0x1234ffffu, 0x00050003u, 0xfffffffdu, "cv.mulsn a0, a1, a2, 0"},
    {0x02c5c55bu, 0x00000000u, 0x0000fffdu, 0x00000001u, 0xfffffffeu, "cv.mulsn a0, a1, a2, 1"},
    {0x40c5c55bu, 0x00000000u, 0x80001234u, 0x80005678u, 0x40000000u, "cv.mulhhsn a0, a1, a2, 0"},
    {0x00c5d55bu, 0x00000000u, 0x0000ffffu, 0x1234ffffu, 0xfffe0001u, "cv.mulun a0, a1, a2, 0"},
    {0x48c5d55bu, 0x00000000u, 0x0010ffffu, 0x0010ffffu, 0x00000010u, "cv.mulhhun a0, a1, a2, 4"},
    {0x84c5c55bu, 0x00000000u, 0x00000003u, 0x00000001u, 0x00000001u, "cv.mulsrn a0, a1, a2, 2"},
    {0xc2c5c55bu, 0x00000000u, 0xfffd0000u, 0x00010000u, 0xffffffffu, "cv.mulhhsrn a0, a1, a2, 1"},
    {0x84c5d55bu, 0x00000000u, 0x00000006u, 0x00000001u, 0x00000002u, "cv.mulurn a0, a1, a2, 2"},
    {0xc2c5d55bu, 0x00000000u, 0xffff0000u, 0xffff0000u, 0x7fff0001u, "cv.mulhhurn a0, a1, a2, 1"},
    {0x02c5e55bu, 0x00000005u, 0x0000fffeu, 0x00000003u, 0xffffffffu, "cv.macsn a0, a1, a2, 1"},
    {0x40c5e55bu, 0x00000064u, 0x00020000u, 0xfffd0000u, 0x0000005eu, "cv.machhsn a0, a1, a2, 0"},
    {0x02c5f55bu, 0x00000001u, 0x0000ffffu, 0x00000002u, 0x0000ffffu, "cv.macun a0, a1, a2, 1"},
    {0x40c5f55bu, 0xffffffffu, 0x00010000u, 0x00010000u, 0x00000000u, "cv.machhun a0, a1, a2, 0"},
    {0x84c5e55bu, 0x00000001u, 0x00000001u, 0x00000001u, 0x00000001u, "cv.macsrn a0, a1, a2, 2"},
    {0xc4c5e55bu, 0xfffffff7u, 0x00010000u, 0x00010000u, 0xfffffffeu, "cv.machhsrn a0, a1, a2, 2"},
    {0x86c5f55bu, 0x00000003u, 0x00000001u, 0x00000001u, 0x00000001u, "cv.macurn a0, a1, a2, 3"},
    {0xc2c5f55bu, 0xfffffffeu, 0x00010000u, 0x00010000u, 0x00000000u, "cv.machhurn a0, a1, a2, 1"},
};

// xcvsimd: a0 = rD (10), a1 = rs1 (11), a2 = rs2 (12).
const alu_case simd_cases[] = {
    {0x00c5857bu, 0x00000000u, 0x7fff0001u, 0x00010002u, 0x80000003u, "cv.add.h a0, a1, a2"},
    {0x00c5857bu, 0x00000000u, 0x0000ffffu, 0x00000001u, 0x00000000u, "cv.add.h a0, a1, a2"},
    {0x00c5957bu, 0x00000000u, 0x01ff7f80u, 0x01010101u, 0x02008081u, "cv.add.b a0, a1, a2"},
    {0x00c5c57bu, 0x00000000u, 0x00010002u, 0xabcd0005u, 0x00060007u, "cv.add.sc.h a0, a1, a2"},
    {0x00c5d57bu, 0x00000000u, 0x10203040u, 0xffffff01u, 0x11213141u, "cv.add.sc.b a0, a1, a2"},
    {0x03f5e57bu, 0x00000000u, 0x00000005u, 0x00000000u, 0xffff0004u, "cv.add.sci.h a0, a1, -1"},
    {0x02f5f57bu, 0x00000000u, 0x00e1ff01u, 0x00000000u, 0x1f001e20u, "cv.add.sci.b a0, a1, 31"},
    {0x08c5857bu, 0x00000000u, 0x00010000u, 0x00000001u, 0x0001ffffu, "cv.sub.h a0, a1, a2"},
    {0x08c5957bu, 0x00000000u, 0x00000000u, 0x01020304u, 0xfffefdfcu, "cv.sub.b a0, a1, a2"},
    {0x08c5d57bu, 0x00000000u, 0x00000000u, 0x00000301u, 0xffffffffu, "cv.sub.sc.b a0, a1, a2"},
    {0x0905e57bu, 0x00000000u, 0x00010002u, 0x00000000u, 0x00210022u, "cv.sub.sci.h a0, a1, -32"},
    {0x10c5857bu, 0x00000000u, 0x7fff0004u, 0x00010002u, 0xc0000003u, "cv.avg.h a0, a1, a2"},
    {0x10c5957bu, 0x00000000u, 0x80fe03feu, 0x800201fcu, 0x000002fdu, "cv.avg.b a0, a1, a2"},
    {0x11f5e57bu, 0x00000000u, 0x00000001u, 0x00000000u, 0xffffffffu, "cv.avg.sci.h a0, a1, -2"},
    {0x18c5857bu, 0x00000000u, 0xffff0004u, 0x00030002u, 0x00010003u, "cv.avgu.h a0, a1, a2"},
    {0x18c5857bu, 0x00000000u, 0x80000000u, 0x00000000u, 0x40000000u, "cv.avgu.h a0, a1, a2"},
    {0x1bf5f57bu, 0x00000000u, 0x000102c1u, 0x00000000u, 0x1f202000u, "cv.avgu.sci.b a0, a1, 63"},
    {0x20c5857bu, 0x00000000u, 0x8000ffffu, 0x7fff0001u, 0x8000ffffu, "cv.min.h a0, a1, a2"},
    {0x28c5857bu, 0x00000000u, 0x8000ffffu, 0x7fff0001u, 0x7fff0001u, "cv.minu.h a0, a1, a2"},
    {0x30c5957bu, 0x00000000u, 0x807f01ffu, 0x7f80ff01u, 0x7f7f0101u, "cv.max.b a0, a1, a2"},
    {0x38c5957bu, 0x00000000u, 0x807f01ffu, 0x7f80ff01u, 0x8080ffffu, "cv.maxu.b a0, a1, a2"},
    {0x23f5f57bu, 0x00000000u, 0x80007f01u, 0x00000000u, 0x80ffffffu, "cv.min.sci.b a0, a1, -1"},
    {0x2bf5e57bu, 0x00000000u, 0xffff0005u, 0x00000000u, 0x003f0005u, "cv.minu.sci.h a0, a1, 63"},
    {0x30c5c57bu, 0x00000000u, 0x8000ffffu, 0x12340000u, 0x00000000u, "cv.max.sc.h a0, a1, a2"},
    {0x38c5d57bu, 0x00000000u, 0x7f80017fu, 0x00000080u, 0x80808080u, "cv.maxu.sc.b a0, a1, a2"},
    {0x40c5857bu, 0x00000000u, 0x80008000u, 0x0011000fu, 0x40000001u, "cv.srl.h a0, a1, a2"},
    {0x48c5857bu, 0x00000000u, 0x80008000u, 0x0011000fu, 0xc000ffffu, "cv.sra.h a0, a1, a2"},
    {0x50c5957bu, 0x00000000u, 0x01010101u, 0x07080301u, 0x80010802u, "cv.sll.b a0, a1, a2"},
    {0x4a35f57bu, 0x00000000u, 0x80407fffu, 0x00000000u, 0xff0000ffu, "cv.sra.sci.b a0, a1, 7"},
    {0x40c5c57bu, 0x00000000u, 0xffff8000u, 0x00000004u, 0x0fff0800u, "cv.srl.sc.h a0, a1, a2"},
    {0x5275e57bu, 0x00000000u, 0x00030001u, 0x00000000u, 0x80008000u, "cv.sll.sci.h a0, a1, 15"},
    {0x58c5857bu, 0x00000000u, 0x0f0f00f0u, 0x00ff0f00u, 0x0fff0ff0u, "cv.or.h a0, a1, a2"},
    {0x58c5d57bu, 0x00000000u, 0x00102030u, 0x00000001u, 0x01112131u, "cv.or.sc.b a0, a1, a2"},
    {0x60c5957bu, 0x00000000u, 0xff00ff00u, 0x0f0f0f0fu, 0xf00ff00fu, "cv.xor.b a0, a1, a2"},
    {0x63f5f57bu, 0x00000000u, 0x0f0f0f0fu, 0x00000000u, 0xf0f0f0f0u, "cv.xor.sci.b a0, a1, -1"},
    {0x69f5e57bu, 0x00000000u, 0x1235ffffu, 0x00000000u, 0x1234fffeu, "cv.and.sci.h a0, a1, -2"},
    {0x68c5c57bu, 0x00000000u, 0xffffffffu, 0x0000f00fu, 0xf00ff00fu, "cv.and.sc.h a0, a1, a2"},
    {0x7005857bu, 0x00000000u, 0x8000ffffu, 0x00000000u, 0x80000001u, "cv.abs.h a0, a1"},
    {0x7005957bu, 0x00000000u, 0x80ff7f01u, 0x00000000u, 0x80017f01u, "cv.abs.b a0, a1"},
    {0x90c5957bu, 0x12345678u, 0x80ff0102u, 0x80ff0304u, 0x0000400cu, "cv.dotsp.b a0, a1, a2"},
    {0x80c5957bu, 0x00000000u, 0x80ff0102u, 0x80ff0304u, 0x00013e0cu, "cv.dotup.b a0, a1, a2"},
    {0x88c5957bu, 0x00000000u, 0x80ff0102u, 0x80ff0304u, 0xffffbf0cu, "cv.dotusp.b a0, a1, a2"},
    {0xa8c5957bu, 0x00000064u, 0x80ff0102u, 0x80ff0304u, 0x00004070u, "cv.sdotsp.b a0, a1, a2"},
    {0xa8c5857bu, 0x00010000u, 0x80007fffu, 0x80007fffu, 0x80000001u, "cv.sdotsp.h a0, a1, a2"},
    {0x90c5857bu, 0x00000000u, 0x80008000u, 0x80008000u, 0x80000000u, "cv.dotsp.h a0, a1, a2"},
    {0x80c5857bu, 0x00000000u, 0xffffffffu, 0xffffffffu, 0xfffc0002u, "cv.dotup.h a0, a1, a2"},
    {0x88c5857bu, 0x00000000u, 0xffff0002u, 0xffff0003u, 0xffff0007u, "cv.dotusp.h a0, a1, a2"},
    {0x98c5957bu, 0x00000001u, 0x01020304u, 0x01010101u, 0x0000000bu, "cv.sdotup.b a0, a1, a2"},
    {0xa0c5857bu, 0x0000000au, 0x00020003u, 0xffff0001u, 0x0000000bu, "cv.sdotusp.h a0, a1, a2"},
    {0x98c5857bu, 0xffffffffu, 0x00010001u, 0x00010001u, 0x00000001u, "cv.sdotup.h a0, a1, a2"},
    {0x90c5d57bu, 0x00000000u, 0x01020304u, 0x000000feu, 0xffffffecu, "cv.dotsp.sc.b a0, a1, a2"},
    {0x9105e57bu, 0x00000000u, 0x00020001u, 0x00000000u, 0xffffffa0u, "cv.dotsp.sci.h a0, a1, -32"},
    {0x83f5f57bu, 0x00000000u, 0x01010101u, 0x00000000u, 0x000000fcu, "cv.dotup.sci.b a0, a1, 63"},
    {0x88c5c57bu, 0x00000000u, 0x0001ffffu, 0x0000ffffu, 0xffff0000u, "cv.dotusp.sc.h a0, a1, a2"},
    {0xa3f5f57bu, 0x00000000u, 0xff000001u, 0x00000000u, 0xffffff00u, "cv.sdotusp.sci.b a0, a1, -1"},
    {0xa8c5c57bu, 0x00000005u, 0x00030002u, 0x1234fffeu, 0xfffffffbu, "cv.sdotsp.sc.h a0, a1, a2"},
    {0x9815e57bu, 0x00000003u, 0x00040005u, 0x00000000u, 0x00000015u, "cv.sdotup.sci.h a0, a1, 2"},
    {0x04c5857bu, 0x00000000u, 0x12345678u, 0x12340000u, 0xffff0000u, "cv.cmpeq.h a0, a1, a2"},
    {0x0cc5957bu, 0x00000000u, 0x01020304u, 0x01000300u, 0x00ff00ffu, "cv.cmpne.b a0, a1, a2"},
    {0x14c5957bu, 0x00000000u, 0x7f80ff01u, 0x807f0000u, 0xff0000ffu, "cv.cmpgt.b a0, a1, a2"},
    {0x34c5957bu, 0x00000000u, 0x7f80ff01u, 0x807f0000u, 0x00ffffffu, "cv.cmpgtu.b a0, a1, a2"},
    {0x1cc5857bu, 0x00000000u, 0x80000005u, 0x80000006u, 0xffff0000u, "cv.cmpge.h a0, a1, a2"},
    {0x24c5857bu, 0x00000000u, 0xffff0001u, 0x0001ffffu, 0xffff0000u, "cv.cmplt.h a0, a1, a2"},
    {0x2cc5957bu, 0x00000000u, 0x01020380u, 0x01010180u, 0xff0000ffu, "cv.cmple.b a0, a1, a2"},
    {0x3cc5857bu, 0x00000000u, 0x0000ffffu, 0x00018000u, 0x0000ffffu, "cv.cmpgeu.h a0, a1, a2"},
    {0x44c5857bu, 0x00000000u, 0x0000ffffu, 0x00018000u, 0xffff0000u, "cv.cmpltu.h a0, a1, a2"},
    {0x4cc5957bu, 0x00000000u, 0xff000102u, 0x01000201u, 0x00ffff00u, "cv.cmpleu.b a0, a1, a2"},
    {0x17f5e57bu, 0x00000000u, 0x0000fffeu, 0x00000000u, 0xffff0000u, "cv.cmpgt.sci.h a0, a1, -1"},
    {0x37f5f57bu, 0x00000000u, 0x403f00ffu, 0x00000000u, 0xff0000ffu, "cv.cmpgtu.sci.b a0, a1, 63"},
    {0x04c5d57bu, 0x00000000u, 0x05000500u, 0x00000005u, 0xff00ff00u, "cv.cmpeq.sc.b a0, a1, a2"},
    {0x2c05f57bu, 0x00000000u, 0x80017f00u, 0x00000000u, 0xff0000ffu, "cv.cmple.sci.b a0, a1, 0"},
    {0x44c5c57bu, 0x00000000u, 0x00070009u, 0xffff0008u, 0xffff0000u, "cv.cmpltu.sc.h a0, a1, a2"},
    {0xba05857bu, 0x00000000u, 0x80011234u, 0x00000000u, 0xffff8001u, "cv.extract.h a0, a1, 1"},
    {0xba05a57bu, 0x00000000u, 0x80011234u, 0x00000000u, 0x00008001u, "cv.extractu.h a0, a1, 1"},
    {0xb815957bu, 0x00000000u, 0x12803456u, 0x00000000u, 0xffffff80u, "cv.extract.b a0, a1, 2"},
    {0xba15b57bu, 0x00000000u, 0xfe000000u, 0x00000000u, 0x000000feu, "cv.extractu.b a0, a1, 3"},
    {0xb805c57bu, 0x11112222u, 0xabcd1234u, 0x00000000u, 0x11111234u, "cv.insert.h a0, a1, 0"},
    {0xba15d57bu, 0x11223344u, 0x000000abu, 0x00000000u, 0xab223344u, "cv.insert.b a0, a1, 3"},
    {0xc0c5857bu, 0x00000000u, 0xaaaabbbbu, 0x00000001u, 0xbbbbaaaau, "cv.shuffle.h a0, a1, a2"},
    {0xc0c5957bu, 0x00000000u, 0x44332211u, 0xfcfdfeffu, 0x11223344u, "cv.shuffle.b a0, a1, a2"},
    {0xc205e57bu, 0x00000000u, 0xaaaabbbbu, 0x00000000u, 0xbbbbaaaau, "cv.shuffle.sci.h a0, a1, 1"},
    {0xc2d5f57bu, 0x00000000u, 0x44332211u, 0x00000000u, 0x11223344u, "cv.shufflei0.sci.b a0, a1, 27"},
    {0xc805f57bu, 0x00000000u, 0x44332211u, 0x00000000u, 0x22111111u, "cv.shufflei1.sci.b a0, a1, 0"},
    {0xd3f5f57bu, 0x00000000u, 0x44332211u, 0x00000000u, 0x33444444u, "cv.shufflei2.sci.b a0, a1, 63"},
    {0xd925f57bu, 0x00000000u, 0x44332211u, 0x00000000u, 0x44332211u, "cv.shufflei3.sci.b a0, a1, 36"},
    {0xe0c5857bu, 0xddddccccu, 0xaaaabbbbu, 0x00020001u, 0xbbbbddddu, "cv.shuffle2.h a0, a1, a2"},
    {0xe0c5957bu, 0x88776655u, 0x44332211u, 0x07000403u, 0x44551188u, "cv.shuffle2.b a0, a1, a2"},
    {0xf0c5857bu, 0x00000000u, 0x1111aaaau, 0x2222bbbbu, 0xaaaabbbbu, "cv.pack a0, a1, a2"},
    {0xf2c5857bu, 0x00000000u, 0x1111aaaau, 0x2222bbbbu, 0x11112222u, "cv.pack.h a0, a1, a2"},
    {0xfac5957bu, 0x12345678u, 0x000000aau, 0x000000bbu, 0xaabb5678u, "cv.packhi.b a0, a1, a2"},
    {0xf8c5957bu, 0x12345678u, 0x000000aau, 0x000000bbu, 0x1234aabbu, "cv.packlo.b a0, a1, a2"},
    {0x54c5857bu, 0xdead0000u, 0x20004000u, 0x40004000u, 0xdead1000u, "cv.cplxmul.r a0, a1, a2"},
    {0x56c5857bu, 0x0000beefu, 0x20004000u, 0x40004000u, 0x3000beefu, "cv.cplxmul.i a0, a1, a2"},
    {0x54c5a57bu, 0xdead0000u, 0x20004000u, 0x40004000u, 0xdead0800u, "cv.cplxmul.r.div2 a0, a1, a2"},
    {0x56c5e57bu, 0x0000beefu, 0x20004000u, 0x40004000u, 0x0600beefu, "cv.cplxmul.i.div8 a0, a1, a2"},
    {0x54c5c57bu, 0x00000000u, 0x0000c000u, 0x00004000u, 0x0000f800u, "cv.cplxmul.r.div4 a0, a1, a2"},
    {0x54c5857bu, 0x00000000u, 0x0000c000u, 0x00004000u, 0x0000e000u, "cv.cplxmul.r a0, a1, a2"},
    {0x56c5c57bu, 0x00000000u, 0x80008000u, 0x80008000u, 0xc0000000u, "cv.cplxmul.i.div4 a0, a1, a2"},
    {0x56c5a57bu, 0x00000000u, 0x80008000u, 0x80008000u, 0x80000000u, "cv.cplxmul.i.div2 a0, a1, a2"},
    {0x5c05857bu, 0x00000000u, 0x12345678u, 0x00000000u, 0xedcc5678u, "cv.cplxconj a0, a1"},
    {0x5c05857bu, 0x00000000u, 0x80000001u, 0x00000000u, 0x80000001u, "cv.cplxconj a0, a1"},
    {0x64c5857bu, 0x00000000u, 0x00020001u, 0x00070005u, 0x0004fffbu, "cv.subrotmj a0, a1, a2"},
    {0x64c5a57bu, 0x00000000u, 0x00020001u, 0x00070005u, 0x0002fffdu, "cv.subrotmj.div2 a0, a1, a2"},
    {0x64c5e57bu, 0x00000000u, 0x00000000u, 0x00000008u, 0x00010000u, "cv.subrotmj.div8 a0, a1, a2"},
    {0x6cc5a57bu, 0x00000000u, 0x7fff0003u, 0x00010001u, 0xc0000002u, "cv.add.div2 a0, a1, a2"},
    {0x6cc5c57bu, 0x00000000u, 0x00100010u, 0x0010fff0u, 0x00080000u, "cv.add.div4 a0, a1, a2"},
    {0x6cc5e57bu, 0x00000000u, 0xfff80040u, 0x00000000u, 0xffff0008u, "cv.add.div8 a0, a1, a2"},
    {0x74c5e57bu, 0x00000000u, 0x00000000u, 0x00080010u, 0xfffffffeu, "cv.sub.div8 a0, a1, a2"},
    {0x74c5a57bu, 0x00000000u, 0x80000010u, 0x00010008u, 0x3fff0004u, "cv.sub.div2 a0, a1, a2"},
    {0x74c5c57bu, 0x00000000u, 0x00000004u, 0x00000008u, 0x0000ffffu, "cv.sub.div4 a0, a1, a2"},
};
// xcvbitmanip, same registers.
const alu_case bitmanip_cases[] = {
    {0x0645855bu, 0x00000000u, 0x000000f0u, 0x00000000u, 0xffffffffu, "cv.extract a0, a1, 3, 4"},
    {0x0645855bu, 0x00000000u, 0x00000070u, 0x00000000u, 0x00000007u, "cv.extract a0, a1, 3, 4"},
    {0x4645855bu, 0x00000000u, 0x000000f0u, 0x00000000u, 0x0000000fu, "cv.extractu a0, a1, 3, 4"},
    {0x3ff5855bu, 0x00000000u, 0x80000000u, 0x00000000u, 0xffffffffu, "cv.extract a0, a1, 31, 31"},
    {0x3ff5855bu, 0x00000000u, 0x7fffffffu, 0x00000000u, 0x00000000u, "cv.extract a0, a1, 31, 31"},
    {0x3e05855bu, 0x00000000u, 0x80000001u, 0x00000000u, 0x80000001u, "cv.extract a0, a1, 31, 0"},
    {0x4fc5855bu, 0x00000000u, 0xa0000000u, 0x00000000u, 0x0000000au, "cv.extractu a0, a1, 7, 28"},
    {0x4005855bu, 0x00000000u, 0xfffffffeu, 0x00000000u, 0x00000000u, "cv.extractu a0, a1, 0, 0"},
    {0x8e85855bu, 0x11111111u, 0x000000abu, 0x00000000u, 0x1111ab11u, "cv.insert a0, a1, 7, 8"},
    {0x8fc5855bu, 0x01234567u, 0xfffffff9u, 0x00000000u, 0x91234567u, "cv.insert a0, a1, 7, 28"},
    {0xbe05855bu, 0x01234567u, 0x89abcdefu, 0x00000000u, 0x89abcdefu, "cv.insert a0, a1, 31, 0"},
    {0x0e85955bu, 0x00000000u, 0xffffffffu, 0x00000000u, 0xffff00ffu, "cv.bclr a0, a1, 7, 8"},
    {0x3f05955bu, 0x00000000u, 0xffffffffu, 0x00000000u, 0x0000ffffu, "cv.bclr a0, a1, 31, 16"},
    {0x41f5955bu, 0x00000000u, 0x00000000u, 0x00000000u, 0x80000000u, "cv.bset a0, a1, 0, 31"},
    {0x7e05955bu, 0x00000000u, 0x00000000u, 0x00000000u, 0xffffffffu, "cv.bset a0, a1, 31, 0"},
    {0xc045955bu, 0x00000000u, 0xc64a5933u, 0x00000000u, 0x0cc9a526u, "cv.bitrev a0, a1, 0, 4"},
    {0xc245955bu, 0x00000000u, 0xc64a5933u, 0x00000000u, 0x0cc65a19u, "cv.bitrev a0, a1, 1, 4"},
    {0xc445955bu, 0x00000000u, 0xc64a5933u, 0x00000000u, 0x216b244bu, "cv.bitrev a0, a1, 2, 4"},
    {0xc645955bu, 0x00000000u, 0xc64a5933u, 0x00000000u, 0x0cc9a526u, "cv.bitrev a0, a1, 3, 4"},
    {0xc005955bu, 0x00000000u, 0x00000001u, 0x00000000u, 0x80000000u, "cv.bitrev a0, a1, 0, 0"},
    {0xc1f5955bu, 0x00000000u, 0x00000001u, 0x00000000u, 0x00000001u, "cv.bitrev a0, a1, 0, 31"},
    {0x30c5b52bu, 0x00000000u, 0x000000f0u, 0xfffffc64u, 0xffffffffu, "cv.extractr a0, a1, a2"},
    {0x32c5b52bu, 0x00000000u, 0x000000f0u, 0x00000064u, 0x0000000fu, "cv.extractur a0, a1, a2"},
    {0x34c5b52bu, 0x00000000u, 0x000000ffu, 0x000000f8u, 0xff000000u, "cv.insertr a0, a1, a2"},
    {0x38c5b52bu, 0x00000000u, 0xffffffffu, 0x00000000u, 0xfffffffeu, "cv.bclrr a0, a1, a2"},
    {0x3ac5b52bu, 0x00000000u, 0x00000000u, 0x0000007cu, 0xf0000000u, "cv.bsetr a0, a1, a2"},
    {0x40c5b52bu, 0x00000000u, 0x00000001u, 0x00000001u, 0x80000000u, "cv.ror a0, a1, a2"},
    {0x40c5b52bu, 0x00000000u, 0x00000001u, 0x00000021u, 0x80000000u, "cv.ror a0, a1, a2"},
    {0x40c5b52bu, 0x00000000u, 0x12345678u, 0x00000000u, 0x12345678u, "cv.ror a0, a1, a2"},
    {0x40c5b52bu, 0x00000000u, 0x12345678u, 0x00000008u, 0x78123456u, "cv.ror a0, a1, a2"},
    {0x4205b52bu, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000020u, "cv.ff1 a0, a1"},
    {0x4205b52bu, 0x00000000u, 0x80000000u, 0x00000000u, 0x0000001fu, "cv.ff1 a0, a1"},
    {0x4205b52bu, 0x00000000u, 0x00000018u, 0x00000000u, 0x00000003u, "cv.ff1 a0, a1"},
    {0x4205b52bu, 0x00000000u, 0x00000001u, 0x00000000u, 0x00000000u, "cv.ff1 a0, a1"},
    {0x4405b52bu, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000020u, "cv.fl1 a0, a1"},
    {0x4405b52bu, 0x00000000u, 0x00000001u, 0x00000000u, 0x00000000u, "cv.fl1 a0, a1"},
    {0x4405b52bu, 0x00000000u, 0x80000000u, 0x00000000u, 0x0000001fu, "cv.fl1 a0, a1"},
    {0x4405b52bu, 0x00000000u, 0x00000018u, 0x00000000u, 0x00000004u, "cv.fl1 a0, a1"},
    {0x4605b52bu, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, "cv.clb a0, a1"},
    {0x4605b52bu, 0x00000000u, 0xffffffffu, 0x00000000u, 0x0000001fu, "cv.clb a0, a1"},
    {0x4605b52bu, 0x00000000u, 0x00000001u, 0x00000000u, 0x0000001eu, "cv.clb a0, a1"},
    {0x4605b52bu, 0x00000000u, 0x80000000u, 0x00000000u, 0x00000000u, "cv.clb a0, a1"},
    {0x4605b52bu, 0x00000000u, 0xc0000000u, 0x00000000u, 0x00000001u, "cv.clb a0, a1"},
    {0x4605b52bu, 0x00000000u, 0x7fffffffu, 0x00000000u, 0x00000000u, "cv.clb a0, a1"},
    {0x4805b52bu, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, "cv.cnt a0, a1"},
    {0x4805b52bu, 0x00000000u, 0xffffffffu, 0x00000000u, 0x00000020u, "cv.cnt a0, a1"},
    {0x4805b52bu, 0x00000000u, 0x80000001u, 0x00000000u, 0x00000002u, "cv.cnt a0, a1"},
};

// Runs each case on a fresh machine; returns how many ran.
template <std::size_t N>
unsigned run_cases(const alu_case (&cases)[N]) {
    unsigned n = 0;
    for (const alu_case& c : cases) {
        iss_machine m;
        m.program({c.insn, ebreak()});
        m.h.x[10] = c.rd_in;
        m.h.x[11] = c.rs1;
        m.h.x[12] = c.rs2;
        EXPECT_EQ(m.run(), cpu::cause_breakpoint) << c.text;
        EXPECT_EQ(m.h.x[10], c.want) << c.text << " rD " << std::hex << c.rd_in << " rs1 " << c.rs1 << " rs2 " << c.rs2;
        EXPECT_EQ(m.h.x[11], c.rs1) << c.text;  // sources unchanged
        EXPECT_EQ(m.h.x[12], c.rs2) << c.text;
        ++n;
    }
    return n;
}

}  // namespace

TEST(Xcv, AluAndMacInstructionsMatchTheManual) {
    EXPECT_EQ(run_cases(alu_cases), sizeof(alu_cases) / sizeof(alu_cases[0]));
}

TEST(Xcv, SimdInstructionsMatchTheManual) {
    EXPECT_EQ(run_cases(simd_cases), sizeof(simd_cases) / sizeof(simd_cases[0]));
}

TEST(Xcv, BitManipulationInstructionsMatchTheManual) {
    EXPECT_EQ(run_cases(bitmanip_cases), sizeof(bitmanip_cases) / sizeof(bitmanip_cases[0]));
}

TEST(Xcv, SimdAndBitManipulationWritesToX0AreDropped) {
    // cv.sdotsp.b zero, a1, a2; cv.insert zero, a1, 7, 8; then a0 = x0 + x0
    iss_machine m;
    m.program({0xa8c5907bu, 0x8e85805bu, 0x00000533u, ebreak()});
    m.h.x[10] = 0x55u;
    m.h.x[11] = 0x01010101u;
    m.h.x[12] = 0x02020202u;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.x[0], 0u);
    EXPECT_EQ(m.h.x[10], 0u);
}

TEST(Xcv, ImmediateBranches) {
    // cv.beqimm a1, -16, +8; addi a0, a0, 1; addi a0, a0, 2;
    // cv.bneimm a1, 15, +8; addi a0, a0, 1; addi a0, a0, 2; ebreak
    const std::vector<u32> p = {0x0105e40bu, addi(10, 10, 1), addi(10, 10, 2),
                                0x00f5f40bu, addi(10, 10, 1), addi(10, 10, 2), ebreak()};
    const struct {
        u32 a1, want;
    } cases[] = {
        {0xfffffff0u, 2 + 2},  // == -16 (the immediate sign-extended): taken; != 15: taken
        {15, 3 + 3},           // != -16: falls through; == 15: falls through
        {0x0000fff0u, 3 + 2},  // only the low 5 bits match -16: not taken; != 15: taken
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.program(p);
        m.h.x[11] = c.a1;
        ASSERT_EQ(m.run(), cpu::cause_breakpoint);
        EXPECT_EQ(m.h.x[10], c.want) << std::hex << c.a1;
    }
}

TEST(Xcv, ImmediateBranchOutOfTheBlockIsFar) {
    // cv.beqimm a1, 0, -0x800 at base + 0x800: the target (base) is in the
    // block; at base it would be outside (below the RAM): a fetch fault.
    iss_machine m;
    m.load(base + 0x800, {0x8005e08bu});
    m.load(base, {addi(10, 0, 7), ebreak()});
    m.h.pc = base + 0x800;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.x[10], 7u);
    iss_machine n;
    n.program({0x8005e08bu});
    ASSERT_EQ(n.run(), cpu::cause_fetch_access);
    EXPECT_EQ(n.h.exc_tval, base - 0x800);
}

TEST(Xcv, PostIncrementAndRegisterOffsetLoads) {
    const u32 d = iss_machine::data;
    struct {
        u32 insn;
        u32 a1_in, a2;
        u32 want_a0, want_a1;
        const char* text;
    } cases[] = {
        {0xfff5850bu, d + 3, 0, 0xffffff80u, d + 2, "cv.lb a0, (a1), -1"},
        {0x0055c50bu, d + 3, 0, 0x00000080u, d + 8, "cv.lbu a0, (a1), 5"},
        {0x0065950bu, d + 2, 0, 0xffff8081u, d + 8, "cv.lh a0, (a1), 6"},
        {0x0065d50bu, d + 2, 0, 0x00008081u, d + 8, "cv.lhu a0, (a1), 6"},
        {0x0085a50bu, d, 0, 0x80817f01u, d + 8, "cv.lw a0, (a1), 8"},
        {0x00c5b52bu, d + 3, 0xfffffffdu, 0xffffff80u, d, "cv.lb a0, (a1), a2"},
        {0x04c5b52bu, d, 16, 0x80817f01u, d + 16, "cv.lw a0, (a1), a2"},
        {0x0cc5b52bu, d - 4, 4, 0x80817f01u, d - 4, "cv.lw a0, a2(a1)"},
        {0x1ac5b52bu, d, 2, 0x00008081u, d, "cv.lhu a0, a2(a1)"},
        {0x0045b50bu, d - 4, 0, 0x80817f01u, d - 4, "cv.elw a0, 4(a1)"},
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.mem.set_word(d, 0x80817f01u);  // bytes 01 7f 81 80
        m.program({c.insn, ebreak()});
        m.h.x[11] = c.a1_in;
        m.h.x[12] = c.a2;
        ASSERT_EQ(m.run(), cpu::cause_breakpoint) << c.text;
        EXPECT_EQ(m.h.x[10], c.want_a0) << c.text;
        EXPECT_EQ(m.h.x[11], c.want_a1) << c.text;
    }
}

TEST(Xcv, PostIncrementLoadIntoItsBaseKeepsTheLoadedValue) {
    iss_machine m;
    m.mem.set_word(iss_machine::data, 0x12345678u);
    m.program({0x0045250bu, ebreak()});  // cv.lw a0, (a0), 4
    m.h.x[10] = iss_machine::data;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.x[10], 0x12345678u);
}

TEST(Xcv, PostIncrementAndRegisterOffsetStores) {
    const u32 d = iss_machine::data;
    const struct {
        u32 insn, a1_in, a2, want_word, want_a1;
        const char* text;
    } cases[] = {
        {0xfea58fabu, d + 3, 0, 0xd4000000u, d + 2, "cv.sb a0, (a1), -1"},
        {0x00a5932bu, d + 2, 0, 0xc3d40000u, d + 8, "cv.sh a0, (a1), 6"},
        {0x00a5a42bu, d, 0, 0xa1b2c3d4u, d + 8, "cv.sw a0, (a1), 8"},
        {0x20a5b62bu, d + 1, 0x10, 0x0000d400u, d + 0x11, "cv.sb a0, (a1), a2"},
        {0x22a5b62bu, d, 0xfffffffcu, 0x0000c3d4u, d - 4, "cv.sh a0, (a1), a2"},
        {0x2ca5b62bu, d - 8, 8, 0xa1b2c3d4u, d - 8, "cv.sw a0, a2(a1)"},
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.program({c.insn, ebreak()});
        m.h.x[10] = 0xa1b2c3d4u;
        m.h.x[11] = c.a1_in;
        m.h.x[12] = c.a2;
        ASSERT_EQ(m.run(), cpu::cause_breakpoint) << c.text;
        EXPECT_EQ(m.mem.word(d), c.want_word) << c.text;
        EXPECT_EQ(m.h.x[11], c.want_a1) << c.text;
    }
}

TEST(Xcv, MisalignedPostIncrementLoadTrapsWithoutWritingBack) {
    iss_machine m;
    m.program({0x0085a50bu, ebreak()});  // cv.lw a0, (a1), 8
    m.h.x[11] = iss_machine::data + 2;
    ASSERT_EQ(m.run(), cpu::cause_misaligned_load);
    EXPECT_EQ(m.h.exc_tval, iss_machine::data + 2);
    EXPECT_EQ(m.h.x[11], iss_machine::data + 2);
}

TEST(Xcv, AbsentExtensionsAndReservedEncodingsAreIllegal) {
    const struct {
        u32 insn;
        std::uint32_t ext;
        const char* text;
    } cases[] = {
        {0x90c5b52bu, cpu::ext_xcvmac, "cv.mac a0, a1, a2"},
        {0x06c5c55bu, cpu::ext_xcvmac, "cv.mulsn a0, a1, a2, 3"},
        {0x5005b52bu, cpu::ext_xcvalu, "cv.abs a0, a1"},
        {0x06c5a55bu, cpu::ext_xcvalu, "cv.addn a0, a1, a2, 3"},
        {0x0105e40bu, cpu::ext_xcvbi, "cv.beqimm a1, -16, +8"},
        {0x0085a50bu, cpu::ext_xcvmem, "cv.lw a0, (a1), 8"},
        {0x2ca5b62bu, cpu::ext_xcvmem, "cv.sw a0, a2(a1)"},
        {0x0045b50bu, cpu::ext_xcvelw, "cv.elw a0, 4(a1)"},
        {0x00c5857bu, cpu::ext_xcvsimd, "cv.add.h a0, a1, a2"},
        {0xa8c5857bu, cpu::ext_xcvsimd, "cv.sdotsp.h a0, a1, a2"},
        {0xfac5957bu, cpu::ext_xcvsimd, "cv.packhi.b a0, a1, a2"},
        {0x0075855bu, cpu::ext_xcvbitmanip, "cv.extract a0, a1, 0, 7"},
        {0x4805b52bu, cpu::ext_xcvbitmanip, "cv.cnt a0, a1"},
        {0x40c5b52bu, cpu::ext_xcvbitmanip, "cv.ror a0, a1, a2"},
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.h.extensions = cpu::ext_all & ~c.ext;
        m.h.x[11] = iss_machine::data;
        m.program({c.insn, ebreak()});
        ASSERT_EQ(m.run(), cpu::cause_illegal) << c.text;
        EXPECT_EQ(m.h.exc_tval, c.insn) << c.text;
    }
    // With every extension: the reserved slots of the groups, and what the
    // CV32E40Pv2 decoder rejects although LLVM 19 decodes it (marked *).
    for (u32 bad : {0x5ec5b52bu,    // custom-1 funct3 3, funct7 0x2f
                    0x5015b52bu,    // cv.abs with rs2 = 1
                    0x06c5b52bu,    // register load of size 3
                    0x14c5b52bu,    // "unsigned word" register load
                    0x0005c52bu,    // custom-1 funct3 4 (xcvhwlp)
                    0xc075855bu,    // custom-2 funct3 0, f2 3
                    0x8075955bu,    // custom-2 funct3 1, f2 2
                    0xc875955bu,    // * cv.bitrev with Is3 = 4 (bits 29:27 must be 0)
                    0x42c5b52bu,    // cv.ff1 with rs2 = a2
                    0x36c5b52bu,    // custom-1 funct3 3, funct7 0x1b
                    0x78c5857bu,    // custom-3 funct5 15
                    0x00c5a57bu,    // cv.add with funct3 010
                    0x02c5857bu,    // cv.add.h with bit 25 set
                    0x70c5857bu,    // cv.abs.h with rs2 = a2
                    0x4085e57bu,    // * cv.srl.sci.h by 16 (Imm6[5:4] must be 0)
                    0x5045f57bu,    // * cv.sll.sci.b by 8
                    0xb815857bu,    // * cv.extract.h lane 2
                    0xb825d57bu,    // * cv.insert.b lane 4
                    0xc025e57bu,    // * cv.shuffle.sci.h 4
                    0xc805e57bu,    // cv.shuffleI1 with funct3 110
                    0x54c5957bu,    // cv.cplxmul with funct3 001
                    0x6cc5857bu,    // cv.add.div with funct3 000
                    0xf0c5957bu,    // cv.pack with funct3 001
                    0xe8c5857bu,    // custom-3 funct5 29
                    0x7cc5857bu}) {  // custom-3 funct5 15, F = 1
        iss_machine m;
        m.program({bad, ebreak()});
        ASSERT_EQ(m.run(), cpu::cause_illegal) << std::hex << bad;
        EXPECT_EQ(m.h.exc_tval, bad);
    }
}
