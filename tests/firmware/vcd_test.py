#!/usr/bin/env python3
"""npusim --vcd: a well-formed VCD whose signals agree with the end-of-run
report (--stats): one SA busy pulse per SA job, one DMA busy pulse per
transfer, every hart's state, time ending at the run's last cycle; the run's
cycles are unchanged, and --trace with --vcd writes the same timeline as
--trace alone.

    vcd_test.py --npusim NPUSIM --elf tiled_matmul.elf --out DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(npusim, elf, *extra):
    p = subprocess.run([npusim, "-q", *extra, elf], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"npusim {' '.join(extra)}: exit code {p.returncode}\n{p.stderr}")


def parse_vcd(path):
    """(vars by id: (name, width), [(time, id, value)], timescale)"""
    with open(path, encoding="ascii") as f:
        text = f.read()
    head, sep, body = text.partition("$enddefinitions $end")
    if not sep:
        fail("no $enddefinitions")
    ts = re.search(r"\$timescale\s+(\S+)\s+\$end", head)
    if not ts or ts.group(1) != "1ps":
        fail(f"timescale {ts.group(1) if ts else None}, expected 1ps")
    vars_ = {m.group(2): (m.group(3), int(m.group(1)))
             for m in re.finditer(r"\$var wire (\d+) (\S+) (\S+) \$end", head)}
    changes, t, last = [], None, -1
    for line in body.split("\n"):
        line = line.strip()
        if not line or line.startswith("$"):
            continue
        if line.startswith("#"):
            t = int(line[1:])
            if t < last:
                fail(f"time goes back: #{t} after #{last}")
            last = t
            continue
        m = re.fullmatch(r"b([01]+) (\S+)", line)
        if not m or m.group(2) not in vars_:
            fail(f"bad value change line '{line}'")
        changes.append((t, m.group(2), int(m.group(1), 2)))
    return vars_, changes, last


def rising_edges(changes, vid):
    edges, prev = 0, 0
    for _, v, value in changes:
        if v == vid:
            edges += prev == 0 and value > 0
            prev = value
    return edges


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    o = lambda n: os.path.join(a.out, n)
    run(a.npusim, a.elf, "--stats", o("plain.json"))
    run(a.npusim, a.elf, "--vcd", o("run.vcd"), "--stats", o("vcd.json"))
    run(a.npusim, a.elf, "--trace", o("alone.json"))
    run(a.npusim, a.elf, "--trace", o("both.json"), "--vcd", o("both.vcd"))
    plain, st = json.load(open(o("plain.json"))), json.load(open(o("vcd.json")))
    if plain["cycles"] != st["cycles"] or plain["stats"] != st["stats"]:
        fail("--vcd changed the run's cycles or statistics")
    if open(o("alone.json")).read() != open(o("both.json")).read():
        fail("--trace with --vcd wrote another timeline than --trace alone")
    if open(o("run.vcd")).read() != open(o("both.vcd")).read():
        fail("--vcd with --trace wrote another VCD than --vcd alone")

    vars_, changes, end = parse_vcd(o("run.vcd"))
    by_name = {name: vid for vid, (name, _) in vars_.items()}
    harts = len(st["cores"])
    for h in range(harts):
        if f"hart{h}_state" not in by_name:
            fail(f"no hart{h}_state signal")
    sa = by_name.get("systolic_array_busy")
    if sa is None:
        fail(f"no systolic_array_busy signal: {sorted(by_name)}")
    jobs = st["stats"]["soc.sa"]["jobs"]
    if jobs == 0 or rising_edges(changes, sa) != jobs:
        fail(f"systolic_array_busy rises {rising_edges(changes, sa)} times for {jobs} SA jobs")
    dma = [vid for name, vid in by_name.items() if name.startswith("dma_channel_")]
    pulses = sum(rising_edges(changes, v) for v in dma)
    transfers = st["stats"]["soc.dma"]["transfers"]
    # A channel's transfers may be back to back (busy stays 1): at most one
    # pulse per transfer, at least one per channel that moved data.
    if not dma or not len(dma) <= pulses <= transfers:
        fail(f"{pulses} DMA busy pulses on {len(dma)} channels for {transfers} transfers")
    # SystemC keeps the clock period in whole picoseconds (370 MHz: 2703 ps).
    period_ps = round(1e12 / st["cluster_clock_hz"])
    if abs(end - st["cycles"] * period_ps) > period_ps:
        fail(f"the VCD ends at {end} ps, the run at {st['cycles']} cycles ({st['cycles'] * period_ps:.0f} ps)")
    running = [v for t, v, value in changes if vars_[v][0] == f"hart{harts - 1}_state" and value == 1]
    if not running:
        fail("the cluster controller is never running")
    print(f"vcd: {len(vars_)} signals, {len(changes)} changes; {jobs} SA jobs = {jobs} busy pulses; "
          f"{pulses} DMA pulses for {transfers} transfers on {len(dma)} channels")


if __name__ == "__main__":
    main()
