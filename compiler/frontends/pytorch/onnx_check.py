#!/usr/bin/env python3
"""A torch.nn.Module through ONNX, npuc and npusim, checked against PyTorch.

  onnx_check.py --model resnet8 --work build/onnx/resnet8          (f32)
  onnx_check.py --model resnet8 --int8 --work build/onnx/resnet8_q (int8 QDQ)

1. builds the model of models.py (seeded weights) and its input, and exports it
   with torch.onnx.export (opset 13) to <work>/<model>.onnx;
2. `./npu run <work>/<model>.onnx --input <work>/input.npy`: npuc imports the
   model, compiles it, computes its golden reference on the host; npusim runs
   the firmware and compares every output element with the golden (exit 0,
   "compared N of N elements, 0 mismatches" with N > 0);
3. compares the golden with PyTorch's own forward on the same input: f32 within
   |golden - torch| <= 1e-4 + 1e-4 |torch|; int8 (the QDQ model's output in
   units of its output scale) within --int8-tolerance LSB, since PyTorch's
   fake quantization rounds in float where npurt_conv.h requantises in integers.
Prints "pytorch check: compared N of N elements ..." and fails if N is 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, choices=sorted(models.MODELS))
    ap.add_argument("--int8", action="store_true", help="the QDQ int8 form (dscnn, resnet8)")
    ap.add_argument("--work", required=True, help="directory for the .onnx, the input and npuc's output")
    ap.add_argument("--int8-tolerance", type=int, default=1, help="largest int8 difference to PyTorch, in LSB")
    ap.add_argument("--npu", default=os.path.join(ROOT, "npu"))
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    model = models.quantized(args.model) if args.int8 else models.build(args.model)
    x = models.example_input(model)
    with torch.no_grad():
        ref = model(x).numpy()
    name = args.model + ("_int8" if args.int8 else "_f32")
    onnx_path = os.path.join(args.work, name + ".onnx")
    torch.onnx.export(model, x, onnx_path, opset_version=13, input_names=["input"], output_names=["output"])
    if args.int8:
        # The QDQ model's interface is int8: its input quantized with the
        # input scale, its output in units of the output scale.
        data = torch.clamp(torch.round(x / model.in_scale), -128, 127).to(torch.int8).numpy()
        ref = np.round(ref / model.q["fc"].out_scale).astype(np.int64)
    else:
        data = x.numpy()
    input_path = os.path.join(args.work, "input.npy")
    np.save(input_path, data)

    out_dir = os.path.join(args.work, "out")
    run = subprocess.run([sys.executable, args.npu, "run", onnx_path, "--input", input_path, "-o", out_dir],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(run.stdout)
    m = re.search(r"compared (\d+) of (\d+) elements, (\d+) mismatches", run.stdout)
    if run.returncode != 0 or not m or int(m.group(1)) == 0 or int(m.group(3)) != 0:
        print(f"pytorch check: FAIL: npu run exited {run.returncode}", file=sys.stderr)
        return 1

    with open(os.path.join(out_dir, "manifest.json")) as f:
        out = json.load(f)["outputs"][0]
    dtype = {"f32": np.float32, "i8": np.int8}[out["element_type"]]
    with open(os.path.join(out_dir, "golden.bin"), "rb") as f:
        f.seek(out["golden_offset"])
        golden = np.frombuffer(f.read(out["bytes"]), dtype=dtype).reshape(out["shape"])
    if golden.shape != ref.shape:
        print(f"pytorch check: FAIL: golden shape {golden.shape}, PyTorch {ref.shape}", file=sys.stderr)
        return 1
    err = np.abs(golden.astype(np.float64) - ref.astype(np.float64))
    if args.int8:
        bad = err > args.int8_tolerance
        exact = int(np.sum(err == 0))
        detail = f"{exact} identical, max abs err {int(err.max())} LSB (tolerance {args.int8_tolerance})"
    else:
        bad = err > 1e-4 + 1e-4 * np.abs(ref)
        detail = f"max abs err {err.max():.3g}"
    n = golden.size
    print(f"pytorch check: {name}: compared {n} of {n} elements, {int(bad.sum())} mismatches, {detail}")
    return 0 if n > 0 and not bad.any() else 1


if __name__ == "__main__":
    sys.exit(main())
