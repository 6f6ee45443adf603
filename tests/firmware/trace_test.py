#!/usr/bin/env python3
"""npusim --trace: the timeline is valid trace-event JSON with the tracks it
promises, and agrees with the end-of-run report (--stats) about what ran.

    trace_test.py --npusim NPUSIM --elf tiled_matmul.elf --out DIR
"""
import argparse
import collections
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    trace, stats = os.path.join(args.out, "run.json"), os.path.join(args.out, "stats.json")
    p = subprocess.run([args.npusim, "-q", "--trace", trace, "--stats", stats, args.elf], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        fail(f"npusim exit code {p.returncode}\n{p.stderr}")
    plain = os.path.join(args.out, "plain.json")
    subprocess.run([args.npusim, "-q", "--stats", plain, args.elf], capture_output=True, timeout=120)
    with open(plain, encoding="utf-8") as f:
        base = json.load(f)
    with open(trace, encoding="utf-8") as f:
        doc = json.load(f)  # must parse
    with open(stats, encoding="utf-8") as f:
        st = json.load(f)
    if base["cycles"] != st["cycles"] or base["cores"] != st["cores"] or base["stats"] != st["stats"]:
        fail("--trace changed the run's cycles or statistics")
    events = doc["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            for key in ("ts", "dur", "name", "args"):
                if key not in e:
                    fail(f"slice without {key}: {e}")
            if e["dur"] < 0 or e["args"]["end_cycle"] < e["args"]["begin_cycle"]:
                fail(f"slice ends before it begins: {e}")
            slices[names[e["tid"]]].append(e)
    counters = collections.Counter(e["name"] for e in events if e["ph"] == "C")

    for h in range(8):
        if not any(s["name"] == "running" for s in slices[f"hart {h} (worker)"]):
            fail(f"no running slice on worker {h}: tracks {sorted(slices)}")
    cc = slices["hart 8 (cluster controller)"]
    if not any(s["name"] == "running" for s in cc) or not any(s["name"] == "event wait" for s in cc):
        fail("the cluster controller's track lacks running / event wait slices")
    dma = [s for t, v in slices.items() if t.startswith("dma channel") for s in v]
    if len(dma) != st["stats"]["soc.dma"]["transfers"]:
        fail(f"{len(dma)} DMA slices, the report counts {st['stats']['soc.dma']['transfers']} transfers")
    if not all("descriptor" in s["args"] and s["args"]["status"] == "done" for s in dma):
        fail("a DMA slice lacks its descriptor")
    sa = slices["systolic array"]
    if len(sa) != st["stats"]["soc.sa"]["jobs"] or not sa:
        fail(f"{len(sa)} SA slices, the report counts {st['stats']['soc.sa']['jobs']} jobs")
    if sum(s["args"]["cycles"] for s in sa) != st["stats"]["soc.sa"]["busy_cycles"]:
        fail("the SA slices' cycles do not add up to the report's SA busy cycles")
    for s in sa:
        if not all(k in s["args"] for k in ("M", "N", "K")):
            fail(f"SA slice without M/N/K: {s}")
    regions = {s["name"]: s for s in slices["regions hart 8"]}
    for r in st["regions"]:
        got = regions.get(r["name"])
        if not got or got["args"]["cycles"] != r["cycles"]:
            fail(f"region {r['name']}: report {r['cycles']} cycles, timeline {got and got['args']['cycles']}")
    for level in ("l1", "l2", "l3"):
        if not counters[f"bytes {level}"]:
            fail(f"no bytes counter for {level}: {sorted(counters)}")
    if not counters["hart 0 memory stall %"]:
        fail("no memory-stall counter for hart 0")

    bad = subprocess.run([args.npusim, "--trace", "/nonexistent-dir/run.json", args.elf], capture_output=True,
                         text=True, timeout=60)
    if bad.returncode != 2 or "cannot write --trace file" not in bad.stderr:
        fail(f"an unwritable --trace file should be bad input (2), got {bad.returncode}: {bad.stderr}")
    print(f"PASS: {len(events)} events, {len(dma)} DMA transfers, {len(sa)} SA jobs, {len(regions)} regions")


if __name__ == "__main__":
    main()
