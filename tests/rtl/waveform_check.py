#!/usr/bin/env python3
"""--rtl-trace FILE.fst|FILE.vcd: runs one SA firmware with sa.model=rtl once
per format and checks that
  - the .fst is an FST file (header block, fstWriter signature) that GTKWave's
    FST reader (rtl_fst2vcd, fstapi) reads back;
  - the .vcd is a VCD with the array's clock, done and cycle-count signals,
    monotonic time, and one rising edge of done_o per SA job;
  - both hold the same value changes (same run, two formats), and no
    temporary file is left behind."""
import argparse
import os
import re
import subprocess
import sys


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def npusim(a, trace):
    p = subprocess.run([a.npusim, "--sa.model=rtl", "--rtl-trace", trace, a.elf], capture_output=True, text=True,
                       timeout=100)
    if p.returncode != 0:
        fail(f"npusim --rtl-trace {trace} exited {p.returncode}:\n{p.stdout}{p.stderr}")


def parse_vcd(path):
    """(the signals' names by id code, the value-change lines after the header)."""
    text = open(path).read()
    head, sep, body = text.partition("$enddefinitions $end")
    if not sep:
        fail(f"{path}: no $enddefinitions: not a VCD")
    names = {}
    for m in re.finditer(r"\$var\s+\S+\s+\d+\s+(\S+)\s+(\S+)", head):
        names.setdefault(m.group(1), m.group(2))
    return names, [l.strip() for l in body.splitlines() if l.strip()]


def check_vcd(path, jobs):
    names, tokens = parse_vcd(path)
    ids = {n: i for i, n in names.items()}
    for want in ("clk_i", "done_o", "cycles_o", "start_i"):
        if want not in ids:
            fail(f"{path}: no signal {want} (signals: {sorted(ids)[:20]} ...)")
    t, times, done, rises, clk_edges = -1, 0, "0", 0, 0
    for line in tokens:
        # "#time", a scalar "<0|1|x|z><id>", or a vector "b<bits> <id>"
        if line.startswith("#"):
            nt = int(line[1:])
            if nt < t:
                fail(f"{path}: time goes back from {t} to {nt}")
            t, times = nt, times + 1
        elif line[0] in "01xz" and line[1:] == ids["done_o"]:
            if line[0] == "1" and done != "1":
                rises += 1
            done = line[0]
        elif line[0] == "1" and line[1:] == ids["clk_i"]:
            clk_edges += 1
    if rises != jobs:
        fail(f"{path}: done_o rose {rises} times, the firmware runs {jobs} SA jobs")
    if clk_edges < 100:
        fail(f"{path}: only {clk_edges} rising clock edges")
    print(f"{path}: {len(names)} signals, {times} time steps up to {t}, {clk_edges} clock cycles, "
          f"done_o rose {rises} times")
    return tokens


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--fst2vcd", required=True)
    ap.add_argument("--jobs", type=int, required=True, help="SA jobs the firmware runs")
    ap.add_argument("--dir", required=True)
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    fst, vcd, back = (os.path.join(a.dir, n) for n in ("sa.fst", "sa.vcd", "sa.fst.vcd"))
    for f in (fst, vcd, back):
        if os.path.exists(f):
            os.remove(f)

    npusim(a, fst)
    data = open(fst, "rb").read()
    # FST: a header block (type 0, FST_BL_HDR) whose writer string says fstWriter.
    if len(data) < 330 or data[0] != 0 or b"fstWriter" not in data[:400]:
        fail(f"{fst}: no FST header block ({len(data)} bytes, first byte {data[:1]!r})")
    p = subprocess.run([a.fst2vcd, fst, back], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"GTKWave's FST reader refused {fst}: {p.stderr}")
    from_fst = check_vcd(back, a.jobs)

    npusim(a, vcd)
    if os.path.exists(vcd + ".tmp.fst"):
        fail(f"{vcd}.tmp.fst left behind")
    direct = check_vcd(vcd, a.jobs)
    if direct != from_fst:
        fail(f"{vcd} and {fst} hold different value changes")
    for f in (vcd, back):  # 75 MB each; the FST stays for a look
        os.remove(f)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
