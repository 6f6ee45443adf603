#!/usr/bin/env python3
"""Runs one firmware with sa.model=tlm and with another SA model and checks
that both give the same exit code and the same output and report, host
timing lines aside (an RTL SA given an L2 operand is the same bus error as
the TLM SA, byte for byte)."""
import argparse
import re
import subprocess
import sys

HOST = re.compile(r"host|simulation speed")


def run(npusim, elf, model, extra):
    p = subprocess.run([npusim, f"--sa.model={model}", elf] + extra, capture_output=True, text=True)
    lines = [l for l in (p.stdout + p.stderr).splitlines() if not HOST.search(l)]
    return p.returncode, lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--expect-exit", type=int, required=True)
    ap.add_argument("--ignore", action="append", default=[], help="regex of lines allowed to differ")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    ignore = [re.compile(r) for r in a.ignore]
    keep = lambda ls: [l for l in ls if not any(r.search(l) for r in ignore)]
    rc_t, out_t = run(a.npusim, a.elf, "tlm", a.args)
    rc_m, out_m = run(a.npusim, a.elf, a.model, a.args)
    ok = True
    if rc_t != a.expect_exit or rc_m != a.expect_exit:
        print(f"exit codes: tlm {rc_t}, {a.model} {rc_m}, expected {a.expect_exit}")
        ok = False
    if keep(out_t) != keep(out_m):
        print(f"output differs between sa.model=tlm and sa.model={a.model}:")
        for x, y in zip(keep(out_t) + [""] * len(out_m), keep(out_m) + [""] * len(out_t)):
            if x != y:
                print(f"  tlm: {x}\n  {a.model}: {y}")
                break
        ok = False
    print("\n".join(out_m))
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
