#!/usr/bin/env python3
"""npusim --itrace: one line per instruction of the selected harts, from the
selected point, with results and memory accesses; tracing changes no cycle.

    itrace_test.py --npusim NPUSIM --elf gdb_target.elf --out DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys

LINE = re.compile(r"^\s*(\d+) h(\d+) (0x[0-9a-f]{8}) (<\S+>)?\s+(\S.*?)\s*$")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def npusim(args, *extra):
    return subprocess.run([args.npusim, "-q", *extra, args.elf], capture_output=True, text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    trace = os.path.join(args.out, "itrace.txt")
    plain, traced = os.path.join(args.out, "plain.json"), os.path.join(args.out, "traced.json")
    npusim(args, "--stats", plain)
    p = npusim(args, "--stats", traced, "--itrace", trace, "--itrace-harts", "3", "--itrace-from", "scale_on_worker")
    if p.returncode != 3:
        fail(f"gdb_target ends with a bus error (3), got {p.returncode}: {p.stderr}")
    a, b = json.load(open(plain)), json.load(open(traced))
    if a["cycles"] != b["cycles"] or a["cores"] != b["cores"]:
        fail("--itrace changed the run's cycles or per-core figures")
    lines = open(trace, encoding="utf-8").read().splitlines()
    parsed = [LINE.match(l) for l in lines]
    if not lines or not all(parsed):
        fail(f"unparsable lines: {[l for l, m in zip(lines, parsed) if not m][:3]}")
    if {m.group(2) for m in parsed} != {"3"}:
        fail("--itrace-harts 3 traced other harts")
    if parsed[0].group(4) != "<scale_on_worker>":
        fail(f"--itrace-from scale_on_worker: the first line is {lines[0]!r}")
    cycles = [int(m.group(1)) for m in parsed]
    if cycles != sorted(cycles) or len(set(cycles)) != len(cycles):
        fail("one hart's cycles must increase strictly line by line")
    text = "\n".join(lines)
    # gdb_data[2] = 3 * 3, stored by worker 3; mhartid read into a register.
    for pattern, what in [(r"\bmul\s+\w+, \w+, \w+\s+\w+ = 0x00000009", "the multiply giving 9"),
                          (r"\bsw\s+.*mem\[0x[0-9a-f]{8}\] <- 0x9\b", "the store of 9"),
                          (r"\blw\s+.*\w+ = 0x00000003\s+mem\[0x[0-9a-f]{8}\] -> 0x3\b", "the load of 3"),
                          (r"csrr\s+\w+, mhartid\s+\w+ = 0x00000003", "mhartid = 3")]:
        if not re.search(pattern, text):
            fail(f"{what}: /{pattern}/ not in the trace:\n" + "\n".join(lines[:40]))
    # Numbers past 32 bits are not taken modulo 2^32 (4294967304 traced hart
    # 8, -1 was "hart 4294967295"), nor is a list with an empty item.
    for extra, msg in [(("--itrace", trace, "--itrace-harts", "9-12"), "does not exist"),
                       (("--itrace", trace, "--itrace-harts", "4294967304"), "hart 4294967304 does not exist"),
                       (("--itrace", trace, "--itrace-harts", "0-4294967296"), "hart 4294967296 does not exist"),
                       (("--itrace", trace, "--itrace-harts", "-1"), "'-1' is not a hart number or range"),
                       (("--itrace", trace, "--itrace-harts", "8,"), "'' is not a hart number or range"),
                       (("--itrace", trace, "--itrace-from", ""), "--itrace-from: empty"),
                       (("--itrace", trace, "--itrace-from", "no_such_symbol"), "neither a cycle nor a symbol"),
                       (("--itrace-harts", "3"), "need --itrace FILE")]:
        q = npusim(args, *extra)
        if q.returncode != 2 or msg not in q.stderr:
            fail(f"{extra}: expected bad input (2) saying '{msg}', got {q.returncode}: {q.stderr}")
    print(f"PASS: {len(lines)} lines")


if __name__ == "__main__":
    main()
