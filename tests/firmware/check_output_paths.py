#!/usr/bin/env python3
"""npusim refuses, before the run, an output file that is one of its inputs
or another output, and leaves the inputs as they were.

    check_output_paths.py --npusim NPUSIM --elf ELF

Works on a copy of the ELF in a temporary directory: `--itrace COPY COPY`
(the trace would overwrite the firmware: it did, exit 0), `--stats X
--trace X` (one output would overwrite the other), `--stats CONFIG` with
`--config CONFIG`. Each must exit 2 with a message naming both, and the
copy and the config must be byte for byte what they were.
Prints "output paths: N refusals as expected", exit 0, or what differs, exit 1.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    a = ap.parse_args()
    bad = []
    with tempfile.TemporaryDirectory() as d:
        elf = os.path.join(d, "fw.elf")
        shutil.copy(a.elf, elf)
        cfg = os.path.join(d, "p.cfg")
        with open(cfg, "w") as f:
            f.write("[l1]\nbanks = 16\n")
        out = os.path.join(d, "out.json")
        cases = [
            (["--itrace", elf, elf], "--itrace " + elf + " is the firmware ELF"),
            (["--stats", out, "--trace", out, elf], "--stats and --trace name the same file"),
            (["--config", cfg, "--stats", cfg, elf], "--stats " + cfg + " is the config"),
        ]
        before = {elf: digest(elf), cfg: digest(cfg)}
        for args, want in cases:
            p = subprocess.run([a.npusim, "-q", *args], capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
            if p.returncode != 2 or want not in p.stderr:
                bad.append(f"npusim {' '.join(args)}: exit {p.returncode}, expected 2 and '{want}':\n{p.stderr}")
        for path, h in before.items():
            if digest(path) != h:
                bad.append(f"{path} was changed")
    for b in bad:
        print(b)
    if bad:
        return 1
    print(f"output paths: {len(cases)} refusals as expected, inputs unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
