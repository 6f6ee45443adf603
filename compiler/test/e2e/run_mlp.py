#!/usr/bin/env python3
"""End-to-end check of npuc on an MLP from compiler/networks/ (gen_mlp.py form).

Compiles the network with npuc, runs firmware.elf on npusim, reads the output
bytes that compiler/runtime/npuc_main.c dumps over the UART and compares them
element by element with (1) a reference computed here in plain Python from the
constants of the same .mlir file and the input.bin npuc wrote, and (2) npuc's
golden.bin (the original module run on the host by MLIR's ExecutionEngine).

int8 must match exactly; f32 within --f32-tol (absolute). Fails when the run
exits non-zero, when no element was compared, or on any mismatch.
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
    run = subprocess.run([args.npusim, "--config", args.config, os.path.join(args.out, "firmware.elf")],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    print(run.stdout)
    if run.returncode != 0:
        print(f"run_mlp: FAIL: npusim exited with {run.returncode}")
        return 1

    lines = run.stdout.splitlines()
    try:
        begin = next(i for i, l in enumerate(lines) if l.startswith("npuc-output "))
        end = lines.index("npuc-output-end", begin)
    except (StopIteration, ValueError):
        print("run_mlp: FAIL: no npuc-output block in the simulator output")
        return 1
    size = int(lines[begin].split()[1])
    raw = bytes.fromhex("".join(lines[begin + 1:end]))
    if len(raw) != size:
        print(f"run_mlp: FAIL: dumped {len(raw)} bytes, announced {size}")
        return 1

    inputs = manifest["inputs"]
    outputs = manifest["outputs"]
    if len(inputs) != 1 or len(outputs) != 1:
        print("run_mlp: FAIL: an MLP has one input and one output")
        return 1
    inp, out = inputs[0], outputs[0]
    in_bytes = open(os.path.join(args.out, manifest["input_file"]), "rb").read()
    rows, cols = inp["shape"]
    fmt = {"i8": "b", "f32": "f"}[inp["element_type"]]
    flat = struct.unpack("<%d%s" % (rows * cols, fmt), in_bytes[:inp["bytes"]])
    x = [list(flat[r * cols:(r + 1) * cols]) for r in range(rows)]

    layers, scalars = parse_mlp(open(args.network).read())
    ref = [v for row in reference(layers, scalars, x) for v in row]
    base = 0  # the only output starts the dump
    ofmt = {"i8": "b", "f32": "f", "i32": "i"}[out["element_type"]]
    count = 1
    for d in out["shape"]:
        count *= d
    got = struct.unpack_from("<%d%s" % (count, ofmt), raw, base)

    if len(set(ref)) < 2:
        print("run_mlp: FAIL: the reference output is constant; the input does not exercise the network")
        return 1
    ok = compare("python reference", got, ref, ofmt, args.f32_tol)

    # npuc's golden reference: the original module run on the host through
    # MLIR's ExecutionEngine on the same input.
    if not manifest.get("golden_file"):
        print("run_mlp: FAIL: the manifest names no golden file")
        return 1
    gold_raw = open(os.path.join(args.out, manifest["golden_file"]), "rb").read()
    gold = struct.unpack_from("<%d%s" % (count, ofmt), gold_raw, base)
    ok = compare("npuc golden (ExecutionEngine)", got, gold, ofmt, args.f32_tol) and ok
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
