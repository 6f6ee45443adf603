#!/usr/bin/env python3
"""Runs one firmware program on npusim and checks what it did.

    run_fw_test.py --npusim NPUSIM --elf FW.elf --expect-exit N
                   [--expect-stdout FILE | --expect-stdout-unordered FILE | --expect-no-stdout]
                   [--stdout-regex RE ...] [--stderr-regex RE ...] [--stderr-not-regex RE ...]
                   [--timeout SECONDS] [--args NPUSIM_ARG ...]

--args comes last: everything after it goes to npusim (before the ELF).

The firmware's UART output is npusim's stdout, compared exactly (or as a
multiset of lines, for harts printing in any order); npusim's own reports
are on stderr, matched by regular expressions (re.search, MULTILINE).
A test with no stdout and no stderr expectation is refused: checking only
an exit code cannot tell a right answer from a wrong one.
"""
import argparse
import difflib
import re
import subprocess
import sys


def fail(problems, proc_stdout, proc_stderr, cmd):
    print("FAIL: " + " ".join(cmd), file=sys.stderr)
    for p in problems:
        print("  - " + p, file=sys.stderr)
    print("---- npusim stdout (firmware output) ----", file=sys.stderr)
    sys.stderr.write(proc_stdout if proc_stdout else "(empty)\n")
    print("---- npusim stderr (report) ----", file=sys.stderr)
    sys.stderr.write(proc_stderr if proc_stderr else "(empty)\n")
    sys.exit(1)


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--expect-exit", type=int, required=True)
    out = ap.add_mutually_exclusive_group()
    out.add_argument("--expect-stdout", metavar="FILE", help="exact expected stdout")
    out.add_argument("--expect-stdout-unordered", metavar="FILE",
                     help="expected stdout lines, in any order")
    out.add_argument("--expect-no-stdout", action="store_true", help="the firmware prints nothing")
    ap.add_argument("--stdout-regex", action="append", default=[])
    ap.add_argument("--stderr-regex", action="append", default=[])
    ap.add_argument("--stderr-not-regex", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=50.0)
    # Split by hand: npusim options start with "--" and would look like ours.
    argv = sys.argv[1:]
    npusim_args = []
    if "--args" in argv:
        i = argv.index("--args")
        argv, npusim_args = argv[:i], argv[i + 1:]
    a = ap.parse_args(argv)

    has_stdout_check = a.expect_stdout or a.expect_stdout_unordered or a.expect_no_stdout or a.stdout_regex
    if not has_stdout_check and not a.stderr_regex:
        print("run_fw_test.py: refusing a test with no stdout or stderr expectation: "
              "an exit code alone cannot catch a wrong answer", file=sys.stderr)
        sys.exit(2)

    # The ELF path goes last, after every option.
    cmd = [a.npusim] + npusim_args + [a.elf]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=a.timeout)
    except subprocess.TimeoutExpired as e:
        fail([f"npusim did not finish within {a.timeout:g} s"],
             (e.stdout or b"").decode(errors="replace"), (e.stderr or b"").decode(errors="replace"), cmd)
    except OSError as e:
        fail([f"cannot run npusim: {e}"], "", "", cmd)
    stdout = proc.stdout.decode("utf-8", errors="replace")
    stderr = proc.stderr.decode("utf-8", errors="replace")

    problems = []
    if proc.returncode != a.expect_exit:
        problems.append(f"exit code {proc.returncode}, expected {a.expect_exit}")

    if a.expect_stdout is not None:
        want = read_text(a.expect_stdout)
        if stdout != want:
            diff = difflib.unified_diff(want.splitlines(keepends=True), stdout.splitlines(keepends=True),
                                        "expected stdout", "actual stdout")
            problems.append("stdout differs:\n" + "".join(diff))
    if a.expect_stdout_unordered is not None:
        want = sorted(read_text(a.expect_stdout_unordered).splitlines())
        got = sorted(stdout.splitlines())
        if want != got:
            diff = difflib.unified_diff([l + "\n" for l in want], [l + "\n" for l in got],
                                        "expected stdout lines (sorted)", "actual stdout lines (sorted)")
            problems.append("stdout lines differ (order ignored):\n" + "".join(diff))
    if a.expect_no_stdout and stdout:
        problems.append("expected no stdout")
    for rx in a.stdout_regex:
        if not re.search(rx, stdout, re.MULTILINE):
            problems.append(f"stdout does not match /{rx}/")
    for rx in a.stderr_regex:
        if not re.search(rx, stderr, re.MULTILINE):
            problems.append(f"stderr does not match /{rx}/")
    for rx in a.stderr_not_regex:
        if re.search(rx, stderr, re.MULTILINE):
            problems.append(f"stderr matches /{rx}/ but must not")

    if problems:
        fail(problems, stdout, stderr, cmd)
    print("PASS: " + " ".join(cmd))


if __name__ == "__main__":
    main()
