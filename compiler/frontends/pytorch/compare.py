#!/usr/bin/env python3
"""Compares npuc's golden output (the ExecutionEngine run of the imported
network) with PyTorch's output (export.py's expected.npy).

  compare.py build/onnx/resnet8/out build/onnx/resnet8/expected.npy

f32: |golden - torch| <= 1e-4 + 1e-4 |torch|, every element. int8 (a QDQ
model, output in units of its scale): within --int8-tolerance LSB, since
PyTorch's fake quantization rounds in float where npurt_conv.h requantises in
integers. Prints "pytorch check: <network>: compared N of N elements, M
mismatches, ..." and exits 1 on a mismatch or when nothing was compared.
"""
import argparse
import json
import os
import sys

import numpy as np


def compare(out_dir, expected, int8_tolerance=1):
    """(compared, mismatches, summary line) of golden.bin against `expected`."""
    with open(os.path.join(out_dir, "manifest.json")) as f:
        manifest = json.load(f)
    out = manifest["outputs"][0]
    dtype = {"f32": np.float32, "i8": np.int8}[out["element_type"]]
    with open(os.path.join(out_dir, "golden.bin"), "rb") as f:
        f.seek(out["golden_offset"])
        golden = np.frombuffer(f.read(out["bytes"]), dtype=dtype).reshape(out["shape"])
    name = manifest["network"]
    if golden.shape != expected.shape:
        return 0, 0, f"pytorch check: {name}: FAIL: golden shape {golden.shape}, PyTorch {expected.shape}"
    err = np.abs(golden.astype(np.float64) - expected.astype(np.float64))
    if dtype == np.int8:
        bad = err > int8_tolerance
        detail = (f"{int(np.sum(err == 0))} identical, max abs err {int(err.max())} LSB "
                  f"(tolerance {int8_tolerance})")
    else:
        bad = err > 1e-4 + 1e-4 * np.abs(expected)
        detail = f"max abs err {err.max():.3g}"
    n = golden.size
    return n, int(bad.sum()), f"pytorch check: {name}: compared {n} of {n} elements, {int(bad.sum())} mismatches, {detail}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", help="npu run's output directory (manifest.json, golden.bin)")
    ap.add_argument("expected", help="PyTorch's output (export.py's expected.npy)")
    ap.add_argument("--int8-tolerance", type=int, default=1, help="largest int8 difference to PyTorch, in LSB")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.out_dir, "manifest.json")):
        print(f"compare: error: {args.out_dir}/manifest.json not found (did npu run compile the model?)",
              file=sys.stderr)
        return 2
    n, bad, line = compare(args.out_dir, np.load(args.expected), args.int8_tolerance)
    print(line)
    return 0 if n > 0 and bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
