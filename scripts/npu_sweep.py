"""`npu sweep`: a design-space sweep — every point compiled (once per distinct
compile-relevant config), simulated and verified, gathered into one CSV and
plots.

    ./npu sweep compiler/networks/mlp_int8.mlir --set l1.size=32KiB,64KiB,128KiB \\
        --set sa.rows=8,16 -o out/sweep
    ./npu sweep prog.elf --set l2.latency=6,20,50 -o out/lat     # a firmware: simulated only
    ./npu sweep net.mlir --points points.csv -o out/s             # points from a CSV (header = keys)

A point is a set of config overrides. Points whose effective config has the
same fingerprint (`npusim --fingerprint`: timing-only keys are not part of it,
docs/config.md) share one compiled firmware, so a latency or bandwidth sweep
compiles once. Each finished point is kept as `DIR/points/NNNN.json`; a sweep
started again with the same arguments skips them (resume after an interrupt),
and one with other arguments in the same DIR is refused. `DIR/results.csv` has
one row per point; `DIR/*.png` the plots (python3-matplotlib).

`--backend slurm` simulates the points as a Slurm job array (one task per
point, `sbatch --wait`), then gathers the same CSV; compilation stays on the
submitting host. `--fix-tiles` compiles the reference config (no overrides)
first and pins every layer's tiles to its choice at every point, so a sweep of
hardware keys does not also measure the compiler's changing decisions.
"""
import argparse
import codecs
import concurrent.futures
import csv
import io
import itertools
import json
import os
import re
import shlex
import stat
import subprocess
import sys
import tempfile
import time

# README's exit-code table (also npusim's).
EXIT_NAMES = {0: "verified", 1: "firmware_exit", 2: "bad_input", 3: "bus_error", 4: "memcheck", 5: "watchdog",
              6: "golden_mismatch", 7: "trap", 8: "self_check_failed", 70: "internal_error"}
BAD_INPUT = 2
SPEC_VERSION = 1


class SweepError(Exception):
    pass


def parse_sets(sets):
    """--set key=v1,v2 ... -> [(key, [values])], in the order given."""
    axes = []
    for s in sets:
        key, eq, values = s.partition("=")
        key = key.strip()
        if not eq or "." not in key or not values:
            raise SweepError(f"--set '{s}': expected section.key=value[,value...] (e.g. l1.size=32KiB,64KiB)")
        if any(k == key for k, _ in axes):
            raise SweepError(f"--set {key} given twice: put every value in one --set {key}=a,b,c")
        vals = [v.strip() for v in values.split(",")]
        if any(not v for v in vals):
            raise SweepError(f"--set '{s}': an empty value in the list")
        axes.append((key, vals))
    return axes


# A points CSV is a few lines per point; anything far larger is not one.
MAX_POINTS_BYTES = 16 << 20


def read_points_text(path):
    """The --points file as text: a regular file of UTF-8 (a BOM is allowed)
    without NUL bytes; a FIFO or a device would be read without end."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as e:
        raise SweepError(f"--points {path}: {getattr(e, 'strerror', None) or e}")
    if stat.S_ISDIR(st.st_mode):
        raise SweepError(f"--points {path}: is a directory, not a CSV file")
    if not stat.S_ISREG(st.st_mode):
        raise SweepError(f"--points {path}: is not a regular file (a device, pipe or socket), not a CSV file")
    if st.st_size > MAX_POINTS_BYTES:
        raise SweepError(f"--points {path}: {st.st_size} bytes, more than a points CSV's "
                         f"{MAX_POINTS_BYTES >> 20} MiB")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_POINTS_BYTES + 1)
    except OSError as e:
        raise SweepError(f"--points {path}: {e.strerror}")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise SweepError(f"--points {path}: UTF-16 text: save it as UTF-8")
    nul = data.find(b"\0")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise SweepError(f"--points {path}:{line}: a NUL byte: not a text CSV")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SweepError(f"--points {path}:{line}: not UTF-8 text")


def points_from_csv(path):
    """--points FILE.csv -> (keys, [[(key, value)]]): a header of config
    keys, then one row of values per point; blank lines are skipped."""
    text = read_points_text(path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows = []  # (first line, cells): a quoted value may span lines
    first = 1
    try:
        for r in reader:
            # An empty line, or one of blanks; a quoted "" is an empty cell.
            if r and not (len(r) == 1 and r[0] and not r[0].strip()):
                rows.append((first, r))
            first = reader.line_num + 1
    except csv.Error as e:
        raise SweepError(f"--points {path}:{max(first, reader.line_num)}: {e}")
    if not rows:
        raise SweepError(f"--points {path}: is empty: needs a header of config keys and at least one row of values")
    line, header = rows[0]
    keys = [k.strip() for k in header]
    for col, k in enumerate(keys, start=1):
        if not k:
            raise SweepError(f"--points {path}:{line}: column {col} has an empty key "
                             f"(the header names a config key per column, e.g. l1.size)")
        if "." not in k or any(c.isspace() for c in k):
            raise SweepError(f"--points {path}:{line}: '{k}' (column {col}) is not a config key (section.key)")
        if k in keys[:col - 1]:
            raise SweepError(f"--points {path}:{line}: {k} given twice (columns {keys.index(k) + 1} and {col}): "
                             f"one column per key")
    if len(rows) < 2:
        raise SweepError(f"--points {path}: no row of values after the header (line {line}): "
                         f"needs at least one point")
    pts = []
    for n, r in rows[1:]:
        if len(r) != len(keys):
            raise SweepError(f"--points {path}:{n}: {len(r)} values for {len(keys)} keys")
        for col, (k, v) in enumerate(zip(keys, r), start=1):
            if "\n" in v or "\r" in v:
                raise SweepError(f"--points {path}:{n}: the value for {k} (column {col}) spans lines")
            if not v.strip():
                raise SweepError(f"--points {path}:{n}: an empty value for {k} (column {col})")
        vals = [v.strip() for v in r]
        pts.append(list(zip(keys, vals)))
    return keys, pts


class Sweep:
    def __init__(self, args, root, build):
        self.args = args
        self.root = root
        self.npusim = os.path.join(build, "sc_main", "npusim")
        self.npuc = os.path.join(build, "compiler", "tools", "npuc", "npuc")
        self.target = os.path.abspath(args.target)
        self.is_elf = self.target.endswith(".elf")
        self.out = os.path.abspath(args.out)
        self.config = os.path.abspath(args.config)
        if args.points:
            self.keys, self.points = points_from_csv(args.points)
        else:
            axes = parse_sets(args.set)
            if not axes:
                raise SweepError("nothing to sweep: give --set key=v1,v2 (repeatable) or --points FILE.csv")
            self.keys = [k for k, _ in axes]
            self.points = [list(zip(self.keys, combo)) for combo in itertools.product(*[v for _, v in axes])]
        for tool in [self.npusim] + ([] if self.is_elf else [self.npuc]):
            if not os.path.exists(tool):
                raise SweepError(f"{tool} not found: build first (scripts/dev.sh build) or set NPU_BUILD_DIR")

    # -- the sweep's identity: resuming must not mix two different sweeps ----
    def spec(self):
        return {"version": SPEC_VERSION, "target": self.target, "config": self.config, "keys": self.keys,
                "points": [[list(kv) for kv in p] for p in self.points],
                "default_mem_level": self.args.default_mem_level, "fix_tiles": self.args.fix_tiles,
                "tile": self.args.tile, "opt": self.args.opt}

    def check_spec(self):
        """Creates -o (after every input has been checked: a refused sweep
        leaves nothing behind that would refuse the corrected one)."""
        try:
            os.makedirs(os.path.join(self.out, "points"), exist_ok=True)
        except OSError as e:
            raise SweepError(f"-o {self.args.out}: cannot create: {e.strerror}")
        path = os.path.join(self.out, "sweep.json")
        spec = self.spec()
        if os.path.lexists(path):
            try:
                with open(path, "rb") as f:
                    old = json.loads(f.read(1 << 24).decode("utf-8"))
            except (OSError, ValueError) as e:
                why = e.strerror if isinstance(e, OSError) else "not a sweep's JSON record"
                raise SweepError(f"{path}: {why}: use another -o, or delete it to start over")
            if old != spec:
                raise SweepError(f"{self.out} holds another sweep (sweep.json differs: other target, config, "
                                 f"points or options): use another -o, or delete it to start over")
        else:
            write_json(path, spec)

    def check_network(self):
        """Errors that every point would repeat, before any work: the network
        does not parse (npuc --emit=imported), or a --tile names no layer of
        it or has the wrong number of sizes (npuc checks the pins against the
        network before tiling; whether a pinned tile fits is a point's
        business)."""
        checks = [["--emit=imported"]]
        if self.args.tile:
            checks.append(["--emit=tiled", f"--default-mem-level={self.args.default_mem_level}"]
                          + [f"--tile={t}" for t in self.args.tile])
        with tempfile.TemporaryDirectory(prefix="npu-sweep-") as tmp:
            for extra in checks:
                cmd = [self.npuc, self.target, "-o", tmp, "--config", self.config] + extra
                r = run_tool(cmd)
                if r.returncode == 0:
                    continue
                lines = [l.strip() for l in r.stderr.splitlines() if l.strip()]
                why = next((l for l in lines if "error:" in l), lines[-1] if lines else "npuc failed")
                if r.returncode < 0:
                    raise SweepError(f"npuc was killed by signal {-r.returncode} reading {self.args.target}")
                if extra[0] == "--emit=imported" or "error: --tile " in why:
                    where = "" if self.target in why or self.args.target in why else f"{self.args.target}: "
                    raise SweepError(f"{where}npuc: {why}")

    # -- per point ------------------------------------------------------------
    def overrides(self, point):
        return [f"--{k}={v}" for k, v in point]

    def fingerprint(self, point):
        """Checks the point's keys and values (npusim's config errors) and
        returns its fingerprint: points that share it share a firmware."""
        cmd = [self.npusim, "--config", self.config, "--fingerprint"] + self.overrides(point)
        r = run_tool(cmd)
        if r.returncode != 0:
            # The reference config failing is the --config file's fault, not a point's.
            where = f"point {fmt_point(point)}: " if point else ""
            raise SweepError(f"{where}{r.stderr.strip() or 'npusim --fingerprint failed'}")
        return r.stdout.strip()

    def compile_dir(self, fp):
        return os.path.join(self.out, "build", fp)

    def compile(self, fp, point, pinned):
        """npuc once per fingerprint; returns (seconds, error or None)."""
        d = self.compile_dir(fp)
        manifest = os.path.join(d, "manifest.json")
        done = os.path.join(d, "compiled.ok")
        if os.path.exists(done):
            return 0.0, None
        cmd = [self.npuc, self.target, "-o", d, "--config", self.config,
               f"--default-mem-level={self.args.default_mem_level}", f"--opt={self.args.opt}"]
        for k, v in point:
            cmd += ["--set", f"{k}={v}"]
        for t in self.args.tile + pinned:
            cmd.append(f"--tile={t}")
        t0 = time.monotonic()
        r = run_tool(cmd)
        secs = time.monotonic() - t0
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "npuc.log"), "w") as f:
            f.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + r.stdout + r.stderr)
        if r.returncode != 0 or not os.path.exists(manifest):
            lines = [l.strip() for l in r.stderr.splitlines() if l.strip()]
            # The diagnostic, not the caret line under the source it quotes.
            why = next((l for l in lines if "error:" in l), lines[-1] if lines else "npuc failed")
            return secs, f"npuc: {why}"
        with open(done, "w") as f:
            f.write(f"{secs:.3f}\n")
        return secs, None

    def simulate_cmd(self, idx, point, fp):
        stats = os.path.join(self.out, "points", f"{idx:04d}.stats.json")
        cmd = [self.npusim, "--config", self.config, "--stats", stats, "--memcheck=error", "-q"]
        cmd += self.overrides(point)
        if self.is_elf:
            cmd.append(self.target)
        else:
            cmd += ["--manifest", os.path.join(self.compile_dir(fp), "manifest.json")]
        return cmd, stats

    def run_point(self, idx, point, fp, compile_s, compile_error):
        """Simulate one point and keep its result (points/NNNN.json)."""
        result = {"index": idx, "point": dict(point), "fingerprint": fp, "compile_seconds": round(compile_s, 3)}
        if compile_error:
            result.update(status="compile_error", exit_code=None, error=compile_error)
        else:
            cmd, stats = self.simulate_cmd(idx, point, fp)
            t0 = time.monotonic()
            r = run_tool(cmd)
            result["wall_seconds"] = round(time.monotonic() - t0, 3)
            with open(os.path.join(self.out, "points", f"{idx:04d}.log"), "w") as f:
                f.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + r.stdout + r.stderr)
            result["exit_code"] = r.returncode
            result["status"] = EXIT_NAMES.get(r.returncode, f"exit_{r.returncode}")
            if r.returncode != 0:
                lines = [l for l in r.stderr.splitlines() if l.strip()]
                result["error"] = lines[0] if lines else ""
            if os.path.exists(stats):
                with open(stats) as f:
                    result["stats"] = json.load(f)
            if self.is_elf and r.returncode == 0:
                result["status"] = "ran"  # a bare firmware has no golden: it ran to exit 0
            elif not self.is_elf and r.returncode == 0:
                g = result.get("stats", {}).get("golden", {})
                # A run that compared nothing has not verified anything.
                if not g.get("compared_outputs") or not g.get("compared"):
                    result["status"] = "not_compared"
        write_json(os.path.join(self.out, "points", f"{idx:04d}.json"), result)
        return result

    def done(self, idx):
        return os.path.exists(os.path.join(self.out, "points", f"{idx:04d}.json"))

    # -- --fix-tiles ------------------------------------------------------------
    def reference_tiles(self):
        """Compile the reference config once and read the tiles npuc chose
        for every layer from its manifest."""
        fp = self.fingerprint([])
        secs, err = self.compile(fp, [], [])
        if err:
            raise SweepError(f"--fix-tiles: the reference config does not compile: {err}")
        with open(os.path.join(self.compile_dir(fp), "manifest.json")) as f:
            man = json.load(f)
        pins = [f"{l['region']}={l['tiles']}" for l in man.get("layers", []) if l.get("tiles")]
        if not pins:
            raise SweepError("--fix-tiles: the reference compile reports no tiled layer to pin "
                             "(the manifest's layers carry no 'tiles')")
        return pins


def run_tool(cmd, **kw):
    """A tool's run, its output as text; a tool that cannot be started (not
    built, being rebuilt, no Slurm here) is an error naming it."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, errors="replace", **kw)
    except OSError as e:
        raise SweepError(f"cannot run {cmd[0]}: {e.strerror}")


def fmt_point(point):
    return " ".join(f"{k}={v}" for k, v in point) or "(reference config)"


def write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)  # a point file is complete or absent, never half-written


# -- gathering ------------------------------------------------------------------

def row_of(result, keys):
    """One CSV row: swept keys, verification, cycles, per-layer figures,
    bytes per level, utilisation, wall time."""
    row = {k: result["point"].get(k, "") for k in keys}
    st = result.get("stats", {})
    cycles = st.get("cycles")
    row.update(status=result["status"], exit_code=result.get("exit_code"), cycles=cycles,
               time_us=round(cycles / st["cluster_clock_hz"] * 1e6, 3) if cycles and st.get("cluster_clock_hz") else None)
    g = st.get("golden", {})
    en = st.get("energy_uj", {})
    row["energy_uj"] = round(en["total"], 4) if "total" in en else None
    for block in ("cores", "l1", "l2", "l3", "sa", "dma", "leakage"):
        if block in en:
            row[f"energy_uj_{block}"] = round(en[block], 4)
    row["compared"] = g.get("compared")
    row["mismatches"] = g.get("mismatches")
    regions = [r for r in st.get("regions", []) if "macs" in r]
    macs = sum(r["macs"] for r in regions)
    row["macs"] = macs if regions else None
    row["macs_per_cycle"] = round(macs / cycles, 4) if regions and cycles else None
    levels = {}
    for per_target in st.get("traffic", {}).values():
        for target, rw in per_target.items():
            levels[target] = levels.get(target, 0) + rw.get("read", 0) + rw.get("write", 0)
    for target in sorted(levels):
        row[f"bytes_{target}"] = levels[target]
    for owner, vals in sorted(st.get("stats", {}).items()):
        if "busy_cycles" in vals and cycles:
            row[f"util_{owner}"] = round(vals["busy_cycles"] / cycles, 4)
    for r in regions:
        row[f"layer_cycles:{r['name']}"] = r["cycles"]
        row[f"layer_macs_per_cycle:{r['name']}"] = round(r["macs_per_cycle"], 4)
        if "energy_uj" in r:
            row[f"layer_energy_uj:{r['name']}"] = round(r["energy_uj"], 4)
    row["compile_seconds"] = result.get("compile_seconds")
    row["wall_seconds"] = result.get("wall_seconds")
    row["fingerprint"] = result.get("fingerprint")
    row["error"] = result.get("error", "")
    return row


def write_csv(path, rows):
    cols = []
    for r in rows:
        for c in r:
            if c not in cols:
                cols.append(c)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for r in rows:
            w.writerow({c: ("" if r.get(c) is None else r.get(c)) for c in cols})


# A swept value as a number for a plot's axis: the config's units (sizes,
# times, frequencies, plain counts and cycles, 0x hex); None if it is not one.
_AXIS_UNITS = [
    ("size", {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}),
    ("time", {"ps": 1, "ns": 1e3, "us": 1e6, "ms": 1e9, "s": 1e12}),
    ("frequency", {"Hz": 1, "kHz": 1e3, "MHz": 1e6, "GHz": 1e9}),
    ("cycles", {"cycles": 1, "cycle": 1}),
]
_AXIS_NUMBER = re.compile(r"^\s*(0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)\s*([A-Za-z]*)\s*$")


def axis_number(text):
    """(unit family, value) of one swept value, or None when it is not a number."""
    m = _AXIS_NUMBER.match(str(text))
    if not m:
        return None
    num, unit = m.group(1).replace("_", ""), m.group(2)
    value = int(num, 16) if num[:2].lower() == "0x" else float(num)
    for family, units in _AXIS_UNITS:
        if unit in units:
            # A bare number goes with whichever family the other values have.
            return ("" if unit == "" else family), value * units[unit]
    return None


def plot_axis(values):
    """The x axis of a plot against one key's values (as given): numbers sorted
    on a proportional axis (log when they span more than 10x), each tick
    labelled with the value as given; anything else in the given order, evenly
    spaced. Returns (values in plot order, {value: x}, scale)."""
    nums = [axis_number(v) for v in values]
    families = {f for f, _ in filter(None, nums)} - {""}
    if any(n is None for n in nums) or len(families) > 1 or len(values) < 2:
        return list(values), {v: i for i, v in enumerate(values)}, "linear"
    pos = {v: n[1] for v, n in zip(values, nums)}
    order = sorted(values, key=lambda v: pos[v])
    lo, hi = min(pos.values()), max(pos.values())
    scale = "log" if lo > 0 and hi > 10 * lo else "linear"
    return order, pos, scale


def plot(out, keys, results):
    """cycles and energy against each swept key (one line per combination of
    the other keys), and MAC/cycle against arithmetic intensity per layer."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("npu sweep: warning: python3-matplotlib is not installed: no plots "
              "(scripts/install-deps.sh installs it)", file=sys.stderr)
        return []
    made = []
    ok = [r for r in results if r.get("stats", {}).get("cycles")]
    metrics = [("cycles", "simulated cycles", lambda st: st["cycles"]),
               ("energy", "energy per run (uJ, energy.* keys)", lambda st: st.get("energy_uj", {}).get("total"))]
    for key in keys:
        values = []
        for r in ok:
            if r["point"][key] not in values:
                values.append(r["point"][key])
        if len(values) < 2:
            continue
        others = [k for k in keys if k != key]
        for metric, ylabel, get in metrics:
            series = {}
            for r in ok:
                y = get(r["stats"])
                if y is None:
                    continue
                label = ", ".join(f"{k}={r['point'][k]}" for k in others) or metric
                series.setdefault(label, {})[r["point"][key]] = y
            if not series:
                continue
            order, pos, scale = plot_axis(values)
            fig, ax = plt.subplots(figsize=(6, 4))
            for label, ys in series.items():
                xs = [v for v in order if v in ys]
                ax.plot([pos[v] for v in xs], [ys[v] for v in xs], marker="o", label=label)
            ax.set_xscale(scale)
            ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
            ax.set_xticks([pos[v] for v in order])
            ax.set_xticklabels(order)
            ax.set_xlabel(key + (" (log scale)" if scale == "log" else ""))
            ax.set_ylabel(ylabel)
            ax.grid(True, alpha=0.3)
            if len(series) > 1:
                ax.legend(fontsize=7)
            fig.tight_layout()
            name = f"{metric}_vs_{key.replace('.', '_')}.png"
            fig.savefig(os.path.join(out, name), dpi=100)
            plt.close(fig)
            made.append(name)
    # Roofline-style: per layer, MACs per cycle against MACs per byte moved.
    xs, ys = [], []
    for r in ok:
        for reg in r["stats"].get("regions", []):
            moved = sum(v.get("read", 0) + v.get("write", 0) for v in reg.get("bytes", {}).values())
            if "macs" in reg and moved and reg["cycles"]:
                xs.append(reg["macs"] / moved)
                ys.append(reg["macs"] / reg["cycles"])
    if xs:
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.scatter(xs, ys, s=12)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity (MACs per byte moved)")
        ax.set_ylabel("MACs per cycle")
        ax.set_title("per layer, every point")
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "roofline.png"), dpi=100)
        plt.close(fig)
        made.append("roofline.png")
    return made


# -- backends -----------------------------------------------------------------

def run_slurm(sw, todo, fps, compiled):
    """One array task per point: each runs `npu sweep --run-point DIR IDX`
    (the same code as the local backend); sbatch --wait returns when all have."""
    slurm_dir = os.path.join(sw.out, "slurm")
    os.makedirs(slurm_dir, exist_ok=True)
    tasks = {str(i): {"fp": fps[i], "compile_seconds": compiled[fps[i]][0], "compile_error": compiled[fps[i]][1]}
             for i in todo}
    write_json(os.path.join(slurm_dir, "tasks.json"), tasks)
    ids = ",".join(str(i) for i in todo)
    npu = os.path.join(sw.root, "npu")
    script = os.path.join(slurm_dir, "array.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n"
                f"#SBATCH --job-name=npu-sweep\n#SBATCH --array={ids}\n"
                f"#SBATCH --output={slurm_dir}/task-%a.out\n#SBATCH --cpus-per-task=1\n"
                f"exec /usr/bin/python3 {shlex.quote(npu)} sweep --run-point {shlex.quote(sw.out)} "
                "\"$SLURM_ARRAY_TASK_ID\"\n")
    env = dict(os.environ, NPU_BUILD_DIR=os.path.dirname(os.path.dirname(sw.npusim)))
    r = run_tool(["sbatch", "--wait", "--parsable", script], env=env)
    if r.returncode != 0:
        raise SweepError(f"sbatch failed (exit {r.returncode}): {r.stderr.strip()}")
    missing = [i for i in todo if not sw.done(i)]
    if missing:
        raise SweepError(f"Slurm job {r.stdout.strip()} ended without results for points {missing} "
                         f"(see {slurm_dir}/task-<n>.out)")


def run_point_task(out, idx):
    """Inside a Slurm array task: simulate point IDX of the sweep in OUT."""
    with open(os.path.join(out, "sweep.json")) as f:
        spec = json.load(f)
    with open(os.path.join(out, "slurm", "tasks.json")) as f:
        task = json.load(f)[str(idx)]
    ns = argparse.Namespace(target=spec["target"], out=out, config=spec["config"], points=None,
                            set=[], default_mem_level=spec["default_mem_level"], fix_tiles=spec["fix_tiles"],
                            tile=spec["tile"], opt=spec["opt"])
    sw = Sweep.__new__(Sweep)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.environ.get("NPU_BUILD_DIR", os.path.join(root, "build"))
    sw.args, sw.root = ns, root
    sw.npusim = os.path.join(build, "sc_main", "npusim")
    sw.npuc = os.path.join(build, "compiler", "tools", "npuc", "npuc")
    sw.target, sw.out, sw.config = spec["target"], out, spec["config"]
    sw.is_elf = sw.target.endswith(".elf")
    sw.keys = spec["keys"]
    sw.points = [[tuple(kv) for kv in p] for p in spec["points"]]
    r = sw.run_point(idx, sw.points[idx], task["fp"], task["compile_seconds"], task["compile_error"])
    return 0 if r["status"] in ("verified", "ran") else 1


TILE_SIZES = re.compile(r"\s*[0-9]+\s*(x\s*[0-9]+\s*)+(,params=L[12])?")


def check_args(args):
    """What would fail at every point, refused before any work (as `npu run`
    refuses it): the target, -o, --opt, the --tile syntax."""
    t = args.target
    if not os.path.exists(t):
        raise SweepError(f"no such network or firmware: {t}")
    if not os.path.isfile(t):
        raise SweepError(f"{t} is not a regular file")
    try:
        with open(t, "rb") as f:
            head = f.read(4)
    except OSError as e:
        raise SweepError(f"{t}: {e.strerror}")
    if not head:
        raise SweepError(f"{t} is empty: not a network or firmware")
    if t.endswith(".elf") and head != b"\x7fELF":
        raise SweepError(f"{t} is not an ELF file (a firmware .elf from the RISC-V toolchain)")
    if not args.out:
        raise SweepError("-o '': the output directory needs a name")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise SweepError(f"-o {args.out}: not a directory")
    if not 0 <= args.opt <= 3:
        raise SweepError(f"--opt={args.opt} is not an optimisation level (0-3)")
    for pin in args.tile:
        layer, eq, sizes = pin.partition("=")
        if not eq or not layer.strip() or not TILE_SIZES.fullmatch(sizes):
            raise SweepError(f"--tile '{pin}': expected LAYER=SIZES (e.g. layer2.conv2d=4x16, "
                             f"layer1.matmul=1x16x64)")


def main(argv, root, build):
    if argv[:1] == ["--run-point"]:
        if len(argv) != 3:
            print("npu sweep: --run-point DIR INDEX", file=sys.stderr)
            return BAD_INPUT
        if not argv[2].isdigit():
            print(f"npu sweep: error: --run-point: '{argv[2]}' is not a point index", file=sys.stderr)
            return BAD_INPUT
        try:
            return run_point_task(os.path.abspath(argv[1]), int(argv[2]))
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"npu sweep: error: --run-point {argv[1]} {argv[2]}: no such sweep point ({e})", file=sys.stderr)
            return BAD_INPUT
    p = argparse.ArgumentParser(prog="npu sweep", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", help="a network (.mlir) to compile and verify at every point, or a firmware (.elf)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=V1,V2",
                   help="a swept config key and its values (repeatable; the sweep is the cartesian product)")
    p.add_argument("--points", help="CSV of points instead of --set: a header of config keys, one row per point")
    p.add_argument("--config", default=os.path.join(root, "configs", "gap9.cfg"), help="base platform config")
    p.add_argument("--default-mem-level", choices=["L2", "L3"], default="L2", help="where weights go")
    p.add_argument("--tile", action="append", default=[], metavar="LAYER=SIZES", help="pin a layer's tiles")
    p.add_argument("--fix-tiles", action="store_true",
                   help="keep the reference config's tiles at every point (hardware-only comparison)")
    p.add_argument("--opt", type=int, default=2, help="LLVM IR optimisation level")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="points simulated at once (local)")
    p.add_argument("--backend", choices=["local", "slurm"], default="local")
    p.add_argument("-o", "--out", required=True, help="output directory (results.csv, *.png, points/)")
    args = p.parse_args(argv)
    if args.jobs < 1:
        print("npu sweep: error: --jobs must be at least 1", file=sys.stderr)
        return BAD_INPUT
    if args.set and args.points:
        print("npu sweep: error: give --set or --points, not both", file=sys.stderr)
        return BAD_INPUT
    try:
        check_args(args)
        sw = Sweep(args, root, build)
        if sw.is_elf and (args.fix_tiles or args.tile):
            raise SweepError("--fix-tiles/--tile apply to networks, not to a firmware ELF")
        sw.fingerprint([])  # the --config file itself
        fps = [sw.fingerprint(pt) for pt in sw.points]  # checks every key and value before any work
        if not sw.is_elf:
            sw.check_network()
        sw.check_spec()
        todo = [i for i in range(len(sw.points)) if not sw.done(i)]
        if len(todo) < len(sw.points):
            print(f"npu sweep: resuming: {len(sw.points) - len(todo)} of {len(sw.points)} points already done")
        compiled = {}
        if not sw.is_elf:
            pinned = sw.reference_tiles() if args.fix_tiles else []
            first = {}
            for i in todo:
                first.setdefault(fps[i], sw.points[i])
            need = [fp for fp in first if not os.path.exists(os.path.join(sw.compile_dir(fp), "compiled.ok"))]
            print(f"npu sweep: {len(sw.points)} points, {len(set(fps))} distinct compile configs, "
                  f"{len(need)} to compile")
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                futs = {fp: ex.submit(sw.compile, fp, pt, pinned) for fp, pt in first.items()}
                for fp, fu in futs.items():
                    compiled[fp] = fu.result()
                    if compiled[fp][1]:
                        print(f"npu sweep: {fmt_point(first[fp])}: {compiled[fp][1]}", file=sys.stderr)
        for fp in set(fps):
            compiled.setdefault(fp, (0.0, None))
        if args.backend == "slurm":
            if todo:
                run_slurm(sw, todo, fps, compiled)
        else:
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                futs = [ex.submit(sw.run_point, i, sw.points[i], fps[i], *compiled[fps[i]]) for i in todo]
                for fu in futs:
                    r = fu.result()
                    print(f"npu sweep: point {r['index']}: {fmt_point(sw.points[r['index']])}: {r['status']}"
                          + (f", {r['stats']['cycles']} cycles" if r.get("stats", {}).get("cycles") else ""))
    except SweepError as e:
        print(f"npu sweep: error: {e}", file=sys.stderr)
        return BAD_INPUT
    results = []
    for i in range(len(sw.points)):
        with open(os.path.join(sw.out, "points", f"{i:04d}.json")) as f:
            results.append(json.load(f))
    write_csv(os.path.join(sw.out, "results.csv"), [row_of(r, sw.keys) for r in results])
    made = plot(sw.out, sw.keys, results)
    good = sum(r["status"] in ("verified", "ran") for r in results)
    print(f"npu sweep: {good} of {len(results)} points "
          f"{'ran' if sw.is_elf else 'verified'}; {os.path.join(sw.out, 'results.csv')}"
          + (f"; plots: {', '.join(made)}" if made else ""))
    # Exit 6 (the golden-mismatch code) when any point failed, as a CI gate.
    return 0 if good == len(results) else 6
