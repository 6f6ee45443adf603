#!/usr/bin/env python3
"""Mutation testing: plant each mutant below (one small deliberate bug) in
turn, rebuild, run the test suite, and count the mutants some test kills.

    scripts/mutation.py --build build                  # every mutant, each against its area's tests
    scripts/mutation.py --build build --only M03,M17   # some of them
    scripts/mutation.py --build build --full           # each against the whole ctest suite (hours)
    scripts/mutation.py --check                        # every mutant still applies (no build)
    scripts/mutation.py --list                         # the mutants and their test subsets

Each mutant names the ctest subset (-R regex, below) of its area; an
incremental ninja rebuild plus that subset, stopping at the first failure,
keeps a full run in tens of minutes. Not part of CI. A mutant that does not
compile is reported apart and left out of the rate. The source is restored
after every mutant, also on Ctrl-C or SIGTERM. Survivors, and why each is
equivalent or which test would catch it: docs/robustness.md.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The ctest subset each mutant runs: the tests of its area, in stages (ctest
# -R each), the fast unit tests first; the first stage with a failure kills
# the mutant. Every stage is whole test families (unit tests of the module,
# the firmware tests that run it on npusim, npuc's lit tests), so a mutant one
# of them should catch is run against all of them; --full runs the whole
# suite instead.
FW = r"^fw\."
CPU = (r"^(Rv32|Decode|Fpu|Zicsr|Traps|Interrupts|Misaligned|FenceI|Core)", FW)  # ISS + core, then firmware
MEMORY = (r"^(Memory|BankedL1|TcdmBridge|Router)", FW)
ROUTER = (r"^(Router|Memory|SocLoad)", FW)
DMA = (r"^Dma", FW)
CONFIG = (r"^(Config|MemoryMap|Units|SocLoad)", r"^fw\.hardening")
ELF = (r"^(ElfImage|SocLoad)", r"^fw\.hardening")
LOADER = (r"^(SocLoad|ElfImage)", FW)
GOLDEN = (r"^Golden", r"^fw\.(golden|hardening)")
NPUC = (r"^npuc-lit", r"^(npuc\.e2e\.(mlp_tiny|op\.|fault\.)|npuc\.train\.mlp_tiny)")  # lit, small e2e runs
CLI = (FW,)
PERIPH = (r"^Peripheral", FW)

# id, file, original text (must occur exactly once), mutated text, what the bug is, ctest subset
MUTANTS = [
    # --- models/cpu: the ISS --------------------------------------------------------------
    ("M01", "models/cpu/interp.h", "L_sub:\n    x[ip->rd] = x[ip->rs1] - x[ip->rs2];",
     "L_sub:\n    x[ip->rd] = x[ip->rs1] + x[ip->rs2];", "SUB adds", CPU),
    ("M02", "models/cpu/interp.h", "L_sltu:\n    x[ip->rd] = x[ip->rs1] < x[ip->rs2];",
     "L_sltu:\n    x[ip->rd] = x[ip->rs1] <= x[ip->rs2];", "SLTU off by one", CPU),
    ("M03", "models/cpu/interp.h", "L_bgeu:\n    NPU_BRANCH(x[ip->rs1] >= x[ip->rs2]);",
     "L_bgeu:\n    NPU_BRANCH(x[ip->rs1] > x[ip->rs2]);", "BGEU misses equality", CPU),
    ("M04", "models/cpu/interp.h",
     "L_blt:\n    NPU_BRANCH(static_cast<std::int32_t>(x[ip->rs1]) < static_cast<std::int32_t>(x[ip->rs2]));",
     "L_blt:\n    NPU_BRANCH(x[ip->rs1] < x[ip->rs2]);", "BLT compares unsigned", CPU),
    ("M05", "models/cpu/interp.h",
     "L_srai:\n    x[ip->rd] = static_cast<std::uint32_t>(static_cast<std::int32_t>(x[ip->rs1]) >> ip->imm);",
     "L_srai:\n    x[ip->rd] = x[ip->rs1] >> ip->imm;", "SRAI is logical", CPU),
    ("M06", "models/cpu/interp.h", "L_sll:\n    x[ip->rd] = x[ip->rs1] << (x[ip->rs2] & 31);",
     "L_sll:\n    x[ip->rd] = x[ip->rs1] << (x[ip->rs2] & 15);", "SLL masks the shift to 4 bits", CPU),
    ("M07", "models/cpu/interp.h", "L_xori:\n    x[ip->rd] = x[ip->rs1] ^ static_cast<std::uint32_t>(ip->imm);",
     "L_xori:\n    x[ip->rd] = x[ip->rs1] | static_cast<std::uint32_t>(ip->imm);", "XORI ors", CPU),
    ("M08", "models/cpu/decode.cpp", "return static_cast<std::int32_t>(v << 19) >> 19;",
     "return static_cast<std::int32_t>(v << 20) >> 20;", "B-immediate loses its top bit", CPU),
    ("M09", "models/cpu/decode.cpp", "(static_cast<std::int32_t>(r) >> 25) * 32 |",
     "(static_cast<std::int32_t>(r) >> 26) * 64 |", "S-immediate drops bit 5", CPU),
    ("M10", "models/cpu/core.cpp",
     "ct.branch_taken_extra = taken > ct.cpi[cc_branch] ? static_cast<std::uint32_t>(taken - ct.cpi[cc_branch]) : 0;",
     "ct.branch_taken_extra = 0;", "taken branches cost no extra cycle", CPU),
    ("M11", "models/cpu/core.cpp", "if (left <= budget) exact_limit = h_.cycle + left;",
     "if (left <= budget) exact_limit = h_.cycle + left + 1;", "watchdog one cycle late", CPU),
    ("M12", "models/cpu/core.cpp", "if (__builtin_expect(served != now, 0)) bank_wait(served - now, cyc);",
     "if (false) bank_wait(served - now, cyc);",
     "a core's L1 bank conflicts never stall", CPU),
    # --- models/memory, interconnect, dma -----------------------------------------------------
    ("M13", "models/memory/memory.cpp", "if (offset >= size_ || len > size_ - offset) {",
     "if (offset > size_ || len > size_ - offset + 1) {", "memory accepts one byte past its end", MEMORY),
    ("M14", "models/memory/memory.cpp", "        lane = served + 1;\n        end = std::max(end, served + 1);",
     "        lane = issue + 1;\n        end = std::max(end, issue + 1);",
     "L1 bank conflicts never stall a burst", MEMORY),
    ("M15", "models/interconnect/router.cpp", "if (r.target < 0 || addr + t.get_data_length() - 1 > r.window_end) {",
     "if (r.target < 0 || addr + t.get_data_length() - 2 > r.window_end) {", "router lets a straddle through", ROUTER),
    ("M16", "models/interconnect/router.cpp", "        if (addr >= w.end) continue;",
     "        if (addr > w.end) continue;", "window end inclusive", ROUTER),
    ("M17", "models/dma/dma.cpp", "if (d.count_2d == 0 || d.count_3d == 0) {",
     "if (d.count_2d == 0) {", "zero COUNT_3D accepted", DMA),
    ("M18", "models/dma/dma.cpp", "                    if (++p >= d.count_3d) more = false;",
     "                    if (++p >= 1) more = false;", "3-D push moves one plane", DMA),
    ("M19", "models/dma/dma.cpp", "            if (o >= d.len) {\n                o = 0;",
     "            if (o > d.len) {\n                o = 0;", "row end off by one", DMA),
    # --- common/config --------------------------------------------------------------------------
    ("M20", "common/config/config.cpp", "        if (d.nonzero && v == 0) throw config_error(what + \": must not be zero\");",
     "", "zero sizes accepted", CONFIG),
    ("M21", "common/config/config.cpp", "        if (d.power_of_two && (v & (v - 1)) != 0)",
     "        if (d.power_of_two && (v & (v - 2)) != 0)", "power-of-two check wrong", CONFIG),
    ("M22", "common/config/config.cpp", "        if (v > d.max)\n            throw config_error(what + \": \" + e.value + \" is above the maximum \"",
     "        if (v > d.max + 1)\n            throw config_error(what + \": \" + e.value + \" is above the maximum \"",
     "maximum off by one", CONFIG),
    ("M23", "common/config/memory_map.cpp", "        if (b.base < a.end())", "        if (b.base + 1 < a.end())",
     "regions may overlap by one byte", CONFIG),
    ("M24", "common/config/memory_map.cpp", "        if (g.end() > 0x100000000ull)", "        if (g.end() > 0x100000001ull)",
     "a region one byte past 4 GiB accepted", CONFIG),
    ("M25", "common/config/memory_map.cpp", "if (t->kind != region_kind::memory)\n            c.fail(\"alias.target\"",
     "if (false)\n            c.fail(\"alias.target\"", "alias of a peripheral accepted", CONFIG),
    ("M26", "common/config/memory_map.cpp", "        if (stride > c.size(\"l1.size\"))", "        if (false)",
     "bank stride beyond l1.size accepted", CONFIG),
    # --- platform ---------------------------------------------------------------------------------
    ("M27", "platform/elf_image.cpp", "        if (ph.p_filesz > ph.p_memsz)", "        if (ph.p_filesz > ph.p_memsz + 4)",
     "file bytes beyond memsz accepted", ELF),
    ("M28", "platform/elf_image.cpp",
     "        if (static_cast<std::uint64_t>(ph.p_offset) + ph.p_filesz > data.size())",
     "        if (static_cast<std::uint64_t>(ph.p_offset) + ph.p_filesz > data.size() + 1)",
     "segment one byte past the file accepted", ELF),
    ("M29", "platform/elf_image.cpp", "        if (!at->executable)", "        if (false)",
     "entry in a data segment accepted", ELF),
    ("M30", "platform/soc.cpp", "        if (info.offset + s.mem_size > room)", "        if (info.offset + s.mem_size > room + 1)",
     "loader writes one byte past a memory", LOADER),
    ("M31", "platform/soc.cpp", "    if (!fetchable(image.entry()))", "    if (false)", "unfetchable entry accepted", LOADER),
    ("M32", "platform/golden.cpp", "equal = err <= tol.atol + tol.rtol * std::fabs(static_cast<double>(exp));",
     "equal = err <= 2 * tol.atol + tol.rtol * std::fabs(static_cast<double>(exp));", "tolerance doubled", GOLDEN),
    ("M33", "platform/golden.cpp", "        if (t.golden_offset > (1ull << 62) || t.bytes > (1ull << 62))",
     "        if (false)", "golden_offset overflow unchecked", GOLDEN),
    ("M34", "platform/golden.cpp", "        if (!output_names.insert(m.outputs.back().name).second)",
     "        if (false)", "duplicate outputs accepted", GOLDEN),
    ("M35", "platform/golden.cpp", "            if (++depth > max_json_depth) return true;", "            ++depth;",
     "JSON depth unbounded", GOLDEN),
    ("M36", "platform/golden.cpp", "        if (info.offset + t.bytes > info.target->size)",
     "        if (info.offset + t.bytes > info.target->size + 1)", "output one byte past a memory accepted", GOLDEN),
    # --- compiler ---------------------------------------------------------------------------------
    ("M37", "compiler/lib/Transforms/Schedule.cpp",
     "(fvalue && fvalue.value().isZero() && !fvalue.value().isNegative());", "(fvalue != nullptr);",
     "any f32 fill folded as zero-init", NPUC),
    ("M38", "compiler/lib/Transforms/Tile.cpp", "    if (stacks + l1Reserve >= l1Size) {",
     "    if (stacks + l1Reserve > l1Size + 100000) {", "no check that L1 holds tiles", NPUC),
    ("M39", "compiler/lib/Transforms/Tile.cpp", "    const uint64_t budget = l1Size - stacks - l1Reserve;",
     "    const uint64_t budget = l1Size - l1Reserve;", "tile budget ignores the stacks", NPUC),
    ("M40", "compiler/tools/npuc/npuc.cpp", "  if (optLevel > 3)", "  if (optLevel > 99)", "--opt=99 accepted", NPUC),
    ("M41", "sc_main/npusim.cpp", "        if (max_cycles.find('-') != std::string::npos)", "        if (false)",
     "negative --max-cycles reaches the parser", CLI),
    ("M42", "models/cpu/interp.h", "L_slt:\n    x[ip->rd] = static_cast<std::int32_t>(x[ip->rs1]) < static_cast<std::int32_t>(x[ip->rs2]);",
     "L_slt:\n    x[ip->rd] = x[ip->rs1] < x[ip->rs2];", "SLT compares unsigned", CPU),
    # --- the edges tested since the first run -----------------------------------------------
    ("M43", "models/periph/soc_periph.cpp", "code == 0 ? exit_code::success : exit_code::firmware_failure",
     "code <= 1 ? exit_code::success : exit_code::firmware_failure", "firmware exit(1) counted as success", PERIPH),
    ("M44", "models/cpu/interp.h", "    ++cyc;  // the split costs one extra cycle (core.misaligned = split)\n", "",
     "split misaligned load costs no extra cycle", CPU),
    ("M45", "compiler/lib/Transforms/VerifySupported.cpp", "      if (!ok) {\n        generic.emitOpError(\"indexing map \")",
     "      if (false) {\n        generic.emitOpError(\"indexing map \")", "unsupported indexing maps accepted", NPUC),
    ("M46", "compiler/lib/Transforms/VerifySupported.cpp", "    if (func.isExternal()) {", "    if (false) {",
     "function declarations accepted", NPUC),
    ("M47", "models/cpu/interp.h", "if (cyc >= exact_limit && !mem.stop_requested()) {",
     "if (cyc > exact_limit && !mem.stop_requested()) {",
     "watchdog stops one instruction late", CPU),
    ("M48", "models/base/peripheral.cpp",
     "if (!was_stopped && services().stop_requested()) services().stop_time_at_least(access_time());", "",
     "the run ends at the exiting hart's last synchronisation, before its exit store", PERIPH),
    ("M49", "models/cpu/core.cpp", "            served = arbitrate_wide(off, size, now, served);",
     "            (void)0;", "a word load on narrow banks books only its first bank", CPU),
    ("M50", "models/cpu/core.cpp",
     "if (svc.stop_requested()) svc.stop_time_at_least(base::sim_time() + local_time(cyc));",
     "if (false) svc.stop_time_at_least(base::sim_time() + local_time(cyc));",
     "a core's memcheck stop ends the run before the faulting access", CPU),
    ("M51", "models/cpu/core.cpp", "    if (identical_traps_ + 1 >= identical_traps_limit) {",
     "    if (false) {", "a handler that retries the faulting instruction forever is never stopped", CPU),
    ("M52", "models/cpu/core.cpp", "                if (__builtin_expect(svc.watch_count != 0, 0) && svc.watched(a, sizeof(T)))",
     "                if (false)", "a core's store into a buffer a DMA transfer or the SA's job uses goes unreported", CPU),
    ("M53", "models/dma/dma.cpp", "        if (!e.valid || at < e.pushed_at || at >= e.ended_at) continue;",
     "        continue;",
     "a race confirmed after the transfer ended (the core waited for it in the same batch) is dropped", DMA),
    ("M54", "models/base/peripheral.cpp",
     "    if (write && r->cores_only && !(ext && ext->who && ext->who->hart >= 0)) return tlm::TLM_COMMAND_ERROR_RESPONSE;",
     "", "a DMA transfer writing the exit register ends the run as the firmware's exit(0)", PERIPH),
    ("M55", "models/dma/dma.cpp",
     "        if (found == rows && !svc.stack_crossed(a, a + d.len, lo, hi).empty()) found = i;", "", "a DMA transfer overrunning an L1 block into a stack is not caught at its push",
     DMA),
    ("M56", "platform/golden.cpp", "            if (!std::isfinite(e) && r.nonfinite_golden++ == 0)",
     "            if (false && r.nonfinite_golden++ == 0)",
     "a diverged training run whose losses are NaN on both sides passes", GOLDEN + (r"^npuc\.train\.mlp_f32\.diverged",)),
    ("M57", "platform/report.cpp", "        if (c.errors)", "        if (false)",
     "a self-check that counted errors passes when the firmware exits 0", CLI),
]


def read(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def write(rel, text):
    with open(os.path.join(ROOT, rel), "w") as f:
        f.write(text)


def build_targets(build, tests):
    """The ninja targets a test subset runs: every file of the build dir its
    test commands name (test executables, npusim, firmware ELFs), plus npuc
    and npuc-opt for npuc's tests (lit finds them through its config). Only
    these are rebuilt for a mutant, not every target that links the mutated
    library."""
    out = subprocess.run(["ctest", "-N", "-V", "-R", tests], cwd=build, capture_output=True, text=True).stdout
    build = os.path.realpath(build)
    targets = set()
    for line in out.splitlines():
        if "Test command:" not in line:
            continue
        for path in re.findall(r'"?(' + re.escape(build) + r'/[^" ]+)"?', line):
            targets.add(os.path.relpath(path, build))
    if "npuc" in tests:
        targets.update(["npuc", "npuc-opt"])
    known = [t for t in sorted(targets) if not os.path.isdir(os.path.join(build, t))
             and subprocess.run(["ninja", "-C", build, "-t", "query", t], capture_output=True).returncode == 0]
    return known


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--ctest-regex", help="run these tests (ctest -R) instead of each mutant's subset")
    ap.add_argument("--full", action="store_true", help="run the whole suite for every mutant")
    ap.add_argument("--list", action="store_true", help="print the mutants and their test subsets")
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
    if a.list:
        for mid, rel, _, _, what, tests in chosen:
            print(f"{mid} {rel:45s} {what:45s} " + " then ".join(f"ctest -R '{t}'" for t in tests))
        return 0
    # A kill (timeout, CI) must still restore the source: run the finally.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    killed, survived, invalid = [], [], []
    targets_of = {}  # test subset -> ninja targets
    for mid, rel, old, new, what, tests in chosen:
        original = read(rel)
        t0 = time.time()
        try:
            write(rel, original.replace(old, new))
            stages = [a.ctest_regex] if a.ctest_regex else [None] if a.full else list(tests)
            if tests not in targets_of:
                targets_of[tests] = [] if a.full else sorted({t for r in stages for t in build_targets(a.build, r)})
            b = subprocess.run(["cmake", "--build", a.build, "-j", a.jobs]
                               + (["--target", *targets_of[tests]] if targets_of[tests] else []),
                               capture_output=True, text=True)
            if b.returncode != 0:
                invalid.append(mid)
                verdict = "does not compile"
            else:
                for regex in stages:
                    cmd = (["ctest", "-j", a.jobs, "--stop-on-failure", "--output-on-failure"]
                           + (["-R", regex] if regex else []))
                    t = subprocess.run(cmd, cwd=a.build, capture_output=True, text=True)
                    if "No tests were found" in t.stdout + t.stderr:
                        raise SystemExit(f"{mid}: its test subset matches no test: {cmd}")
                    if t.returncode != 0:
                        break
                if t.returncode != 0:
                    killed.append(mid)
                    failed = re.findall(r"Test\s+#\d+: (\S+) \.*\s*\*\*\*(?:Failed|Timeout)", t.stdout)
                    # A lit suite is one ctest test: name the lit tests that failed in it.
                    lit = sorted(set(re.findall(r"^\s*FAIL: .* :: (\S+)", t.stdout, re.M)))
                    verdict = ("killed" + (f" by {failed[0]}" if failed else "")
                               + (f" ({', '.join(lit)})" if lit else ""))
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
