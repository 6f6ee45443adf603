#!/usr/bin/python3
"""sa_jobs: the SA jobs each shipped network gives the array, from real runs.

    bench/fidelity/sa_jobs.py [--build BUILD] [--check]

For each network of bench/fidelity/sa_rows.cpp's `networks` list, runs
`./npu run compiler/networks/NET.mlir` on configs/gap9.cfg with npusim's
--trace and collects the "systolic array" spans (M, N, K, accumulate), which
it prints as that list's C++ lines (how many jobs of each shape, in the order
the shapes first run).

--check compares them with the list in sa_rows.cpp instead (as multisets of
shapes: the order does not change the table's sums) and exits 1 naming every
network whose jobs differ: the fidelity table's SA rows would then describe
a compiler that no longer exists (npuc's tiling changed the jobs). Paste the
printed lines into sa_rows.cpp and re-run `cmake --build build --target
fidelity` for docs/memory-map.md's table.
Exit codes: 0 same (or printed), 1 differ, 2 usage / a run failed.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SA_ROWS = os.path.join(ROOT, "bench", "fidelity", "sa_rows.cpp")


def listed():
    """sa_rows.cpp's networks: name -> (fp32, Counter of (m, n, k, acc))."""
    with open(SA_ROWS) as f:
        text = f.read()
    body = text[text.index("const network networks[] = {"):]
    body = body[:body.index("\n};")]
    nets = {}
    for m in re.finditer(r'\{"(\w+)", (true|false), \{(.*?)\}\},?\n(?=    \{"|$)', body + "\n", re.S):
        jobs = collections.Counter()
        for j in re.finditer(r"\{(\d+), (\d+), (\d+), (\d+), (true|false)\}", m.group(3)):
            jobs[(int(j.group(2)), int(j.group(3)), int(j.group(4)), j.group(5) == "true")] += int(j.group(1))
        nets[m.group(1)] = (m.group(2) == "true", jobs)
    if not nets:
        raise SystemExit(f"sa_jobs: no networks found in {SA_ROWS}")
    return nets


def run_jobs(build, net, tmp):
    """The SA jobs of one run: [(m, n, k, acc)] in start order."""
    out = os.path.join(tmp, net)
    trace = os.path.join(tmp, net + ".trace.json")
    cmd = [os.path.join(ROOT, "npu"), "run", f"compiler/networks/{net}.mlir", "-o", out,
           f"--npusim-arg=--trace={trace}"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, NPU_BUILD_DIR=build, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if p.returncode != 0 or "golden comparison: PASS" not in p.stdout + p.stderr:
        print(f"sa_jobs: {' '.join(cmd)}: exit {p.returncode}\n{(p.stdout + p.stderr)[-1000:]}", file=sys.stderr)
        raise SystemExit(2)
    with open(trace) as f:
        events = json.load(f)
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and "args" in e}
    spans = sorted((e for e in events if e.get("ph") == "X" and names.get(e.get("tid")) == "systolic array"),
                   key=lambda e: e["args"]["begin_cycle"])
    return [(int(e["args"]["M"]), int(e["args"]["N"]), int(e["args"]["K"]), e["args"]["accumulate"] == "yes")
            for e in spans]


def cpp_line(net, fp32, jobs):
    counts = collections.Counter(jobs)
    shapes = list(dict.fromkeys(jobs))  # first-run order
    items = ", ".join(f"{{{counts[s]}, {s[0]}, {s[1]}, {s[2]}, {'true' if s[3] else 'false'}}}" for s in shapes)
    return f'    {{"{net}", {"true" if fp32 else "false"}, {{{items}}}}},'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.environ.get("NPU_BUILD_DIR", os.path.join(ROOT, "build")))
    ap.add_argument("--check", action="store_true", help="compare with sa_rows.cpp instead of printing")
    a = ap.parse_args()
    nets = listed()
    differ = []
    with tempfile.TemporaryDirectory(prefix="npu-sa-jobs-") as tmp:
        for net, (fp32, want) in nets.items():
            jobs = run_jobs(os.path.abspath(a.build), net, tmp)
            if not jobs:
                print(f"sa_jobs: {net}: the run started no SA job", file=sys.stderr)
                return 2
            if not a.check:
                print(cpp_line(net, fp32, jobs))
                continue
            got = collections.Counter(jobs)
            if got != want:
                differ.append(net)
                print(f"sa_jobs: {net}: sa_rows.cpp lists {sum(want.values())} jobs, the run starts {len(jobs)}; "
                      f"the run's list:\n{cpp_line(net, fp32, jobs)}")
            else:
                print(f"sa_jobs: {net}: {len(jobs)} jobs, as listed")
    if differ:
        print(f"sa_jobs: {len(differ)} of {len(nets)} networks' jobs differ from bench/fidelity/sa_rows.cpp "
              f"({', '.join(differ)}): paste the lines above into it and re-run the fidelity target")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
