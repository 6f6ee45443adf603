#!/usr/bin/env python3
"""Mutation testing: plant each mutant below (one small deliberate bug) in
turn, rebuild, run the test suite, and count the mutants some test kills.

    scripts/mutation.py --build build                  # every mutant, the full ctest suite
    scripts/mutation.py --build build --only M03,M17   # some of them
    scripts/mutation.py --check                        # every mutant still applies (no build)

Not part of CI: each mutant costs a rebuild and a suite run (minutes). A
mutant that does not compile is reported apart and left out of the rate. The
source is restored after every mutant, also on Ctrl-C. Survivors, and why
each is equivalent or which test would catch it: docs/robustness.md.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# id, file, original text (must occur exactly once), mutated text, what the bug is
MUTANTS = [
    # --- models/cpu: the ISS --------------------------------------------------------------
    ("M01", "models/cpu/interp.h", "L_sub: x[ip->rd] = x[ip->rs1] - x[ip->rs2];",
     "L_sub: x[ip->rd] = x[ip->rs1] + x[ip->rs2];", "SUB adds"),
    ("M02", "models/cpu/interp.h", "L_sltu: x[ip->rd] = x[ip->rs1] < x[ip->rs2];",
     "L_sltu: x[ip->rd] = x[ip->rs1] <= x[ip->rs2];", "SLTU off by one"),
    ("M03", "models/cpu/interp.h", "L_bgeu: NPU_BRANCH(x[ip->rs1] >= x[ip->rs2]);",
     "L_bgeu: NPU_BRANCH(x[ip->rs1] > x[ip->rs2]);", "BGEU misses equality"),
    ("M04", "models/cpu/interp.h",
     "L_blt: NPU_BRANCH(static_cast<std::int32_t>(x[ip->rs1]) < static_cast<std::int32_t>(x[ip->rs2]));",
     "L_blt: NPU_BRANCH(x[ip->rs1] < x[ip->rs2]);", "BLT compares unsigned"),
    ("M05", "models/cpu/interp.h",
     "L_srai: x[ip->rd] = static_cast<std::uint32_t>(static_cast<std::int32_t>(x[ip->rs1]) >> ip->imm);",
     "L_srai: x[ip->rd] = x[ip->rs1] >> ip->imm;", "SRAI is logical"),
    ("M06", "models/cpu/interp.h", "L_sll: x[ip->rd] = x[ip->rs1] << (x[ip->rs2] & 31);",
     "L_sll: x[ip->rd] = x[ip->rs1] << (x[ip->rs2] & 15);", "SLL masks the shift to 4 bits"),
    ("M07", "models/cpu/interp.h", "L_xori: x[ip->rd] = x[ip->rs1] ^ static_cast<std::uint32_t>(ip->imm);",
     "L_xori: x[ip->rd] = x[ip->rs1] | static_cast<std::uint32_t>(ip->imm);", "XORI ors"),
    ("M08", "models/cpu/decode.cpp", "return static_cast<std::int32_t>(v << 19) >> 19;",
     "return static_cast<std::int32_t>(v << 20) >> 20;", "B-immediate loses its top bit"),
    ("M09", "models/cpu/decode.cpp", "(static_cast<std::int32_t>(r) >> 25) * 32 |",
     "(static_cast<std::int32_t>(r) >> 26) * 64 |", "S-immediate drops bit 5"),
    ("M10", "models/cpu/core.cpp",
     "ct.branch_taken_extra = taken > ct.cpi[cc_branch] ? static_cast<std::uint32_t>(taken - ct.cpi[cc_branch]) : 0;",
     "ct.branch_taken_extra = 0;", "taken branches cost no extra cycle"),
    ("M11", "models/cpu/core.cpp", "if (left <= budget) exact_limit = h_.cycle + left;",
     "if (left <= budget) exact_limit = h_.cycle + left + 1;", "watchdog one cycle late"),
    ("M12", "models/cpu/core.cpp", "if ((s >> 5) == now && (s & 31) != h.hart_id) {",
     "if ((s >> 5) == now && (s & 31) == h.hart_id) {", "bank conflict with itself, not others"),
    # --- models/memory, interconnect, dma -----------------------------------------------------
    ("M13", "models/memory/memory.cpp", "if (offset >= size_ || len > size_ - offset) {",
     "if (offset > size_ || len > size_ - offset + 1) {", "memory accepts one byte past its end"),
    ("M14", "models/memory/memory.cpp", "        if (bank > issue) {\n            ++bank_conflicts_;",
     "        if (bank > issue + bank) {\n            ++bank_conflicts_;", "L1 bank conflicts never stall"),
    ("M15", "models/interconnect/router.cpp", "if (r.target < 0 || addr + t.get_data_length() - 1 > r.window_end) {",
     "if (r.target < 0 || addr + t.get_data_length() - 2 > r.window_end) {", "router lets a straddle through"),
    ("M16", "models/interconnect/router.cpp", "        if (addr >= w.end) continue;",
     "        if (addr > w.end) continue;", "window end inclusive"),
    ("M17", "models/dma/dma.cpp", "if (d.count_2d == 0 || d.count_3d == 0) {",
     "if (d.count_2d == 0) {", "zero COUNT_3D accepted"),
    ("M18", "models/dma/dma.cpp", "                    if (++p >= d.count_3d) more = false;",
     "                    if (++p >= 1) more = false;", "3-D push moves one plane"),
    ("M19", "models/dma/dma.cpp", "            if (o >= d.len) {\n                o = 0;",
     "            if (o > d.len) {\n                o = 0;", "row end off by one"),
    # --- common/config --------------------------------------------------------------------------
    ("M20", "common/config/config.cpp", "        if (d.nonzero && v == 0) throw config_error(what + \": must not be zero\");",
     "", "zero sizes accepted"),
    ("M21", "common/config/config.cpp", "        if (d.power_of_two && (v & (v - 1)) != 0)",
     "        if (d.power_of_two && (v & (v - 2)) != 0)", "power-of-two check wrong"),
    ("M22", "common/config/config.cpp",
     "if (v > d.max) throw config_error(what + \": \" + e.value + \" is above the maximum \" + format_bound(d.kind, d.max));",
     "if (v > d.max + 1) throw config_error(what + \": \" + e.value + \" is above the maximum \" + format_bound(d.kind, d.max));",
     "maximum off by one"),
    ("M23", "common/config/memory_map.cpp", "        if (b.base < a.end())", "        if (b.base + 1 < a.end())",
     "regions may overlap by one byte"),
    ("M24", "common/config/memory_map.cpp", "        if (g.end() > 0x100000000ull)", "        if (g.end() > 0x100000001ull)",
     "a region one byte past 4 GiB accepted"),
    ("M25", "common/config/memory_map.cpp", "if (t->kind != region_kind::memory)\n            c.fail(\"alias.target\"",
     "if (false)\n            c.fail(\"alias.target\"", "alias of a peripheral accepted"),
    ("M26", "common/config/memory_map.cpp", "        if (stride > c.size(\"l1.size\"))", "        if (false)",
     "bank stride beyond l1.size accepted"),
    # --- platform ---------------------------------------------------------------------------------
    ("M27", "platform/elf_image.cpp", "        if (ph.p_filesz > ph.p_memsz)", "        if (ph.p_filesz > ph.p_memsz + 4)",
     "file bytes beyond memsz accepted"),
    ("M28", "platform/elf_image.cpp",
     "        if (static_cast<std::uint64_t>(ph.p_offset) + ph.p_filesz > data.size())",
     "        if (static_cast<std::uint64_t>(ph.p_offset) + ph.p_filesz > data.size() + 1)",
     "segment one byte past the file accepted"),
    ("M29", "platform/elf_image.cpp", "        if (!at->executable)", "        if (false)",
     "entry in a data segment accepted"),
    ("M30", "platform/soc.cpp", "        if (last >= info.target->end())", "        if (last > info.target->end())",
     "loader writes one byte past a memory"),
    ("M31", "platform/soc.cpp", "    if (!fetchable(image.entry()))", "    if (false)", "unfetchable entry accepted"),
    ("M32", "platform/golden.cpp", "equal = err <= tol.atol + tol.rtol * std::fabs(static_cast<double>(exp));",
     "equal = err <= 2 * tol.atol + tol.rtol * std::fabs(static_cast<double>(exp));", "tolerance doubled"),
    ("M33", "platform/golden.cpp", "        if (t.golden_offset > (1ull << 62) || t.bytes > (1ull << 62))",
     "        if (false)", "golden_offset overflow unchecked"),
    ("M34", "platform/golden.cpp", "        if (!output_names.insert(m.outputs.back().name).second)",
     "        if (false)", "duplicate outputs accepted"),
    ("M35", "platform/golden.cpp", "            if (++depth > max_json_depth) return true;", "            ++depth;",
     "JSON depth unbounded"),
    ("M36", "platform/golden.cpp", "        if (info.offset + t.bytes > info.target->size)",
     "        if (info.offset + t.bytes > info.target->size + 1)", "output one byte past a memory accepted"),
    # --- compiler ---------------------------------------------------------------------------------
    ("M37", "compiler/lib/Transforms/Schedule.cpp",
     "(fvalue && fvalue.value().isZero() && !fvalue.value().isNegative());", "(fvalue != nullptr);",
     "any f32 fill folded as zero-init"),
    ("M38", "compiler/lib/Transforms/Tile.cpp", "    if (stacks + l1Reserve >= l1Size) {",
     "    if (stacks + l1Reserve > l1Size + 100000) {", "no check that L1 holds tiles"),
    ("M39", "compiler/lib/Transforms/Tile.cpp", "    const uint64_t budget = l1Size - stacks - l1Reserve;",
     "    const uint64_t budget = l1Size - l1Reserve;", "tile budget ignores the stacks"),
    ("M40", "compiler/tools/npuc/npuc.cpp", "  if (optLevel > 3)", "  if (optLevel > 99)", "--opt=99 accepted"),
    ("M41", "sc_main/npusim.cpp", "        if (max_cycles.find('-') != std::string::npos)", "        if (false)",
     "negative --max-cycles reaches the parser"),
    ("M42", "models/cpu/interp.h", "L_slt: x[ip->rd] = static_cast<std::int32_t>(x[ip->rs1]) < static_cast<std::int32_t>(x[ip->rs2]);",
     "L_slt: x[ip->rd] = x[ip->rs1] < x[ip->rs2];", "SLT compares unsigned"),
]


def read(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def write(rel, text):
    with open(os.path.join(ROOT, rel), "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--ctest-regex", help="run only these tests (ctest -R), e.g. to try a mutant quickly")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--check", action="store_true", help="only check that every mutant applies")
    a = ap.parse_args()
    chosen = [m for m in MUTANTS if not a.only or m[0] in a.only.split(",")]
    stale = [m[0] for m in chosen if read(m[1]).count(m[2]) != 1]
    if stale:
        print("mutation: these no longer apply exactly once (update them): " + ", ".join(stale))
        return 2
    if a.check:
        print(f"mutation: all {len(chosen)} mutants apply")
        return 0
    # A kill (timeout, CI) must still restore the source: run the finally.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    killed, survived, invalid = [], [], []
    for mid, rel, old, new, what in chosen:
        original = read(rel)
        t0 = time.time()
        try:
            write(rel, original.replace(old, new))
            b = subprocess.run(["cmake", "--build", a.build, "-j", a.jobs], capture_output=True, text=True)
            if b.returncode != 0:
                invalid.append(mid)
                verdict = "does not compile"
            else:
                cmd = ["ctest", "-j", a.jobs, "--stop-on-failure"]
                if a.ctest_regex:
                    cmd += ["-R", a.ctest_regex]
                t = subprocess.run(cmd, cwd=a.build, capture_output=True, text=True)
                if t.returncode != 0:
                    killed.append(mid)
                    failed = re.findall(r"Test\s+#\d+: (\S+) \.*\s*\*\*\*(?:Failed|Timeout)", t.stdout)
                    verdict = "killed" + (f" by {failed[0]}" if failed else "")
                else:
                    survived.append(mid)
                    verdict = "SURVIVED"
        finally:
            write(rel, original)
        print(f"{mid} {what:45s} {verdict} ({time.time() - t0:.0f} s)", flush=True)
    subprocess.run(["cmake", "--build", a.build, "-j", a.jobs], capture_output=True)
    valid = len(killed) + len(survived)
    rate = 100.0 * len(killed) / valid if valid else 0.0
    print(f"mutation: {len(killed)} of {valid} mutants killed ({rate:.0f} %)"
          + (f"; survivors: {', '.join(survived)}" if survived else "")
          + (f"; not compiling: {', '.join(invalid)}" if invalid else ""))
    return 0 if not survived else 1


if __name__ == "__main__":
    sys.exit(main())
