#!/usr/bin/env python3
"""A run stopped by a core's faulting access ends at that access, not before.

    check_stop_cycle.py --npusim NPUSIM --elf ELF --expect-exit N [--args ...]

Runs the ELF with --itrace and the given arguments; the report's `pc :` line
names the faulting instruction, its `cycles :` line the run's length C. The
instruction's last start cycle S in the trace (the hart that faulted ran it
last) must come before C: the stop happens at the access, so the run is at
least as long as the time up to it. With --max-after N, C must also be at
most S + N: the run ends at the access, not later. (The run used to end at the faulting
hart's last synchronisation with SystemC time: a stack overflow in a worker
reported 27,664 cycles for a store at 27,722.)
Prints "stop cycle: ..." and exits 0, or 1 with what differs.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--expect-exit", type=int, required=True)
    ap.add_argument("--max-after", type=int, default=None,
                    help="the run must also end within this many cycles after the instruction's start")
    ap.add_argument("--args", nargs=argparse.REMAINDER, default=[])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "itrace")
        p = subprocess.run([a.npusim, "--itrace", trace, *a.args, a.elf], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        if p.returncode != a.expect_exit:
            print(p.stderr)
            sys.exit(f"exit {p.returncode}, expected {a.expect_exit}")
        c = re.search(r"^cycles\s*:\s*(\d+) @", p.stderr, re.M)
        pc = re.search(r"^\s+pc\s+:\s+(0x[0-9a-f]{8})", p.stderr, re.M)
        if not c or not pc:
            print(p.stderr)
            sys.exit("no 'cycles :' or 'pc :' line in the report")
        cycles, fault_pc = int(c.group(1)), pc.group(1)
        starts = []
        with open(trace) as f:
            for line in f:
                m = re.match(r"\s*(\d+) h\d+ (0x[0-9a-f]{8}) ", line)
                if m and m.group(2) == fault_pc:
                    starts.append(int(m.group(1)))
    if not starts:
        sys.exit(f"the faulting pc {fault_pc} is not in the instruction trace")
    start = max(starts)
    if cycles <= start:
        print(f"stop cycle: the run reports {cycles} cycles, but the faulting instruction at {fault_pc} "
              f"starts at {start}")
        return 1
    if a.max_after is not None and cycles > start + a.max_after:
        print(f"stop cycle: the run reports {cycles} cycles, more than {a.max_after} after the faulting instruction "
              f"at {fault_pc} (it starts at {start})")
        return 1
    print(f"stop cycle: the faulting instruction at {fault_pc} starts at {start}, the run ends at {cycles}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
