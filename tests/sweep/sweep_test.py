#!/usr/bin/python3
"""Tests of `./npu sweep` (scripts/npu_sweep.py) against the real npuc and
npusim of a build, and of a real Slurm (scripts/slurm-local.sh).

    sweep_test.py CASE --build BUILD --work DIR

CASE: local | timing | resume | slurm | manifest-timing | fix-tiles | energy | bad-input | bad-points |
bad-args | plot-axis.
Every case checks the numbers it gets (verified points, compared elements,
compile counts), never only an exit code.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NPU = os.path.join(ROOT, "npu")
MLP = os.path.join(ROOT, "compiler", "networks", "mlp_int8.mlir")
# mlp_f32's tiles change with more L1 than gap9's (mlp_int8's do not).
MLP_F32 = os.path.join(ROOT, "compiler", "networks", "mlp_f32.mlir")
# The smallest network: for the cases that need a real compile, but quickly.
MLP_TINY = os.path.join(ROOT, "compiler", "networks", "mlp_tiny_f32.mlir")
# Columns that are host timings: they differ between runs, nothing else may.
HOST_COLUMNS = {"wall_seconds", "compile_seconds"}


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def sweep(build, args, expect=0):
    env = dict(os.environ, NPU_BUILD_DIR=build)
    r = subprocess.run(["/usr/bin/python3", NPU, "sweep"] + args, capture_output=True, text=True, env=env)
    sys.stdout.write(r.stdout)
    sys.stdout.write(r.stderr)
    if r.returncode != expect:
        fail(f"npu sweep {' '.join(args)}: exit {r.returncode}, expected {expect}")
    return r


def rows(out):
    with open(os.path.join(out, "results.csv"), newline="") as f:
        return list(csv.DictReader(f))


def check_verified(rs, n):
    if len(rs) != n:
        fail(f"{len(rs)} rows, expected {n}")
    for r in rs:
        if r["status"] != "verified":
            fail(f"point {r} not verified")
        if not r["compared"] or int(r["compared"]) <= 0:
            fail(f"point {r} compared {r['compared']!r} elements")
        if int(r["mismatches"]) != 0 or int(r["cycles"]) <= 0:
            fail(f"point {r}: mismatches {r['mismatches']}, cycles {r['cycles']}")
    print(f"{len(rs)} of {n} points verified, compared {sum(int(r['compared']) for r in rs)} elements in all")


def comparable(rs):
    return [{k: v for k, v in r.items() if k not in HOST_COLUMNS} for r in rs]


def the_sweep(build, out, extra=()):
    return sweep(build, [MLP, "--set", "l1.size=32KiB,64KiB,128KiB", "--set", "sa.rows=8,16", "-o", out,
                         "--jobs", "2"] + list(extra))


def case_local(build, work):
    out = os.path.join(work, "local")
    shutil.rmtree(out, ignore_errors=True)
    r = the_sweep(build, out)
    if "6 distinct compile configs, 6 to compile" not in r.stdout:
        fail("expected 6 compiles (l1.size and sa.rows are both compile-relevant)")
    rs = rows(out)
    check_verified(rs, 6)
    if sorted((x["l1.size"], x["sa.rows"]) for x in rs) != sorted(
            (a, b) for a in ["32KiB", "64KiB", "128KiB"] for b in ["8", "16"]):
        fail("the CSV's points are not the cartesian product")
    if len({x["cycles"] for x in rs}) < 2:
        fail("every point has the same cycles: the swept keys changed nothing")
    for png in ["cycles_vs_l1_size.png", "cycles_vs_sa_rows.png", "energy_vs_l1_size.png", "roofline.png"]:
        p = os.path.join(out, png)
        with open(p, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                fail(f"{p} is not a PNG")
    for r in rs:
        blocks = sum(float(v) for k, v in r.items() if k.startswith("energy_uj_"))
        if not float(r["energy_uj"]) > 0 or abs(blocks - float(r["energy_uj"])) > 1e-3:
            fail(f"energy {r['energy_uj']} uJ is not the sum of its blocks ({blocks})")
    for col in ["bytes_l2", "util_soc.sa", "layer_cycles:layer1.matmul", "layer_energy_uj:layer1.matmul"]:
        if col not in rs[0]:
            fail(f"column {col} missing from results.csv: {list(rs[0])}")
    print("sweep local: ok")


def case_timing(build, work):
    out = os.path.join(work, "timing")
    shutil.rmtree(out, ignore_errors=True)
    r = sweep(build, [MLP, "--set", "l2.latency=6,20,50", "--set", "dma.bandwidth=0,2", "-o", out])
    # Timing-only keys are not in the fingerprint: one firmware for all six.
    if "6 points, 1 distinct compile configs, 1 to compile" not in r.stdout:
        fail("a timing-only sweep must compile once")
    rs = rows(out)
    check_verified(rs, 6)
    cyc = {(x["l2.latency"], x["dma.bandwidth"]): int(x["cycles"]) for x in rs}
    if not cyc[("6", "0")] < cyc[("20", "0")] < cyc[("50", "0")]:
        fail(f"cycles do not grow with l2.latency: {cyc}")
    if not cyc[("6", "2")] > cyc[("6", "0")]:
        fail(f"dma.bandwidth=2 is not slower than unlimited: {cyc}")
    print(f"sweep timing: ok ({cyc})")


def case_energy(build, work):
    """An energy key changes the energy, by exactly its events, and nothing
    else: one compile, the same cycles."""
    out = os.path.join(work, "energy")
    shutil.rmtree(out, ignore_errors=True)
    r = sweep(build, [MLP, "--set", "energy.l2_read_byte=12500,25000", "-o", out])
    if "1 distinct compile configs" not in r.stdout:
        fail("an energy sweep must compile once")
    rs = rows(out)
    check_verified(rs, 2)
    if rs[0]["cycles"] != rs[1]["cycles"]:
        fail("an energy key changed the cycles")
    st = json.load(open(os.path.join(out, "points", "0000.stats.json")))
    l2_read = sum(t.get("l2", {}).get("read", 0) for t in st["traffic"].values())
    want = l2_read * 12500e-15 * 1e6  # the extra 12.5 pJ per byte read, in uJ
    got = float(rs[1]["energy_uj_l2"]) - float(rs[0]["energy_uj_l2"])
    if l2_read == 0 or abs(got - want) > 1e-3:
        fail(f"doubling energy.l2_read_byte added {got} uJ at L2, expected {want} ({l2_read} bytes read)")
    print(f"sweep energy: ok ({l2_read} L2 bytes read: +{got:.4f} uJ)")


def case_resume(build, work):
    out = os.path.join(work, "resume")
    shutil.rmtree(out, ignore_errors=True)
    the_sweep(build, out)
    first = comparable(rows(out))
    # An interrupted sweep: two points never finished, no CSV yet.
    for i in (1, 4):
        os.remove(os.path.join(out, "points", f"{i:04d}.json"))
    os.remove(os.path.join(out, "results.csv"))
    r = the_sweep(build, out)
    if "resuming: 4 of 6 points already done" not in r.stdout or "0 to compile" not in r.stdout:
        fail("the second run did not resume (or compiled again)")
    if comparable(rows(out)) != first:
        fail("the resumed sweep's CSV differs from the uninterrupted one")
    # Another sweep into the same directory is refused, not mixed in.
    r = sweep(build, [MLP, "--set", "l1.size=64KiB", "-o", out], expect=2)
    if "holds another sweep" not in r.stderr:
        fail("a different sweep in the same -o was not refused")
    print("sweep resume: ok")


def case_slurm(build, work):
    local = os.path.join(work, "slurm-local")
    out = os.path.join(work, "slurm")
    state = os.path.join(work, "slurm-state")
    for d in (local, out, state):
        shutil.rmtree(d, ignore_errors=True)
    if os.geteuid() != 0 or not shutil.which("slurmctld") or not shutil.which("munged"):
        # CI runs as root with slurm-wlm and munge installed (install-deps.sh).
        print("SKIP: the local Slurm needs root and Debian's slurm-wlm + munge")
        sys.exit(77)
    the_sweep(build, local)
    start = subprocess.run(["bash", os.path.join(ROOT, "scripts", "slurm-local.sh"), "start", state],
                           capture_output=True, text=True)
    sys.stdout.write(start.stdout + start.stderr)
    if start.returncode != 0:
        fail("could not start the local Slurm")
    conf = start.stdout.strip().split("=", 1)[1]
    os.environ["SLURM_CONF"] = conf
    try:
        the_sweep(build, out, ["--backend", "slurm"])
    finally:
        subprocess.run(["bash", os.path.join(ROOT, "scripts", "slurm-local.sh"), "stop", state])
    tasks = [f for f in os.listdir(os.path.join(out, "slurm")) if f.startswith("task-")]
    if len(tasks) != 6:
        fail(f"expected 6 Slurm array task logs, found {len(tasks)}")
    check_verified(rows(out), 6)
    a, b = comparable(rows(local)), comparable(rows(out))
    if a != b:
        fail(f"Slurm CSV differs from the local one:\n{a}\n{b}")
    print("sweep slurm: ok (CSV equals the local backend's)")


def case_manifest_timing(build, work):
    out = os.path.join(work, "mt")
    shutil.rmtree(out, ignore_errors=True)
    npuc = os.path.join(build, "compiler", "tools", "npuc", "npuc")
    npusim = os.path.join(build, "sc_main", "npusim")
    subprocess.run([npuc, MLP, "-o", out, "--config", os.path.join(ROOT, "configs", "gap9.cfg")], check=True,
                   capture_output=True)
    man = os.path.join(out, "manifest.json")
    base = subprocess.run([npusim, "--manifest", man, "--stats", os.path.join(out, "a.json")], capture_output=True,
                          text=True)
    slow = subprocess.run([npusim, "--manifest", man, "--l2.latency=20", "--stats", os.path.join(out, "b.json"),
                           "--stats-csv", os.path.join(out, "b.csv")], capture_output=True, text=True)
    if base.returncode != 0 or slow.returncode != 0:
        fail(f"manifest runs: exit {base.returncode}, {slow.returncode}:\n{slow.stderr}")
    a = json.load(open(os.path.join(out, "a.json")))
    b = json.load(open(os.path.join(out, "b.json")))
    if not (b["cycles"] > a["cycles"] and b["golden"]["compared"] > 0 and b["golden"]["passed"]):
        fail(f"--l2.latency=20 on a manifest: cycles {a['cycles']} -> {b['cycles']}, golden {b['golden']}")
    src = b["config"]["l2.latency"]
    if src["value"] != "20" or src["source"] != "<command line>" or src["fingerprinted"]:
        fail(f"stats config entry for l2.latency: {src}")
    if b["config"]["l1.size"]["source"].split(":")[0] != os.path.join(ROOT, "configs", "gap9.cfg") and \
            b["config"]["l1.size"]["source"] != "<default>":
        fail(f"stats config entry for l1.size: {b['config']['l1.size']}")
    # --stats-csv: the same run as one flat row under a header.
    with open(os.path.join(out, "b.csv"), newline="") as f:
        flat = list(csv.DictReader(f))
    if len(flat) != 1:
        fail(f"--stats-csv wrote {len(flat)} rows")
    row = flat[0]
    if (int(row["cycles"]) != b["cycles"] or int(row["compared"]) != b["golden"]["compared"]
            or row["config:l2.latency"] != "20" or abs(float(row["energy_uj"]) - b["energy_uj"]["total"]) > 1e-3):
        fail(f"--stats-csv row disagrees with --stats: {row}")
    # A key the firmware depends on is still refused, naming the recompile.
    r = subprocess.run([npusim, "--manifest", man, "--config", os.path.join(ROOT, "configs", "gap9.cfg"),
                        "--l1.size=64KiB"], capture_output=True, text=True)
    if r.returncode != 2 or "recompile" not in r.stderr:
        fail(f"--l1.size on a manifest compiled for 128KiB: exit {r.returncode}: {r.stderr}")
    print(f"manifest timing override: ok ({a['cycles']} -> {b['cycles']} cycles, "
          f"compared {b['golden']['compared']})")


def case_fix_tiles(build, work):
    """A larger L1 changes the tiler's choice (the compiler's decision, not
    the hardware's): --fix-tiles keeps the reference config's tiles, so the
    sweep measures the hardware alone."""
    free, fixed = os.path.join(work, "free"), os.path.join(work, "fixed")
    for d in (free, fixed):
        shutil.rmtree(d, ignore_errors=True)
    sizes = "l1.size=128KiB,256KiB,512KiB"
    sweep(build, [MLP_F32, "--set", sizes, "-o", free])
    sweep(build, [MLP_F32, "--set", sizes, "--fix-tiles", "-o", fixed])
    a, b = rows(free), rows(fixed)
    check_verified(b, 3)
    if len({r["cycles"] for r in a}) < 2:
        fail("without --fix-tiles the L1 size should change the schedule (and the cycles)")
    if len({r["cycles"] for r in b}) != 1:
        fail(f"with --fix-tiles the same schedule on more L1 changed the cycles: {[r['cycles'] for r in b]}")
    with open(os.path.join(fixed, "build", b[2]["fingerprint"], "npuc.log")) as f:
        if "--tile=layer1.matmul=" not in f.read():
            fail("the 512KiB point was not compiled with the reference tiles pinned")
    print(f"sweep fix-tiles: ok (free {[r['cycles'] for r in a]}, fixed {[r['cycles'] for r in b]})")


def case_bad_input(build, work):
    out = os.path.join(work, "bad")
    shutil.rmtree(out, ignore_errors=True)
    checks = [
        ([MLP, "--set", "l1.sise=32KiB", "-o", out], "l1.sise"),
        ([MLP, "--set", "l1.size=", "-o", out], "expected section.key=value"),
        ([MLP, "--set", "l1.size=3KiB", "-o", out + "2"], "power of two"),
        ([MLP, "-o", out + "3"], "nothing to sweep"),
        ([os.path.join(work, "missing.mlir"), "--set", "l1.size=64KiB", "-o", out + "4"], "no such network"),
    ]
    for args, needle in checks:
        r = sweep(build, args, expect=2)
        if needle not in r.stderr:
            fail(f"npu sweep {' '.join(args)}: message does not name '{needle}': {r.stderr}")
    # Values valid alone, wrong with another key's: refused up front too
    # (they ran, and icache.size=8B ended in exit 6), naming the point.
    for values, needles in [("icache.size=8B,4KiB", ["point icache.size=8B", "<command line>: icache.size:",
                                                     "less than one set"]),
                            ("dma.l1_width=8B,5B", ["point dma.l1_width=5B", "<command line>: dma.l1_width:",
                                                    "l1.bank_width (4 B)"])]:
        refused(build, [MLP, "--set", values, "-o", out + "5", "--jobs", "1"], needles, out=out + "5")
    print("sweep bad input: ok")


def refused(build, args, needles, out=None):
    """Bad input: exit 2, a message naming every needle, no traceback and,
    when OUT is given, nothing left in it (the corrected sweep must not find
    a half-made one there)."""
    r = sweep(build, args, expect=2)
    for needle in [needles] if isinstance(needles, str) else needles:
        if needle not in r.stderr:
            fail(f"npu sweep {' '.join(args)}: message does not name '{needle}': {r.stderr}")
    if "Traceback" in r.stderr or not r.stderr.startswith("npu sweep: error: "):
        fail(f"npu sweep {' '.join(args)}: not one clear error: {r.stderr}")
    if out and os.path.lexists(out):
        fail(f"npu sweep {' '.join(args)} was refused but created {out}")


def hello(build):
    elf = os.path.join(build, "firmware", "examples", "hello.elf")
    if not os.path.isfile(elf):
        fail(f"{elf} is not built")
    return elf


def case_bad_points(build, work):
    """--points files that are not a CSV of points: each refused naming the
    file, the line and what is wrong, before anything is written."""
    d = os.path.join(work, "points")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    elf, out = hello(build), os.path.join(d, "out")

    def csv_file(name, data):
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    cases = [
        # Bytes that are not UTF-8 on line 2 (the tester's: random bytes).
        (b"sa.rows\n\xb1\xfe8\n", "bin.csv", ["bin.csv:2:", "not UTF-8 text"]),
        (b"sa.rows\n8\x00\n", "nul.csv", ["nul.csv:2:", "NUL byte"]),
        (b"\xff\xfes\x00a\x00", "utf16.csv", ["utf16.csv", "UTF-16"]),
        (b"sa.rows,sa.rows\n8,16\n", "dup.csv", ["dup.csv:1:", "sa.rows given twice", "columns 1 and 2"]),
        (b"\"\"\n8\n", "emptykey.csv", ["emptykey.csv:1:", "column 1 has an empty key"]),
        (b"sa.rows,\n8,\n", "trailing.csv", ["trailing.csv:1:", "column 2 has an empty key"]),
        (b"sa rows\n8\n", "space.csv", ["space.csv:1:", "'sa rows' (column 1) is not a config key"]),
        (b"", "empty.csv", ["empty.csv", "is empty"]),
        (b"sa.rows\n\n", "header.csv", ["header.csv", "no row of values"]),
        # Blank lines do not shift the line numbers.
        (b"sa.rows,l2.latency\n\n8,6\n\n8\n", "short.csv", ["short.csv:5:", "1 values for 2 keys"]),
        (b"sa.rows,l2.latency\n8,\n", "emptyval.csv", ["emptyval.csv:2:", "an empty value for l2.latency"]),
        (b"sa.rows\n\"8\n16\"\n", "multiline.csv", ["multiline.csv:2:", "spans lines"]),
        (b"sa.rows\n\"8\n", "unclosed.csv", ["unclosed.csv:2:"]),
    ]
    for data, name, needles in cases:
        refused(build, [elf, "-o", out, "--points", csv_file(name, data)], needles, out)
    # Not regular files: a FIFO and /dev/zero would be read without end.
    fifo = os.path.join(d, "fifo.csv")
    os.mkfifo(fifo)
    refused(build, [elf, "-o", out, "--points", fifo], ["fifo.csv", "not a regular file"], out)
    refused(build, [elf, "-o", out, "--points", "/dev/zero"], ["/dev/zero", "not a regular file"], out)
    refused(build, [elf, "-o", out, "--points", d], [d, "is a directory"], out)
    refused(build, [elf, "-o", out, "--points", os.path.join(d, "missing.csv")],
            ["missing.csv", "No such file"], out)
    # A BOM (a spreadsheet's UTF-8 export) and CRLF lines are fine.
    sweep(build, [elf, "-o", out, "--points", csv_file("bom.csv", b"\xef\xbb\xbfsa.rows\r\n8\r\n16\r\n")])
    got = [x["sa.rows"] for x in rows(out)]
    if got != ["8", "16"] or any(x["status"] != "ran" for x in rows(out)):
        fail(f"the BOM/CRLF points file gave points {got}: {rows(out)}")
    print("sweep bad points: ok")


def case_bad_args(build, work):
    """Arguments wrong for every point are refused up front (exit 2, as
    `npu run` refuses them), not reported as every point failing (exit 6);
    a point that does not fit is still that point's failure."""
    d = os.path.join(work, "args")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    elf, out = hello(build), os.path.join(d, "out")
    afile = os.path.join(d, "afile")
    empty = os.path.join(d, "empty.mlir")
    garbage = os.path.join(d, "garbage.mlir")
    not_elf = os.path.join(d, "text.elf")
    for path, data in [(afile, ""), (empty, ""), (garbage, "garbage\n"), (not_elf, "not an ELF\n")]:
        with open(path, "w") as f:
            f.write(data)
    one = ["--set", "sa.rows=8"]
    refused(build, [elf, "-o", afile, "--set", "sa.rows=8,16"], f"-o {afile}: not a directory")
    refused(build, [elf, "-o", os.path.join(afile, "sub")] + one, ["cannot create", "Not a directory"])
    refused(build, [elf, "-o", "/proc/npu-sweep-test"] + one, ["-o /proc/npu-sweep-test: cannot create"])
    refused(build, [elf, "-o", ""] + one, "-o ''")
    refused(build, [MLP_TINY, "-o", out, "--opt", "99"] + one, "--opt=99 is not an optimisation level (0-3)", out)
    refused(build, [MLP_TINY, "-o", out, "--opt=-1"] + one, "--opt=-1", out)
    refused(build, [MLP_TINY, "-o", out, "--tile", "garbage"] + one, ["--tile 'garbage'", "LAYER=SIZES"], out)
    refused(build, [MLP_TINY, "-o", out, "--tile", "layer1.matmul=4xq"] + one, "--tile 'layer1.matmul=4xq'", out)
    # Well-formed pins that name no layer or have the wrong rank: npuc says so once.
    refused(build, [MLP_TINY, "-o", out, "--tile", "layer7.matmul=4x32x16"] + one,
            ["--tile layer7.matmul=4x32x16", "no conv or matmul layer"], out)
    refused(build, [MLP_TINY, "-o", out, "--tile", "layer1.matmul=4x32"] + one, "takes <tm>x<tn>x<tk>", out)
    refused(build, [empty, "-o", out] + one, [empty, "is empty"], out)
    refused(build, [garbage, "-o", out] + one, [garbage, "error:"], out)
    refused(build, [not_elf, "-o", out] + one, [not_elf, "not an ELF file"], out)
    refused(build, ["/dev/zero", "-o", out] + one, "/dev/zero is not a regular file", out)
    refused(build, [d, "-o", out] + one, f"{d} is not a regular file", out)
    refused(build, [elf, "-o", out, "--config", os.path.join(d, "missing.cfg")] + one, "missing.cfg", out)
    # A bad key leaves no sweep.json behind: the corrected sweep is not "another sweep".
    refused(build, [elf, "-o", out, "--set", "sa.rowz=8"], "sa.rowz", out)
    sweep(build, [elf, "-o", out] + one)
    with open(os.path.join(out, "sweep.json"), "w") as f:
        f.write("{not json")
    refused(build, [elf, "-o", out] + one, ["sweep.json", "delete it"])
    refused(build, ["--run-point", out, "x"], "not a point index")
    # A pin that fits one point and not the other: the one point fails (exit 6).
    ok = os.path.join(d, "fits")
    sweep(build, [MLP_TINY, "-o", ok, "--set", "l1.size=128KiB,1KiB", "--tile", "layer1.matmul=4x32x16"],
          expect=6)
    st = [x["status"] for x in rows(ok)]
    if st != ["verified", "compile_error"]:
        fail(f"l1.size=128KiB,1KiB with a pinned tile: statuses {st}, expected verified, compile_error")
    print("sweep bad args: ok")


def case_plot_axis(build, work):
    """The plots' x axis: numeric values sorted on a proportional axis (log
    when they span more than 10x), labelled as given; other values in the
    given order. Drawn from made-up results (no npuc or npusim needed)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import npu_sweep
    cases = [
        (["20", "3", "100", "6"], ["3", "6", "20", "100"], [3, 6, 20, 100], "log"),
        (["6", "20", "12"], ["6", "12", "20"], [6, 12, 20], "linear"),
        (["128KiB", "32KiB", "1MiB"], ["32KiB", "128KiB", "1MiB"], [32768, 131072, 1048576], "log"),
        (["1GHz", "370MHz"], ["370MHz", "1GHz"], [370e6, 1e9], "linear"),
        (["10us", "1us", "100ns"], ["100ns", "1us", "10us"], [1e5, 1e6, 1e7], "log"),
        (["tlm", "rtl"], ["tlm", "rtl"], [0, 1], "linear"),
        (["sparse", "dense", "auto"], ["sparse", "dense", "auto"], [0, 1, 2], "linear"),
    ]
    for values, order, xs, scale in cases:
        got_order, pos, got_scale = npu_sweep.plot_axis(values)
        if got_order != order or [pos[v] for v in got_order] != xs or got_scale != scale:
            fail(f"plot_axis({values}) = {got_order}, {[pos[v] for v in got_order]}, {got_scale}; "
                 f"expected {order}, {xs}, {scale}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.figure
    except ImportError:
        print("SKIP: python3-matplotlib is not installed")
        sys.exit(77)
    # The drawn lines: what each saved figure holds.
    drawn = {}
    save = matplotlib.figure.Figure.savefig

    def record(fig, path, *a, **kw):
        ax = fig.axes[0]
        drawn[os.path.basename(path)] = ([list(l.get_xdata()) for l in ax.lines], ax.get_xscale(),
                                         [t.get_text() for t in ax.get_xticklabels()])
        return save(fig, path, *a, **kw)

    matplotlib.figure.Figure.savefig = record
    out = os.path.join(work, "plots")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    results = [{"point": {"l2.latency": v}, "stats": {"cycles": 1000 + int(v)}} for v in ["20", "3", "100", "6"]]
    npu_sweep.plot(out, ["l2.latency"], results)
    lines, scale, labels = drawn.get("cycles_vs_l2_latency.png", (None, None, None))
    if lines != [[3, 6, 20, 100]] or scale != "log" or labels != ["3", "6", "20", "100"]:
        fail(f"cycles_vs_l2_latency.png: lines at x {lines}, {scale} axis, ticks {labels}; "
             "expected [[3, 6, 20, 100]], log, ['3', '6', '20', '100']")
    results = [{"point": {"sa.model": v}, "stats": {"cycles": 1000 + i}} for i, v in enumerate(["tlm", "rtl"])]
    npu_sweep.plot(out, ["sa.model"], results)
    lines, scale, labels = drawn.get("cycles_vs_sa_model.png", (None, None, None))
    if lines != [[0, 1]] or scale != "linear" or labels != ["tlm", "rtl"]:
        fail(f"cycles_vs_sa_model.png: lines at x {lines}, {scale} axis, ticks {labels}")
    print("sweep plot axis: ok")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("--build", required=True)
    p.add_argument("--work", required=True)
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cases = {"local": case_local, "timing": case_timing, "resume": case_resume, "slurm": case_slurm,
             "manifest-timing": case_manifest_timing, "fix-tiles": case_fix_tiles, "energy": case_energy, "bad-input": case_bad_input,
             "bad-points": case_bad_points, "bad-args": case_bad_args, "plot-axis": case_plot_axis}
    if a.case not in cases:
        fail(f"unknown case {a.case}")
    cases[a.case](os.path.abspath(a.build), os.path.abspath(a.work))


if __name__ == "__main__":
    main()
