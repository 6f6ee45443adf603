#!/usr/bin/env python3
"""Every ELF given runs with zero memcheck findings under --memcheck=strict.

    check_strict_clean.py --npusim NPUSIM [--args ...] -- ELF...

strict is the mode in which crt0's .bss zeroing does not count as loading
data (docs/memory-map.md): shipped examples, fixed twins and tests must not
read never-loaded data there. Exit codes other than memcheck's are not
judged here (each program's own test does that).
"""
import argparse
import re
import subprocess
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--npusim", required=True)
    p.add_argument("elfs", nargs="+")
    a = p.parse_args()
    bad = []
    for elf in a.elfs:
        r = subprocess.run([a.npusim, "--memcheck=strict", "--max-cycles=200000000", elf], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        m = re.search(r"memcheck findings: (\d+)", r.stderr)
        if r.returncode == 4 or not m or m.group(1) != "0":
            bad.append("%s: exit %d, %s" % (elf, r.returncode, m.group(0) if m else "no report"))
            first = r.stderr.find("*** memcheck")
            if first >= 0:
                bad.append(r.stderr[first:first + 600])
    for b in bad:
        print(b)
    print("%d of %d programs clean under --memcheck=strict" % (len(a.elfs) - sum(1 for b in bad if not b.startswith("***")), len(a.elfs)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
