#!/usr/bin/env python3
"""The per-layer report of a compiled network (npuc manifest "layers" +
`npusim --manifest --stats`).

Compiles the network (extra npuc arguments, e.g. --tile pins, pass through),
runs it, and checks one layer: the manifest's MACs for it equal --expect-macs
(from the op's shapes, computed by hand in the test), the --stats region has
the same MACs, macs_per_cycle == macs / cycles, utilisations in [0, 1], bytes
per memory level, and the text report's layer row prints the same figures.
With --expect-tiles the layer's call in --emit=schedule carries those tiles.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def fail(msg):
    print(f"layer_report: FAIL: {msg}")
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--network", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--layer", required=True, help="region name, e.g. layer2.conv2d")
    ap.add_argument("--expect-macs", type=int, required=True)
    ap.add_argument("--expect-tiles", help="e.g. 4,16: npu.tiles of the layer's call")
    ap.add_argument("--npuc-arg", action="append", default=[])
    a = ap.parse_args()

    base = [a.npuc, a.network, "--config", a.config] + a.npuc_arg
    r = subprocess.run(base + ["-o", a.out], capture_output=True, text=True)
    if r.returncode:
        fail(f"npuc exited {r.returncode}:\n{r.stderr}")
    if a.expect_tiles:
        sched = subprocess.run(base + ["--emit=schedule"], capture_output=True, text=True)
        if sched.returncode:
            fail(f"npuc --emit=schedule exited {sched.returncode}:\n{sched.stderr}")
        # The call between the layer's region markers carries npu.tiles.
        want = "npu.tiles = array<i64: " + ", ".join(a.expect_tiles.split(",")) + ">"
        calls = [l for l in sched.stdout.splitlines() if "call @npurt_" in l and "npu.tiles" in l]
        if not any(want in l for l in calls):
            fail(f"no kernel call with {want} in the schedule:\n" + "\n".join(calls))

    manifest = json.load(open(os.path.join(a.out, "manifest.json")))
    layers = {l["region"]: l["macs"] for l in manifest.get("layers", [])}
    if layers.get(a.layer) != a.expect_macs:
        fail(f"manifest MACs of {a.layer}: {layers.get(a.layer)}, expected {a.expect_macs} (layers: {layers})")

    stats_path = os.path.join(a.out, "stats.json")
    r = subprocess.run([a.npusim, "--manifest", os.path.join(a.out, "manifest.json"), "--stats", stats_path],
                       capture_output=True, text=True)
    if r.returncode:
        fail(f"npusim exited {r.returncode}:\n{r.stderr[-3000:]}")
    stats = json.load(open(stats_path))
    regions = [g for g in stats["regions"] if g["name"] == a.layer]
    if len(regions) != 1:
        fail(f"{len(regions)} --stats regions named {a.layer}")
    g = regions[0]
    cycles = g["cycles"]
    if not cycles or g.get("macs") != a.expect_macs:
        fail(f"--stats region {a.layer}: cycles {cycles}, macs {g.get('macs')}")
    if abs(g["macs_per_cycle"] - a.expect_macs / cycles) > 1e-9 * max(1.0, g["macs_per_cycle"]):
        fail(f"macs_per_cycle {g['macs_per_cycle']} != {a.expect_macs} / {cycles}")
    if not 0.0 <= g["worker_utilisation"] <= 1.0:
        fail(f"worker_utilisation {g['worker_utilisation']}")
    for owner, busy in g["busy_cycles"].items():
        if busy > cycles:
            fail(f"{owner} busy {busy} cycles in a region of {cycles}")
    moved = sum(v["read"] + v["write"] for v in g["bytes"].values())
    if not moved:
        fail(f"no bytes moved in {a.layer}: {g['bytes']}")

    # The text report's row: name, cycles, MACs, MAC/cycle.
    table = r.stderr.partition("\nlayers (npuc regions")[2]
    row = re.search(r"^\s+" + re.escape(a.layer) + r"\s+(\d+)\s+(\d+)\s+([\d.]+)", table, re.M)
    if not row or int(row.group(1)) != cycles or int(row.group(2)) != a.expect_macs:
        fail(f"no layer row for {a.layer} with {cycles} cycles and {a.expect_macs} MACs in the report")
    if abs(float(row.group(3)) - a.expect_macs / cycles) > 0.005 + 1e-9:
        fail(f"report MAC/cycle {row.group(3)} != {a.expect_macs / cycles:.2f}")
    print(f"layer_report: {a.layer}: {a.expect_macs} MACs in {cycles} cycles = {g['macs_per_cycle']:.3f} MAC/cycle, "
          f"workers {100 * g['worker_utilisation']:.1f} %, {moved} bytes moved: ok")


if __name__ == "__main__":
    main()
