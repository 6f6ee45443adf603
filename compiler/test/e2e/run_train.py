#!/usr/bin/env python3
"""End-to-end check of `npu train`: npuc --train, then npusim --manifest.

Runs `./npu train <args>` with the build directory given. Without
--expect-exit the run must exit 0, print "losses: compared N of N" with N > 0
and "golden comparison: PASS". With --expect-exit (injected faults, bad
arguments) it checks the exit code instead; every --expect-regex must appear
in the output either way.
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npu", required=True, help="the npu script")
    ap.add_argument("--build", required=True, help="the build directory (NPU_BUILD_DIR)")
    ap.add_argument("--expect-exit", type=int, default=0)
    ap.add_argument("--expect-regex", action="append", default=[])
    args, rest = ap.parse_known_args()
    env = dict(os.environ, NPU_BUILD_DIR=args.build)
    r = subprocess.run([sys.executable, args.npu, "train"] + rest, capture_output=True, text=True, env=env)
    out = r.stdout + r.stderr
    problems = []
    if r.returncode != args.expect_exit:
        problems.append(f"exit code {r.returncode}, expected {args.expect_exit}")
    if args.expect_exit == 0:
        m = re.search(r"^losses: compared (\d+) of (\d+),", out, re.M)
        if not m or m.group(1) != m.group(2) or int(m.group(1)) == 0:
            problems.append("no 'losses: compared N of N' line with N > 0")
        if "golden comparison: PASS" not in out:
            problems.append("no 'golden comparison: PASS'")
    for rx in args.expect_regex:
        if not re.search(rx, out, re.M):
            problems.append(f"missing /{rx}/")
    for line in out.splitlines():
        if line.startswith(("losses:", "  loss.step", "golden comparison", "status", "npu:", "npuc:")):
            print(line)
    if problems:
        print(out[-4000:])
        print("run_train: FAIL: " + "; ".join(problems))
        return 1
    print("run_train: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
