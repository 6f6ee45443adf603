#!/usr/bin/env python3
"""Runs npusim twice on the same ELF and config and fails unless the
firmware output and every simulated figure (cycles, instructions, traffic,
every model statistic) are identical. Host time is the only thing allowed to
differ. Refuses a run that simulated nothing, or that did not end with the
expected exit code (--expect-exit, default 0)."""
import argparse
import json
import subprocess
import sys
import tempfile


def run(npusim, elf, args, stats):
    p = subprocess.run([npusim, *args, "--stats", stats, elf], capture_output=True, text=True, timeout=120)
    with open(stats) as f:
        data = json.load(f)
    data.pop("host_seconds", None)
    for r in data.get("regions", []):  # each marked region's host time too
        r.pop("host_seconds", None)
    return p.returncode, p.stdout, data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--expect-exit", type=int, default=0, help="exit code both runs must have")
    ap.add_argument("--args", nargs=argparse.REMAINDER, default=[])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        r1 = run(a.npusim, a.elf, a.args, f"{d}/a.json")
        r2 = run(a.npusim, a.elf, a.args, f"{d}/b.json")
    if r1[2].get("cycles", 0) == 0 or sum(c["instructions"] for c in r1[2]["cores"]) == 0:
        print("the run simulated nothing: cannot judge determinism")
        return 1
    ok = True
    # Two identical failures are deterministic but prove nothing about the harts.
    if r1[0] != a.expect_exit:
        print(f"run 1 exited {r1[0]}, expected {a.expect_exit}")
        ok = False
    if r1[0] != r2[0]:
        print(f"exit codes differ: {r1[0]} vs {r2[0]}")
        ok = False
    if r1[1] != r2[1]:
        print("firmware output differs between runs")
        ok = False
    for key in sorted(set(r1[2]) | set(r2[2])):
        if r1[2].get(key) != r2[2].get(key):
            print(f"'{key}' differs:\n  run 1: {r1[2].get(key)}\n  run 2: {r2[2].get(key)}")
            ok = False
    if ok:
        print(f"identical: {r1[2]['cycles']} cycles, "
              f"{sum(c['instructions'] for c in r1[2]['cores'])} instructions, exit {r1[0]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
