#!/usr/bin/env python3
"""End-to-end check of npuc on an MLP from compiler/networks/ (gen_mlp.py form).

Compiles the network with npuc and runs `npusim --manifest`, which compares
every output element with npuc's golden.bin (the original module run on the
host by MLIR's ExecutionEngine) and must report "compared N of N elements,
0 mismatches". The golden itself is checked against a reference computed here
in plain Python from the constants of the same .mlir file and input.bin.

int8 must match exactly; f32 within --f32-tol (absolute). Fails when the run
exits non-zero, when no element was compared, or on any mismatch. With
--expect-exit (injected faults) it checks npusim's exit code and report
instead.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def parse_mlp(text):
    """Layers of a gen_mlp.py network: weights, bias, relu flag, and the requant scalars."""
    scalars = {}
    for name in ("mult", "shift", "round", "qmin", "qmax"):
        m = re.search(r"%" + name + r" = arith\.constant (-?\d+) : i64", text)
        if m:
            scalars[name] = int(m.group(1))
    layers = []
    for chunk in re.split(r"// Layer \d+:", text)[1:]:
        w = re.search(r"%w\d+ = arith\.constant dense<(.*?)> : tensor<(\d+)x(\d+)x(i8|f32)>", chunk)
        b = re.search(r"%b\d+ = arith\.constant dense<(.*?)> : tensor<(\d+)x(i32|f32)>", chunk)
        if not w or not b:
            raise SystemExit("run_mlp: cannot parse a layer of the network")
        relu = "arith.maxsi %x, %c0_i32" in chunk or "arith.maximumf" in chunk
        layers.append((json.loads(w.group(1)), json.loads(b.group(1)), relu, w.group(4)))
    if not layers:
        raise SystemExit("run_mlp: no layers found in the network")
    return layers, scalars


def reference(layers, scalars, x):
    for w, bias, relu, dtype in layers:
        rows, k, n = len(x), len(w), len(w[0])
        out = []
        for r in range(rows):
            row = []
            for c in range(n):
                if dtype == "i8":
                    acc = sum(x[r][i] * w[i][c] for i in range(k))
                    v = acc + bias[c]
                    if relu:
                        v = max(v, 0)
                    v = (v * scalars["mult"] + scalars["round"]) >> scalars["shift"]
                    v = min(max(v, scalars["qmin"]), scalars["qmax"])
                else:
                    acc = 0.0
                    for i in range(k):
                        acc = f32(acc + f32(x[r][i] * f32(w[i][c])))
                    v = f32(acc + f32(bias[c]))
                    if relu:
                        v = max(v, 0.0)
                row.append(v)
            out.append(row)
        x = out
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--network", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--f32-tol", type=float, default=1e-4)
    ap.add_argument("--npuc-arg", action="append", default=[], help="extra npuc argument (repeatable)")
    ap.add_argument("--expect-weights-in", choices=["L2", "L3"], help="every weight of the manifest's plan is there")
    ap.add_argument("--expect-output-in", choices=["L2", "L3"], help="the output's planned level")
    ap.add_argument("--golden-only", action="store_true",
                    help="a network not in gen_mlp.py form (MLPerf Tiny): no plain-Python reference here "
                         "(tests/reference/ checks those against PyTorch), only the run against the golden")
    ap.add_argument("--expect-exit", type=int, default=0, help="npusim's exit code (faults: 3, 4, ...)")
    ap.add_argument("--expect-regex", action="append", default=[], help="must appear in npusim's output")
    args = ap.parse_args()

    subprocess.run([args.npuc, args.network, "-o", args.out, "--config", args.config] + args.npuc_arg,
                   check=True)
    manifest = json.load(open(os.path.join(args.out, "manifest.json")))
    # The manifest's fingerprint must be the one the firmware was linked for
    # (npu_fwgen writes it into npu_platform.h from the same config).
    header = open(os.path.join(args.out, "npu_platform.h")).read()
    m = re.search(r"#define NPU_CONFIG_FINGERPRINT (0x[0-9a-fA-F]+)", header)
    if not m or int(m.group(1), 16) != int(manifest["config_fingerprint"], 16):
        print("run_mlp: FAIL: manifest config_fingerprint differs from npu_platform.h")
        return 1
    if args.expect_weights_in:
        weights = [t for t in manifest["memory_plan"]["tensors"] if t["kind"] == "weight"]
        wrong = [t for t in weights if t["level"] != args.expect_weights_in]
        if not weights or wrong:
            print(f"run_mlp: FAIL: expected every weight in {args.expect_weights_in}: {wrong or 'no weights'}")
            return 1
        print(f"run_mlp: all {len(weights)} weights planned in {args.expect_weights_in}")

    if args.expect_output_in:
        base = {"L2": 0x1C000000, "L3": 0x80000000}[args.expect_output_in]  # gap9 / siracusa bases
        out_addr = manifest["outputs"][0]["address"]
        if not base <= out_addr < base + 0x10000000:
            print(f"run_mlp: FAIL: output at {out_addr:#x} is not in {args.expect_output_in}")
            return 1
        print(f"run_mlp: output planned in {args.expect_output_in} at {out_addr:#x}")

    # npusim reads the outputs at their planned addresses after the run and
    # compares them with golden.bin itself; memcheck=error stops at the first
    # read of never-written memory.
    run = subprocess.run([args.npusim, "--manifest", os.path.join(args.out, "manifest.json"), "--memcheck=error"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print(run.stdout)
    ok = True
    if run.returncode != args.expect_exit:
        print(f"run_mlp: FAIL: npusim exited with {run.returncode}, expected {args.expect_exit}")
        ok = False
    for rx in args.expect_regex:
        if not re.search(rx, run.stdout, re.M):
            print(f"run_mlp: FAIL: npusim's output does not match /{rx}/")
            ok = False
    if args.expect_exit != 0:
        print("run_mlp: PASS" if ok else "run_mlp: FAIL")
        return 0 if ok else 1

    inputs = manifest["inputs"]
    outputs = manifest["outputs"]
    if len(inputs) != 1 or len(outputs) != 1:
        print("run_mlp: FAIL: an MLP has one input and one output")
        return 1
    inp, out = inputs[0], outputs[0]
    count = 1
    for d in out["shape"]:
        count *= d
    want = f"compared {count} of {count} elements, 0 mismatches"
    if want not in run.stdout:
        print(f"run_mlp: FAIL: npusim did not report '{want}'")
        ok = False
    # Every layer result between the input and the output, checked too.
    layer_elems = sum(c["bytes"] // {"i8": 1, "i32": 4, "f32": 4}[c["element_type"]]
                      for c in manifest.get("checkpoints", []))
    # npu-fuse-matmul makes each layer one kernel (its matmul and epilogue):
    # one checkpoint per hidden layer's result (the last layer's is the output).
    min_checkpoints = 1 if args.golden_only else len(parse_mlp(open(args.network).read())[0]) - 1
    if len(manifest.get("checkpoints", [])) < min_checkpoints:
        print("run_mlp: FAIL: the manifest lacks per-layer checkpoints (the result of every hidden layer)")
        ok = False
    want = f"layers: compared {layer_elems} of {layer_elems} elements, 0 mismatches"
    if layer_elems == 0 or want not in run.stdout:
        print(f"run_mlp: FAIL: npusim did not report '{want}'")
        ok = False
    if args.golden_only:
        print("run_mlp: PASS" if ok else "run_mlp: FAIL")
        return 0 if ok else 1

    # The golden itself (the original module on the host through MLIR's
    # ExecutionEngine) against an independent plain-Python reference computed
    # from the constants of the same .mlir and the input.bin npuc wrote.
    in_bytes = open(os.path.join(args.out, manifest["input_file"]), "rb").read()
    rows, cols = inp["shape"]
    fmt = {"i8": "b", "f32": "f"}[inp["element_type"]]
    flat = struct.unpack_from("<%d%s" % (rows * cols, fmt), in_bytes, inp.get("file_offset", 0))
    x = [list(flat[r * cols:(r + 1) * cols]) for r in range(rows)]
    layers, scalars = parse_mlp(open(args.network).read())
    ref = [v for row in reference(layers, scalars, x) for v in row]
    if len(set(ref)) < 2:
        print("run_mlp: FAIL: the reference output is constant; the input does not exercise the network")
        return 1
    ofmt = {"i8": "b", "f32": "f", "i32": "i"}[out["element_type"]]
    if not manifest.get("golden_file"):
        print("run_mlp: FAIL: the manifest names no golden file")
        return 1
    gold_raw = open(os.path.join(args.out, manifest["golden_file"]), "rb").read()
    gold = struct.unpack_from("<%d%s" % (count, ofmt), gold_raw, out["golden_offset"])
    ok = compare("golden.bin vs python reference", gold, ref, ofmt, args.f32_tol) and ok
    if not ok:
        print("run_mlp: FAIL")
        return 1
    print("run_mlp: PASS")
    return 0


def compare(what, got, ref, ofmt, tol):
    compared = mismatches = 0
    max_err = 0.0
    for i, (g, r) in enumerate(zip(got, ref)):
        compared += 1
        err = abs(g - r)
        max_err = max(max_err, err)
        bad = err != 0 if ofmt != "f" else err > tol
        if bad:
            mismatches += 1
            if mismatches <= 10:
                print(f"run_mlp: {what}: element {i}: got {g}, expected {r}")
    print(f"{what}: compared {compared} of {len(ref)} elements, {mismatches} mismatches, max abs err {max_err}")
    return compared > 0 and compared == len(got) == len(ref) and mismatches == 0


if __name__ == "__main__":
    sys.exit(main())
