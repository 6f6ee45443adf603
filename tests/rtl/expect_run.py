#!/usr/bin/env python3
"""expect_run.py --expect-exit N [--regex RX]... -- COMMAND...: runs COMMAND
and checks its exit code and that its output (stdout and stderr together)
matches every RX (multi-line). For commands that are not one npusim run
(./npu run), which tests/firmware/run_fw_test.py cannot drive."""
import argparse
import re
import subprocess
import sys


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        print("expect_run.py: no '--' before the command", file=sys.stderr)
        return 2
    i = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect-exit", type=int, required=True)
    ap.add_argument("--regex", action="append", required=True)
    ap.add_argument("--timeout", type=float, default=500)
    a = ap.parse_args(argv[:i])
    p = subprocess.run(argv[i + 1:], capture_output=True, text=True, timeout=a.timeout)
    out = p.stdout + p.stderr
    problems = [f"exit code {p.returncode}, expected {a.expect_exit}"] if p.returncode != a.expect_exit else []
    problems += [f"output does not match /{rx}/" for rx in a.regex if not re.search(rx, out, re.MULTILINE)]
    print(out)
    for x in problems:
        print(f"FAIL: {x}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
