#!/usr/bin/env python3
"""--max-cycles N stops at the first instruction boundary at or after cycle N,
whatever the quantum, checked against the program's own instruction trace.

Runs a single-hart program (hello: only the cluster controller runs) once
without a limit with --itrace: the start cycles of its instructions are the
instruction boundaries B, its reported cycles C. Then, with a quantum longer
than the whole run:
  - N = 1, 2, and N spread over the run: exit 5, exactly the instructions
    that start before N retired (the first starting at or after N did not
    run), and reported cycles at least min(b in B, b >= N) (the stop adds the
    instruction-cache misses of the straight-line run it cuts, which the
    trace's start cycles leave out, docs/cores.md);
  - the exit edge T (found by bisection: the smallest N that lets the firmware
    exit): T - 1 is a boundary, N = T - 1 stops before the instruction that
    exits (exit 5, the instructions before it retired), N = T exits with 0;
  - C >= T (the run ends at its exit store, not before it started);
  - N = C (the program finishes exactly at the limit): exit 0, cycles C.
Prints "watchdog edges: K runs as expected"; fails on any other outcome or if
the trace is not one hart's.
"""
import argparse
import bisect
import json
import os
import re
import subprocess
import sys
import tempfile


def run(npusim, elf, args):
    """Exit code, reported cycles and instructions retired (all harts)."""
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "stats.json")
        p = subprocess.run([npusim, *args, "--stats", stats, elf], capture_output=True, text=True, timeout=120)
        m = re.search(r"^cycles\s*:\s*(\d+) @", p.stderr, re.M)
        if not m or not os.path.exists(stats):
            sys.exit(f"no cycles line or --stats in npusim's report (exit {p.returncode}):\n{p.stderr}")
        with open(stats) as f:
            instret = sum(c["instructions"] for c in json.load(f)["cores"])
    return p.returncode, int(m.group(1)), instret


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--samples", type=int, default=40)
    a = ap.parse_args()
    quantum = ["--soc.quantum=1ms"]  # longer than the whole program

    with tempfile.TemporaryDirectory() as d:
        rc, total, _ = run(a.npusim, a.elf, ["--itrace", f"{d}/itrace"])
        if rc != 0:
            sys.exit(f"the unlimited run exited {rc}, expected 0")
        starts, harts = [], set()
        with open(f"{d}/itrace") as f:
            for line in f:
                m = re.match(r"\s*(\d+) h(\d+) ", line)
                if m:
                    starts.append(int(m.group(1)))
                    harts.add(m.group(2))
    if len(harts) != 1 or len(starts) < 100:
        sys.exit(f"need one hart's trace of at least 100 instructions, got harts {sorted(harts)}, "
                 f"{len(starts)} instructions")
    boundaries = sorted(set(starts))
    bad = []
    runs = 0

    def check_stop(n):
        """A watchdog stop at N: the instructions starting before N retired, no other."""
        nonlocal runs
        rc, cycles, instret = run(a.npusim, a.elf, quantum + [f"--max-cycles={n}"])
        runs += 1
        want = bisect.bisect_left(starts, n)
        if rc != 5 or instret != want or cycles < first_boundary(n):
            bad.append(f"--max-cycles={n}: exit {rc}, {instret} instructions, cycles {cycles}; expected exit 5, "
                       f"{want} instructions, cycles >= {first_boundary(n)}")

    # The exit edge T: runs with N < T end in the watchdog, N >= T exit 0.
    lo, hi = 1, total
    while lo < hi:
        mid = (lo + hi) // 2
        rc, _, _ = run(a.npusim, a.elf, quantum + [f"--max-cycles={mid}"])
        runs += 1
        if rc == 0:
            hi = mid
        elif rc == 5:
            lo = mid + 1
        else:
            sys.exit(f"--max-cycles={mid}: exit {rc}, expected 0 or 5")
    exit_edge = lo
    if exit_edge - 1 not in boundaries:
        bad.append(f"the exit edge {exit_edge}: {exit_edge - 1} is not an instruction boundary")
    # The run ends at its exit store, which starts at exit_edge - 1: its
    # reported cycles are not before that store's start.
    if total < exit_edge:
        bad.append(f"the run reports {total} cycles, but its exit store starts at {exit_edge - 1}")

    def first_boundary(n):
        return boundaries[bisect.bisect_left(boundaries, n)]

    samples = {1, 2} | {1 + k * (exit_edge - 2) // a.samples for k in range(a.samples)}
    for n in sorted(samples):
        check_stop(n)
    check_stop(exit_edge - 1)
    rc, _, _ = run(a.npusim, a.elf, quantum + [f"--max-cycles={exit_edge}"])
    runs += 1
    if rc != 0:
        bad.append(f"--max-cycles={exit_edge}: exit {rc}, expected 0")
    rc, cycles, _ = run(a.npusim, a.elf, quantum + [f"--max-cycles={total}"])
    runs += 1
    if rc != 0 or cycles != total:
        bad.append(f"--max-cycles={total}: exit {rc}, cycles {cycles}; expected exit 0, cycles {total}")

    for b in bad:
        print(b)
    if bad:
        print(f"watchdog edges: {len(bad)} of {runs} runs wrong")
        return 1
    print(f"watchdog edges: {runs} runs as expected (exit edge {exit_edge}, program {total} cycles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
