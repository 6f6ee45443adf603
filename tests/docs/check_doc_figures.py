#!/usr/bin/env python3
"""check_doc_figures: the docs' deterministic figures against what their commands print.

    tests/docs/check_doc_figures.py --root SRC --build BUILD [--only NAME ...] [--list] [--fix]

The simulator is deterministic, so a figure a doc quotes from a command
(cycles, stats, a report block, the fidelity table) is either what that
command prints now or stale. Timing changes moved hundreds of such figures
without anyone noticing (docs re-measured at 7ee4594); this check runs the
documented commands of the docs' most-quoted figures and compares:

  getting-started   the end-of-run report block of matmul.elf, line by line
  examples          the tiled_matmul.elf block, line by line
  fidelity          docs/memory-map.md's fidelity table, row by row
  npurt-conv        the per-layer table of fwtest_npurt_conv_cycles
  npuc-mlp          docs/compiler.md's mlp cycles table (whole-run and per-layer
                    cycles) and the unfused and all-in-L3 runs under it
  sa-buffers        docs/sa.md's sa.weight_buffers=1|2 table (SA busy, run cycles)
  configurations    docs/compiler.md's verified-configurations table (every
                    network x placement x L1 size cell, by ./npu run)
  conv-placements   docs/compiler.md's two matrices of the eight networks x
                    config x weights level x L1 size (activations in L2, then
                    in L3 too), every cell by ./npu run
  mlperf-tiny       the MLPerf Tiny tables of docs/architects.md and
                    docs/npurt-conv.md against bench/mlperf_tiny
  frontend          docs/frontend.md's cycles of the PyTorch models, exported
                    to ONNX, and of the hand-written networks (./npu run)
  training          docs/training.md's bench/training table (all but the wall
                    seconds) and the region it quotes from that run
  output-blocks     quoted runs whose lines move with the firmware's code
                    (fault reports' PCs, runtime source lines and addresses,
                    per-layer golden lines): each block against its command,
                    exit code included

A report block is compared line by line, in order, whitespace-insensitive;
"..." lines in the doc skip output, and host-dependent figures (host
seconds, MIPS) are masked on both sides. Each mismatch names the doc's
file and line, what the doc says and what the command printed.
--fix rewrites each stale figure in place with what the command printed
(for a deliberate change of the model's timing; the diff is for review),
and names the ones it cannot place.
Exit codes: 0 every figure matches (with --fix: every stale one rewritten), 1 a figure differs (or a command
failed), 2 usage or a missing tool.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_S = 600


class Failure(Exception):
    pass


class Ctx:
    def __init__(self, root, build):
        self.root = root
        self.build = build
        self.tmp = tempfile.mkdtemp(prefix="npu-docfig-")
        self.npusim = os.path.join(build, "sc_main", "npusim")
        self.npuc = os.path.join(build, "compiler", "tools", "npuc", "npuc")
        self.cache = {}
        self.mismatches = []
        self.stale = []  # (doc, line, says, printed, raw) for --fix

    def path(self, p):
        """A documented path: build/... is the build tree, the rest the source tree."""
        if p.startswith("build/"):
            return os.path.join(self.build, p[len("build/"):])
        return os.path.join(self.root, p)

    def execute(self, cmd, env=None):
        """A command from the source tree: its exit code and its output (stdout, then stderr)."""
        full_env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1", **(env or {}))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, cwd=self.root, env=full_env)
        except subprocess.TimeoutExpired:
            raise Failure(f"{' '.join(cmd)}: no answer within {TIMEOUT_S} s")
        return p.returncode, p.stdout + p.stderr

    def run(self, cmd, env=None):
        key = (tuple(cmd), tuple(sorted((env or {}).items())))
        if key in self.cache:
            return self.cache[key]
        code, out = self.execute(cmd, env)
        if code != 0:
            raise Failure(f"{' '.join(cmd)}: exit {code}\n{out[-1500:]}")
        self.cache[key] = out
        return out

    def run_exit(self, cmd, code, env=None):
        """A command that must exit with `code` (a fault's report): its output."""
        got, out = self.execute(cmd, env)
        if got != code:
            raise Failure(f"{' '.join(cmd)}: exit {got}, the doc says {code}\n{out[-1500:]}")
        return out

    def compile(self, net, args):
        out = os.path.join(self.tmp, re.sub(r"[^A-Za-z0-9]+", "_", net + "_" + "_".join(args)))
        if not os.path.exists(os.path.join(out, "manifest.json")):
            self.run([self.npuc, self.path(net), "-o", out, "--config", self.path("configs/gap9.cfg")] + args)
        return os.path.join(out, "manifest.json")

    def simulate(self, manifest, args=()):
        """npusim on a manifest: its --stats JSON (the run must pass its golden check)."""
        stats = os.path.join(self.tmp, f"stats_{abs(hash((manifest,) + tuple(args)))}.json")
        text = self.run([self.npusim, "--manifest", manifest, "--stats", stats] + list(args))
        if "golden comparison: PASS" not in text:
            raise Failure(f"npusim --manifest {manifest} {' '.join(args)}: no 'golden comparison: PASS'")
        with open(stats) as f:
            return json.load(f)

    def differ(self, doc, line, what, says, printed, command, raw=None):
        """A stale figure. `raw`: the printed line as printed (a report line), for --fix."""
        self.mismatches.append(f"{doc}:{line}: {what}: the doc says {says!r}, {command} prints {printed!r}")
        self.stale.append((doc, line, says, printed, raw))


def read_doc(ctx, doc):
    with open(os.path.join(ctx.root, doc)) as f:
        return f.read().split("\n")


def find_line(lines, doc, pattern, start=0):
    rx = re.compile(pattern)
    hits = [i for i in range(start, len(lines)) if rx.search(lines[i])]
    if len(hits) != 1:
        raise Failure(f"{doc}: {len(hits)} lines match {pattern!r} (the check expects exactly one)")
    return hits[0]


def indented_block(lines, first):
    """The indented block from line `first` on (4 spaces; blank lines inside kept)."""
    block = []
    i = first
    while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
        block.append((i, lines[i]))
        i += 1
    while block and not block[-1][1].strip():
        block.pop()
    return block


def fenced_block(lines, after):
    """The ``` block after line `after`."""
    start = next(i for i in range(after, len(lines)) if lines[i].startswith("```"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    return [(i, lines[i]) for i in range(start + 1, end)]


# Figures of the host, not of the simulation: masked on both sides.
HOST_FIGURES = [(re.compile(r"[0-9.]+ s host"), "<host s> s host"),
                (re.compile(r"simulation speed: [0-9.]+ MIPS"), "simulation speed: <host> MIPS")]


def normalise(line):
    for rx, mask in HOST_FIGURES:
        line = rx.sub(mask, line)
    return " ".join(line.split())


def compare_block(ctx, doc, block, output, command):
    """Every doc line (but "...") appears in the output, in order."""
    out = [normalise(l) for l in output.split("\n")]
    pos = 0
    for lineno, text in block:
        want = normalise(text)
        if not want or want == "...":
            continue
        try:
            pos = out.index(want, pos) + 1
        except ValueError:
            # The nearest printed line that starts like it, for the report.
            head = " ".join(want.split()[:2])
            near = next((o for o in out[pos:] if o.startswith(head)), "(no such line)")
            raw = next((o for o in output.split("\n") if normalise(o) == near), None)
            ctx.differ(doc, lineno + 1, "report line", want, near, command, raw)


def check_report_block(ctx, doc, anchor, skip, elf):
    """The indented block `skip` lines after the doc's line matching `anchor`
    against npusim running `elf` on gap9, line by line."""
    lines = read_doc(ctx, doc)
    block = indented_block(lines, find_line(lines, doc, anchor) + skip)
    cmd = [ctx.npusim, "--config", ctx.path("configs/gap9.cfg"), ctx.path(elf)]
    compare_block(ctx, doc, block, ctx.run(cmd), f"npusim ... {os.path.basename(elf)}")


def check_getting_started(ctx):
    check_report_block(ctx, "docs/getting-started.md",
                       r"^\s+\$ build/sc_main/npusim --config configs/gap9.cfg build/firmware/examples/matmul.elf$", 1,
                       "build/firmware/examples/matmul.elf")


def check_examples(ctx):
    check_report_block(ctx, "docs/examples.md", r"^Example: `tiled_matmul.elf` on gap9", 2,
                       "build/firmware/examples/tiled_matmul.elf")


def check_fidelity(ctx):
    doc = "docs/memory-map.md"
    lines = read_doc(ctx, doc)
    anchor = find_line(lines, doc, r"^What `cmake --build build --target fidelity` prints")
    block = fenced_block(lines, anchor)
    elf = ctx.path("build/firmware/tests/fwtest_mem_fidelity.elf")
    output = ctx.run([ctx.path("build/bench/fidelity_bench")], env={"NPUSIM": ctx.npusim, "NPU_MEM_FIDELITY_ELF": elf})
    # The rows only: the notes under each group are prose the bench prints too,
    # but wrapped as the doc wraps them.
    rows = [(i, t) for i, t in block if re.match(r"^(SA|memory)\s", t)]
    if len(rows) < 20:
        raise Failure(f"{doc}: only {len(rows)} fidelity rows found under line {anchor + 1}")
    compare_block(ctx, doc, rows, output, "fidelity_bench")


def check_npurt_conv(ctx):
    doc = "docs/npurt-conv.md"
    lines = read_doc(ctx, doc)
    anchor = find_line(lines, doc, r"^### Measured \(gap9.cfg, `fw.npurt_conv_cycles`")
    rows = [i for i in range(anchor, min(anchor + 20, len(lines))) if re.match(r"^\| [A-Za-z].*\| [0-9,]+ \| [0-9.]+ \|", lines[i])]
    cmd = [ctx.npusim, "--config", ctx.path("configs/gap9.cfg"),
           ctx.path("build/compiler/runtime/tests/fwtest_npurt_conv_cycles.elf")]
    printed = re.findall(r": (\d+) cycles, \d+ MACs, ([0-9.]+) MAC/cycle", ctx.run(cmd))
    if len(rows) != len(printed) or not rows:
        raise Failure(f"{doc}: {len(rows)} table rows under line {anchor + 1}, the firmware prints {len(printed)} layers")
    for i, (cycles, mpc) in zip(rows, printed):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        says = (cells[2].replace(",", ""), cells[3])
        if says != (cycles, mpc):
            ctx.differ(doc, i + 1, "cycles, MAC/cycle", " / ".join(says), f"{cycles} / {mpc}", "fwtest_npurt_conv_cycles")


def layer_cycles(stats, k):
    """Layer k's cycles as bench/npuc_mlp's per-layer rows: its regions (matmul + stage + generic)."""
    return sum(r["cycles"] for r in stats.get("regions", []) if r["name"].startswith(f"layer{k}."))


def sentence(lines, doc, pattern):
    """The first match of `pattern` in the doc's text (lines joined by spaces) and its line number."""
    text, starts = "", []
    for line in lines:
        starts.append(len(text))
        text += line.rstrip("\n") + " "
    m = re.search(pattern, text)
    if not m:
        raise Failure(f"{doc}: no text matching {pattern!r}")
    return m, max(i for i, st in enumerate(starts) if st <= m.start()) + 1


def check_npuc_mlp(ctx):
    doc = "docs/compiler.md"
    lines = read_doc(ctx, doc)
    anchor = find_line(lines, doc, r"^\| network \| weights \| npuc \| npusim wall \| cycles \| layer1 / layer2 / layer3 \|$")
    rows = []
    for i in range(anchor + 2, anchor + 6):
        m = re.match(r"^\| (mlp_\w+) \| (L[23]) \| [^|]+\| [^|]+\| ([0-9,]+) \| ([0-9, /]+) \|", lines[i])
        if not m:
            raise Failure(f"{doc}:{i + 1}: not a row of the mlp table")
        net, level, says = m.group(1), m.group(2), m.group(3).replace(",", "")
        rows.append((net, level))
        stats = ctx.simulate(ctx.compile(f"compiler/networks/{net}.mlir", [f"--default-mem-level={level}"]))
        if str(stats["cycles"]) != says:
            ctx.differ(doc, i + 1, f"{net} {level} cycles", says, str(stats["cycles"]), f"npuc {net} + npusim")
        layers_says = [x.strip().replace(",", "") for x in m.group(4).split("/")]
        layers = [str(layer_cycles(stats, k)) for k in (1, 2, 3)]
        if layers_says != layers:
            ctx.differ(doc, i + 1, f"{net} {level} layer1 / layer2 / layer3", " / ".join(layers_says),
                       " / ".join(layers), f"npuc {net} + npusim (regions layerN.*)")
    # The same runs unfused, and everything in L3 (the prose under the table).
    m, line = sentence(lines, doc, r"the same runs take ([0-9,]+), ([0-9,]+), ([0-9,]+) and ([0-9,]+) cycles")
    for (net, level), says in zip(rows, m.groups()):
        stats = ctx.simulate(ctx.compile(f"compiler/networks/{net}.mlir",
                                         [f"--default-mem-level={level}", "--fuse-matmul=false"]))
        if str(stats["cycles"]) != says.replace(",", ""):
            ctx.differ(doc, line, f"{net} {level} unfused cycles", says.replace(",", ""), str(stats["cycles"]),
                       f"npuc {net} --fuse-matmul=false + npusim")
    m, line = sentence(lines, doc, r"the whole run takes ([0-9,]+) cycles for `mlp_int8` and ([0-9,]+) for `mlp_f32`")
    m2, line2 = sentence(lines, doc, r"e\.g\. ([0-9,]+) cycles for layer 1 of `mlp_int8`")
    for net, says in zip(("mlp_int8", "mlp_f32"), m.groups()):
        stats = ctx.simulate(ctx.compile(f"compiler/networks/{net}.mlir",
                                         ["--default-mem-level=L3", "--activation-mem-level=L3"]))
        if str(stats["cycles"]) != says.replace(",", ""):
            ctx.differ(doc, line, f"{net} all-in-L3 cycles", says.replace(",", ""), str(stats["cycles"]),
                       f"npuc {net} --default-mem-level=L3 --activation-mem-level=L3 + npusim")
        if net == "mlp_int8":
            stage = str(sum(r["cycles"] for r in stats.get("regions", []) if r["name"] == "layer1.stage"))
            if stage != m2.group(1).replace(",", ""):
                ctx.differ(doc, line2, "mlp_int8 all-in-L3 layer1.stage cycles", m2.group(1).replace(",", ""),
                           stage, "npuc mlp_int8 (all in L3) + npusim")


def check_sa_buffers(ctx):
    doc = "docs/sa.md"
    lines = read_doc(ctx, doc)
    anchor = find_line(lines, doc, r"^\| network \| SA busy, 1 \| SA busy, 2 \| SA speedup \| run cycles, 1 \| run cycles, 2 \| run speedup \|$")
    i = anchor + 2
    while i < len(lines) and lines[i].startswith("| "):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        net = cells[0]
        manifest = ctx.compile(f"compiler/networks/{net}.mlir", [])
        got = {}
        for b in (1, 2):
            st = ctx.simulate(manifest, [f"--sa.weight_buffers={b}"])
            got[b] = (str(st["stats"]["soc.sa"]["busy_cycles"]), str(st["cycles"]))
        says = (cells[1], cells[2], cells[4], cells[5])
        printed = (got[1][0], got[2][0], got[1][1], got[2][1])
        if says != printed:
            ctx.differ(doc, i + 1, f"{net} SA busy 1/2, run cycles 1/2", " / ".join(says), " / ".join(printed),
                       f"npusim --manifest {net} --sa.weight_buffers=1|2")
        i += 1


def check_configurations(ctx):
    doc = "docs/compiler.md"
    lines = read_doc(ctx, doc)
    anchor = find_line(lines, doc, r"^\| network \| elements \| gap9 L2 \| gap9 L3 \| siracusa L2 / L3 \| L1 32 KiB \| 32 KiB, 1 KiB stacks \| L1 64 KiB \| L1 128 KiB \|$")
    # The columns' ./npu run arguments (the table's header says the command).
    siracusa = ["--config", "configs/siracusa.cfg"]
    columns = [[], ["--default-mem-level=L3"], siracusa, siracusa + ["--default-mem-level=L3"],
               ["--l1.size=32KiB"], ["--l1.size=32KiB", "--firmware.stack_size=1KiB"], ["--l1.size=64KiB"],
               ["--l1.size=128KiB"]]
    i = anchor + 2
    rows = 0
    while i < len(lines) and lines[i].startswith("| "):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        net = cells[0]
        # siracusa's two runs share a cell ("L2 / L3"); notes in brackets are not figures.
        says = []
        for c in cells[2:]:
            says += [re.sub(r"\s*\(.*\)", "", x).replace(",", "").strip() for x in c.split(" / ")]
        if len(says) != len(columns):
            raise Failure(f"{doc}:{i + 1}: {len(says)} cycle figures in the row, the check knows {len(columns)} columns")
        for want, args in zip(says, columns):
            out = os.path.join(ctx.tmp, "cfg_" + re.sub(r"[^A-Za-z0-9]+", "_", net + "_" + "_".join(args)))
            text = ctx.run([ctx.path("npu"), "run", f"compiler/networks/{net}.mlir", "-o", out] + args,
                           env={"NPU_BUILD_DIR": ctx.build})
            m = re.search(r"^cycles\s+: (\d+) @", text, re.M)
            if not m or "golden comparison: PASS" not in text:
                raise Failure(f"./npu run {net} {' '.join(args)}: no cycles line or no 'golden comparison: PASS'")
            if m.group(1) != want:
                ctx.differ(doc, i + 1, f"{net} {' '.join(args) or 'gap9 L2'}", want, m.group(1), f"./npu run {net}")
        rows += 1
        i += 1
    if rows == 0:
        raise Failure(f"{doc}: no rows under line {anchor + 1}")


def check_conv_placements(ctx):
    """docs/compiler.md's two matrices of the eight networks (gap9 and
    siracusa, weights in L2 and L3, L1 at 32/64/128 KiB): activations in
    L2, then in L3 too (--activation-mem-level=L3). Every cell by ./npu run."""
    doc = "docs/compiler.md"
    lines = read_doc(ctx, doc)
    columns = [("L2", "32"), ("L2", "64"), ("L2", "128"), ("L3", "32"), ("L3", "64"), ("L3", "128")]
    tables = [(r"^\| network \| config \| L2, 32 KiB \| L2, 64 KiB \| L2, 128 KiB \| L3, 32 KiB \| L3, 64 KiB \| L3, 128 KiB \|$", []),
              (r"^\| network \| config \| weights L2, 32 KiB \| L2, 64 KiB \| L2, 128 KiB \| weights L3, 32 KiB \| L3, 64 KiB \| L3, 128 KiB \|$",
               ["--activation-mem-level=L3"])]
    for header, extra in tables:
        anchor = find_line(lines, doc, header)
        i, rows = anchor + 2, 0
        while i < len(lines) and lines[i].startswith("| "):
            cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            net, config = cells[0], cells[1]
            if len(cells) != 2 + len(columns):
                raise Failure(f"{doc}:{i + 1}: {len(cells) - 2} cycle figures in the row, the check knows {len(columns)}")
            for want, (level, l1) in zip(cells[2:], columns):
                args = ["--config", f"configs/{config}.cfg", f"--default-mem-level={level}", f"--l1.size={l1}KiB"] + extra
                out = os.path.join(ctx.tmp, "place_" + re.sub(r"[^A-Za-z0-9]+", "_", net + "_" + "_".join(args)))
                text = ctx.run([ctx.path("npu"), "run", f"compiler/networks/{net}.mlir", "-o", out] + args,
                               env={"NPU_BUILD_DIR": ctx.build})
                m = re.search(r"^cycles\s+: (\d+) @", text, re.M)
                if not m or "golden comparison: PASS" not in text:
                    raise Failure(f"./npu run {net} {' '.join(args)}: no cycles line or no 'golden comparison: PASS'")
                if m.group(1) != want.replace(",", ""):
                    ctx.differ(doc, i + 1, f"{net} {' '.join(args)}", want.replace(",", ""), m.group(1),
                               f"./npu run {net}")
            rows += 1
            i += 1
        if rows == 0:
            raise Failure(f"{doc}: no rows under line {anchor + 1}")


# bench/mlperf_tiny's network names in the docs' MLPerf Tiny tables.
MLPERF_ROWS = {"DS-CNN": "dscnn", "ResNet-8": "resnet8", "MobileNetV1": "mobilenet", "FC autoencoder": "autoencoder",
               "Autoencoder": "autoencoder"}


def check_mlperf_tiny(ctx):
    """The MLPerf Tiny tables of docs/architects.md (cycles, uJ, uJ ratio) and
    docs/npurt-conv.md (cycles, MAC/cycle, cycle ratio, uJ, uJ ratio) against
    bench/mlperf_tiny's table (the wall-second columns are not figures)."""
    text = ctx.run([ctx.path("bench/mlperf_tiny"), "--npuc", ctx.npuc, "--npusim", ctx.npusim,
                    "--out", os.path.join(ctx.tmp, "mlperf")])
    bench = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 12 and f[0] in MLPERF_ROWS.values():
            bench[f[0]] = {"cycles": f[4].replace(",", ""), "mac_per_cycle": f[6], "ratio": f[8], "uj": f[9],
                           "uj_ratio": f[11]}
    if len(bench) != 4:
        raise Failure(f"bench/mlperf_tiny: {len(bench)} network rows, 4 expected\n{text[-1500:]}")

    def rows(doc, header):
        lines = read_doc(ctx, doc)
        i = find_line(lines, doc, header) + 2
        while i < len(lines) and lines[i].startswith("| "):
            cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            name = next((v for k, v in MLPERF_ROWS.items() if cells[0].startswith(k)), None)
            if name is None:
                raise Failure(f"{doc}:{i + 1}: no bench network for {cells[0]!r}")
            yield i + 1, bench[name], cells
            i += 1

    doc = "docs/architects.md"
    for line, b, cells in rows(doc, r"^\| network \| cycles \| µJ \(npusim\) \| µJ \(GAP9\) \| ratio \|$"):
        says, printed = (cells[1].replace(",", ""), cells[2], cells[4]), (b["cycles"], b["uj"], b["uj_ratio"])
        if says != printed:
            ctx.differ(doc, line, f"{cells[0]} cycles / uJ / ratio", " / ".join(says), " / ".join(printed),
                       "bench/mlperf_tiny")
    doc = "docs/npurt-conv.md"
    for line, b, cells in rows(doc, r"^\| network \| npuc s \| sim s \| cycles \| MAC/cycle \| GAP9 \| ratio \| uJ \|"):
        says = (cells[3].replace(",", ""), cells[4], cells[6], cells[7], cells[9])
        printed = (b["cycles"], b["mac_per_cycle"], b["ratio"], b["uj"], b["uj_ratio"])
        if says != printed:
            ctx.differ(doc, line, f"{cells[0]} cycles / MAC/cycle / ratio / uJ / uJ ratio", " / ".join(says),
                       " / ".join(printed), "bench/mlperf_tiny")


# docs/frontend.md's table: its models and the hand-written networks they
# match (the doc names the file where the names differ).
FRONTEND_MODELS = {"SimpleMLP": "simple_mlp", "FC autoencoder": "autoencoder", "DS-CNN": "dscnn",
                   "ResNet-8": "resnet8", "MobileNetV1-0.25": "mobilenet"}


def check_frontend(ctx):
    """The cycles columns of docs/frontend.md's table of the PyTorch models:
    each exported to ONNX (export.py, as the frontend.onnx ctests do) and
    the hand-written network, both by `./npu run X -o DIR` (no --input)."""
    doc = "docs/frontend.md"
    lines = read_doc(ctx, doc)
    anchor = find_line(lines, doc, r"^\| network \| device vs golden \| golden vs PyTorch \| cycles \(ONNX\) \| "
                                   r"cycles \(hand-written `\.mlir`\) \|$")
    export = ctx.path("compiler/frontends/pytorch/export.py")

    def cycles_of(target, out):
        text = ctx.run([ctx.path("npu"), "run", target, "-o", out], env={"NPU_BUILD_DIR": ctx.build})
        m = re.search(r"^cycles\s+: (\d+) @", text, re.M)
        if not m or "golden comparison: PASS" not in text:
            raise Failure(f"./npu run {target}: no cycles line or no 'golden comparison: PASS'")
        return m.group(1)

    i = anchor + 2
    rows = 0
    while i < len(lines) and lines[i].startswith("| "):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        m = re.match(r"^(.+) (f32|int8)( \(QDQ\))?$", cells[0])
        if not m or m.group(1) not in FRONTEND_MODELS:
            raise Failure(f"{doc}:{i + 1}: {cells[0]!r} is not a model the check knows")
        model, dtype = FRONTEND_MODELS[m.group(1)], m.group(2)
        name = f"{model}_{dtype}"
        out = os.path.join(ctx.tmp, "onnx_" + name)
        ctx.run(["/usr/bin/python3", export, "--model", model, "--out", out] + (["--int8"] if dtype == "int8" else []))
        onnx = os.path.join(out, name + ".onnx")
        hand = re.search(r"\(`(\w+)`\)", cells[4])
        net = hand.group(1) if hand else name
        says = (cells[3].replace(",", ""), re.sub(r"\s*\(.*\)", "", cells[4]).replace(",", ""))
        printed = (cycles_of(onnx, os.path.join(out, "run")),
                   cycles_of(f"compiler/networks/{net}.mlir", os.path.join(ctx.tmp, "hand_" + net)))
        if says != printed:
            ctx.differ(doc, i + 1, f"{cells[0]} cycles (ONNX, hand-written {net})", " / ".join(says),
                       " / ".join(printed), f"./npu run {name}.onnx and {net}.mlir")
        rows += 1
        i += 1
    if rows == 0:
        raise Failure(f"{doc}: no rows under line {anchor + 1}")


def check_training(ctx):
    """docs/training.md's benchmark table (bench/training, the `training`
    target), every column but the two wall-second ones, and the quoted
    layer19.generic region of its ResNet-8 run."""
    doc = "docs/training.md"
    lines = read_doc(ctx, doc)
    anchor = find_line(lines, doc, r"^`cmake --build build --target training` \(bench/training\) trains SimpleMLP")
    header = next(i for i in range(anchor, len(lines)) if lines[i].startswith("network          wts batch"))
    rows = []
    for i in range(header + 1, len(lines)):
        if lines[i].startswith("```"):
            break
        rows.append((i, lines[i]))
    if not rows:
        raise Failure(f"{doc}: no rows under line {header + 1}")
    out = os.path.join(ctx.tmp, "training")
    printed = ctx.run(["/usr/bin/python3", ctx.path("bench/training"), "--npuc", ctx.npuc, "--npusim", ctx.npusim,
                       "--config", ctx.path("configs/gap9.cfg"), "--out", out])

    def cells(row):
        c = row.split()
        return c[:3] + c[5:]  # the wall seconds (npuc s, sim s) are the host's

    got = {}
    for row in printed.split("\n"):
        c = row.split()
        if len(c) > 8 and re.match(r"^[0-9,]+$", c[5]):
            got[(c[0], c[1])] = cells(row)
    for i, row in rows:
        want = cells(row)
        have = got.get(tuple(want[:2]))
        if have != want:
            ctx.differ(doc, i + 1, f"{want[0]} {want[1]} (all but the wall seconds)", " ".join(want),
                       " ".join(have) if have else "(no such row)", "bench/training")
    # The layer19.generic figures quoted below the table, from the same run.
    q = find_line(lines, doc, r"^\$ python3 -c .*layer19\.generic")
    says = lines[q + 1].split()
    with open(os.path.join(out, "resnet8_f32.L2", "stats.json")) as f:
        r = {x["name"]: x for x in json.load(f)["regions"]}["layer19.generic"]
    have = [str(r["cycles"]), str(round(r["worker_utilisation"], 2))]
    if says != have:
        ctx.differ(doc, q + 2, "layer19.generic cycles, worker utilisation", " ".join(says), " ".join(have),
                   "bench/training's resnet8_f32.L2 stats.json")


# Blocks of quoted output that a change of the firmware's code moves (a
# fault's PC and runtime line numbers, buffer addresses): (doc, the line
# the block follows, whether it is a ``` block or an indented one, the
# command from the repository's root, its exit code). The block's lines
# must appear in the output in order ("..." skips).
OUTPUT_BLOCKS = [
    ("docs/examples.md", r"^\*\*Weights never loaded\*\* \(`skip-weight-load`", "fenced",
     ["npu", "train", "compiler/networks/mlp_f32.mlir", "--inject-fault=skip-weight-load"], 4),
    ("docs/examples.md", r"^With `--npusim-arg=--memcheck=off` the run reaches the end as on silicon", "fenced",
     ["npu", "train", "compiler/networks/mlp_f32.mlir", "--inject-fault=skip-weight-load",
      "--npusim-arg=--memcheck=off"], 6),
    ("docs/examples.md", r"^\*\*Unchecked L1 allocation in a backward kernel\*\*", "fenced",
     ["npu", "train", "compiler/networks/mlp_tiny_f32.mlir", "--inject-fault=unchecked-l1-alloc"], 3),
    ("docs/getting-started.md", r"^  the layer where it starts \(docs/bug-classes.md, item 6\):$", "indented",
     ["npu", "run", "compiler/networks/mlp_f32.mlir"], 0),
]


def check_output_blocks(ctx):
    for doc, anchor, kind, args, code in OUTPUT_BLOCKS:
        lines = read_doc(ctx, doc)
        at = find_line(lines, doc, anchor)
        block = fenced_block(lines, at) if kind == "fenced" else indented_block(lines, at + 2)
        if not any(t.strip() and t.strip() != "..." for _, t in block):
            raise Failure(f"{doc}: no quoted lines after line {at + 1}")
        out = os.path.join(ctx.tmp, "blk_" + re.sub(r"[^A-Za-z0-9]+", "_", "_".join(args[1:])))
        cmd = [ctx.path(args[0])] + args[1:3] + ["-o", out] + args[3:]
        text = ctx.run_exit(cmd, code, env={"NPU_BUILD_DIR": ctx.build})
        compare_block(ctx, doc, block, text, "./" + " ".join(args))


def grouped(n):
    return f"{int(n):,}"


def replace_figures(line, says, printed, raw):
    """The doc line with the stale figures replaced, or None if they cannot be
    located unambiguously. A report line (raw given) whose normalised text is
    what the doc says is replaced whole, its indentation kept; otherwise the
    figures (split on " / " or spaces, as the checks join them) are replaced
    one by one, left to right, each where it next occurs as a whole figure
    (a figure written with thousands separators keeps them)."""
    if raw is not None and normalise(line) == says:
        return line[:len(line) - len(line.lstrip())] + raw.strip()
    sep = " / " if " / " in says else " "
    old, new = says.split(sep), printed.split(sep)
    if len(old) != len(new):
        return None
    pos = 0
    for a, b in zip(old, new):
        if a == b:
            continue
        forms = [(re.escape(a), b)]
        if re.fullmatch(r"\d{4,}", a) and re.fullmatch(r"\d+", b):
            forms.insert(0, (re.escape(grouped(a)), grouped(b)))
        for rx, rep in forms:
            m = re.compile(r"(?<![\w.,])" + rx + r"(?![\w]|[.,]\d)").search(line, pos)
            if m:
                line = line[:m.start()] + rep + line[m.end():]
                pos = m.start() + len(rep)
                break
        else:
            return None
    return line


def fix_docs(ctx):
    """Rewrites the stale figures in the docs; returns the ones it could not place."""
    left = []
    by_doc = {}
    for doc, line, says, printed, raw in ctx.stale:
        by_doc.setdefault(doc, []).append((line, says, printed, raw))
    for doc, items in by_doc.items():
        path = os.path.join(ctx.root, doc)
        with open(path) as f:
            lines = f.read().split("\n")
        for line, says, printed, raw in items:
            fixed = replace_figures(lines[line - 1], says, printed, raw)
            if fixed is None:
                left.append(f"{doc}:{line}: could not place {says!r} -> {printed!r}")
            else:
                lines[line - 1] = fixed
        with open(path, "w") as f:
            f.write("\n".join(lines))
    return left


CHECKS = {
    "getting-started": check_getting_started,
    "examples": check_examples,
    "fidelity": check_fidelity,
    "npurt-conv": check_npurt_conv,
    "npuc-mlp": check_npuc_mlp,
    "sa-buffers": check_sa_buffers,
    "configurations": check_configurations,
    "conv-placements": check_conv_placements,
    "mlperf-tiny": check_mlperf_tiny,
    "frontend": check_frontend,
    "training": check_training,
    "output-blocks": check_output_blocks,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="the source tree (docs/, configs/, compiler/networks/)")
    ap.add_argument("--build", required=True, help="the build tree (npusim, npuc, firmware, fidelity_bench)")
    ap.add_argument("--only", nargs="*", choices=sorted(CHECKS), help="run only these checks")
    ap.add_argument("--list", action="store_true", help="list the checks and exit")
    ap.add_argument("--fix", action="store_true",
                    help="rewrite the stale figures in the docs with what the commands print (after a deliberate "
                         "timing change; review the diff), then report what it could not place")
    a = ap.parse_args()
    if a.list:
        print("\n".join(CHECKS))
        return 0
    ctx = Ctx(os.path.abspath(a.root), os.path.abspath(a.build))
    for tool in (ctx.npusim, ctx.npuc):
        if not os.access(tool, os.X_OK):
            print(f"check_doc_figures: {tool} is not an executable (build it first)", file=sys.stderr)
            return 2
    try:
        rc = run_checks(ctx, a.only or list(CHECKS))
        if a.fix and ctx.stale:
            left = fix_docs(ctx)
            print(f"--fix: rewrote {len(ctx.stale) - len(left)} stale figure(s)" +
                  "".join(f"\n  {m}" for m in left))
            return 1 if left else 0
        return rc
    finally:
        shutil.rmtree(ctx.tmp, ignore_errors=True)


def run_checks(ctx, names):
    failed = False
    for name in names:
        before = len(ctx.mismatches)
        try:
            CHECKS[name](ctx)
        except Failure as e:
            print(f"{name}: FAILED: {e}")
            failed = True
            continue
        found = ctx.mismatches[before:]
        print(f"{name}: {'ok' if not found else f'{len(found)} stale figure(s)'}")
        for m in found:
            print(f"  {m}")
        failed = failed or bool(found)
    if failed:
        print("Re-measure with the command named and update the doc (or fix the change that moved it).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
