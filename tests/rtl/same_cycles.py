#!/usr/bin/env python3
"""same_cycles.py --npuc NPUC --npusim NPUSIM --network NET.mlir --out DIR:
compiles NET with npuc, runs it with sa.model=tlm and sa.model=rtl, and
checks that both pass the golden comparison (N of N elements, N > 0) and
take the same cycles: the whole network's, the SA's busy and stall cycles,
every marked region's, and every DMA channel's and core's traffic and cycles.
The RTL engine's port books the L1 bank-cycles the TLM engine's books
(docs/cosim.md), so the cores and DMA channels around it see the same
contention. Exit 0 same, 1 different or a run failed, 2 usage."""
import argparse
import json
import os
import re
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def figures(stats):
    """What must not depend on the SA engine, by name."""
    f = {"cycles": stats["cycles"]}
    sa = stats["stats"]["soc.sa"]
    for k in ("jobs", "macs", "busy_cycles", "stall_cycles"):
        f[f"sa.{k}"] = sa[k]
    for r in stats.get("regions", []):
        f[f"region {r['name']}"] = r["cycles"]
    for c in stats["cores"]:
        f[f"hart {c['hart']} cycles"] = c["cycles"]
    for group, values in stats["stats"].items():
        # The L1's transaction counts include the SA's own, which differ by
        # engine (the RTL moves words, the TLM engine rows through DMI).
        keys = ("bank_conflicts", "bank_stall_cycles") if group == "soc.l1" else values.keys()
        if group.startswith("soc.dma") or group.startswith("soc.core") or group == "soc.l1":
            for k in keys:
                if isinstance(values[k], int):
                    f[f"{group}.{k}"] = values[k]
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--network", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    for tool in (a.npuc, a.npusim):
        if not os.access(tool, os.X_OK):
            print(f"same_cycles.py: {tool}: not an executable", file=sys.stderr)
            return 2
    code, out = run([a.npuc, a.network, "-o", a.out])
    if code != 0:
        print(out)
        print(f"FAIL: npuc exited {code}")
        return 1
    got = {}
    for model in ("tlm", "rtl"):
        stats = os.path.join(a.out, f"stats.{model}.json")
        code, out = run([a.npusim, "--manifest", os.path.join(a.out, "manifest.json"), f"--sa.model={model}",
                         "--memcheck=error", "--stats", stats])
        m = re.search(r"^compared (\d+) of (\d+) elements, 0 mismatches", out, re.MULTILINE)
        if code != 0 or not m or m.group(1) != m.group(2) or int(m.group(1)) == 0 or \
                "golden comparison: PASS" not in out:
            print(out)
            print(f"FAIL: sa.model={model}: exit {code}, golden comparison not passed on every element")
            return 1
        with open(stats) as fh:
            got[model] = figures(json.load(fh))
        print(f"sa.model={model}: {got[model]['cycles']} cycles, SA busy {got[model]['sa.busy_cycles']} "
              f"(stall {got[model]['sa.stall_cycles']}), {m.group(1)} of {m.group(2)} elements compared")
    differ = [k for k in got["tlm"] if got["tlm"][k] != got["rtl"].get(k)]
    for k in differ:
        print(f"FAIL: {k}: tlm {got['tlm'][k]}, rtl {got['rtl'].get(k)}")
    if differ:
        return 1
    print(f"same on both engines: {len(got['tlm'])} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
