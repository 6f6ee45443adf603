#!/usr/bin/env python3
"""Checks the cores' two contention batch lengths (docs/cores.md, Performance)
on a multi-hart program whose harts collide only now and then on the L1
banks and the cluster's path to L2 (bench/workloads/int_bench.c on every
hart: the CRC table in L2).

Three runs of the same ELF: the default (occasional waits run
core.sparse_contended_batch = 1024-cycle batches), every contended batch at
core.contended_batch = 128 (as every contending hart ran before the sparse
key), and 16-cycle batches everywhere (the finest turns, the reference).
Fails unless

- every run checks itself (exit 0, the same checksum line);
- the default run's harts ran sparse batches and synchronised at most a
  third as often as with 128-cycle batches everywhere (the host time a
  9-hart run spends switching between harts);
- each run's cycles are within 0.5 % of the reference's (how far longer
  turns move the result).
"""
import argparse
import json
import subprocess
import sys
import tempfile


def run(npusim, elf, args, stats):
    p = subprocess.run([npusim, "--quiet", *args, "--stats", stats, elf], capture_output=True, text=True,
                       timeout=300)
    with open(stats) as f:
        data = json.load(f)
    cores = [k for k in data["stats"] if k.startswith("soc.core") or k == "soc.cc"]
    dense = sum(data["stats"][k]["batches_dense"] for k in cores)
    sparse = sum(data["stats"][k]["batches_sparse"] for k in cores)
    return p.returncode, p.stdout, data["cycles"], dense, sparse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--config", required=True)
    a = ap.parse_args()
    base = ["--config", a.config]
    runs = {
        "default": base,
        "128 everywhere": base + ["--core.sparse_contended_batch=128"],
        "16 everywhere": base + ["--core.contended_batch=16", "--core.sparse_contended_batch=16"],
    }
    res = {}
    with tempfile.TemporaryDirectory() as d:
        for i, (name, args) in enumerate(runs.items()):
            res[name] = run(a.npusim, a.elf, args, f"{d}/{i}.json")
    ok = True
    ref = res["16 everywhere"]
    for name, (rc, out, cycles, dense, sparse) in res.items():
        print(f"{name}: exit {rc}, {cycles} cycles, {dense} dense + {sparse} sparse batches")
        if rc != 0 or "checksum" not in out:
            print(f"  FAIL: {name} did not check itself: {out.strip()}")
            ok = False
        elif out != ref[1]:
            print(f"  FAIL: {name} printed {out.strip()!r}, the reference {ref[1].strip()!r}")
            ok = False
        if cycles == 0 or dense + sparse == 0:
            print(f"  FAIL: {name} simulated nothing or synchronised no batch: nothing to judge")
            ok = False
            continue
        dev = (cycles - ref[2]) / ref[2]
        print(f"  {100 * dev:+.3f} % cycles against 16-cycle batches")
        if abs(dev) > 0.005:
            print("  FAIL: more than 0.5 % from the reference")
            ok = False
    d_syncs = res["default"][3] + res["default"][4]
    o_syncs = res["128 everywhere"][3] + res["128 everywhere"][4]
    print(f"synchronised batches: default {d_syncs}, 128 everywhere {o_syncs}")
    if res["default"][4] == 0:
        print("FAIL: the default run ran no sparse batch")
        ok = False
    if d_syncs * 3 > o_syncs:
        print("FAIL: the default run synchronised more than a third as often as 128-cycle batches everywhere")
        ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
