#!/usr/bin/env python3
"""same_cycles.py --npuc NPUC --npusim NPUSIM --network NET.mlir --out DIR
                 [--variant LABEL=ARGS --variant LABEL=ARGS]:
compiles NET with npuc, runs it twice with npusim -- by default with
sa.model=tlm and sa.model=rtl; --variant (twice) names the two runs and the
npusim arguments of each (split on spaces; "{out}" is DIR, and in the second
run's "{cycles+K}" the first run's cycles plus K) -- and checks that
both pass the golden comparison (N of N elements, N > 0) and take the same
cycles: the whole network's, the SA's busy and stall cycles, every marked
region's, and every DMA channel's and core's traffic and cycles.
The RTL engine's port books the L1 bank-cycles the TLM engine's books
(docs/cosim.md), so the cores and DMA channels around it see the same
contention; a run traced with --itrace must not differ from one without.
Exit 0 same, 1 different or a run failed, 2 usage."""
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
        f[f"hart {c['hart']} instructions"] = c["instructions"]
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
    ap.add_argument("--variant", action="append", default=[], metavar="LABEL=ARGS")
    a = ap.parse_args()
    specs = a.variant or ["tlm=--sa.model=tlm", "rtl=--sa.model=rtl"]
    if len(specs) != 2 or not all("=" in v for v in specs):
        print("same_cycles.py: give --variant LABEL=ARGS twice (or not at all)", file=sys.stderr)
        return 2
    variants = [(v.split("=", 1)[0], v.split("=", 1)[1].replace("{out}", a.out).split()) for v in specs]
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
    for model, extra in variants:
        if got:  # the second run: the first one's cycles are known
            first = next(iter(got.values()))["cycles"]
            extra = [re.sub(r"\{cycles\+(\d+)\}", lambda m: str(first + int(m.group(1))), e) for e in extra]
        stats = os.path.join(a.out, f"stats.{model}.json")
        code, out = run([a.npusim, "--manifest", os.path.join(a.out, "manifest.json"), *extra,
                         "--memcheck=error", "--stats", stats])
        m = re.search(r"^compared (\d+) of (\d+) elements, 0 mismatches", out, re.MULTILINE)
        if code != 0 or not m or m.group(1) != m.group(2) or int(m.group(1)) == 0 or \
                "golden comparison: PASS" not in out:
            print(out)
            print(f"FAIL: {model} ({' '.join(extra)}): exit {code}, golden comparison not passed on every element")
            return 1
        with open(stats) as fh:
            got[model] = figures(json.load(fh))
        print(f"{model}: {got[model]['cycles']} cycles, SA busy {got[model]['sa.busy_cycles']} "
              f"(stall {got[model]['sa.stall_cycles']}), {m.group(1)} of {m.group(2)} elements compared")
    (la, _), (lb, _) = variants
    differ = [k for k in got[la] if got[la][k] != got[lb].get(k)]
    for k in differ:
        print(f"FAIL: {k}: {la} {got[la][k]}, {lb} {got[lb].get(k)}")
    if differ:
        return 1
    print(f"same in both runs ({la}, {lb}): {len(got[la])} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
