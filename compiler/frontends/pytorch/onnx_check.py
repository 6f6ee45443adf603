#!/usr/bin/env python3
"""A model of models.py through ONNX, npuc and npusim, checked against PyTorch.

  onnx_check.py --model resnet8 --work build/onnx/resnet8_f32          (f32)
  onnx_check.py --model resnet8 --int8 --work build/onnx/resnet8_int8  (int8 QDQ)

The three steps of docs/frontend.md in one: export.py (the model, its input
and PyTorch's output), `./npu run <model>.onnx --input input.npy` (npuc
imports and compiles it and computes the golden on the host; npusim runs the
firmware and compares every output element with the golden: exit 0 and
"compared N of N elements, 0 mismatches" with N > 0), then compare.py (the
golden against PyTorch). Prints compare.py's "pytorch check: ..." line.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import export  # noqa: E402
import models  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, choices=sorted(models.MODELS))
    ap.add_argument("--int8", action="store_true", help="the QDQ int8 form (dscnn, resnet8)")
    ap.add_argument("--work", required=True, help="directory for the .onnx, the input and npuc's output")
    ap.add_argument("--int8-tolerance", type=int, default=1, help="largest int8 difference to PyTorch, in LSB")
    ap.add_argument("--opset", type=int, default=13, help="the ONNX opset to export (13-17)")
    ap.add_argument("--dynamic-batch", action="store_true",
                    help="export the batch dimension as symbolic; npu run gets --input-shape")
    ap.add_argument("--npu", default=os.path.join(ROOT, "npu"))
    args = ap.parse_args()

    model, x, name = export.load(args.model, args.int8, None)
    onnx_path = export.export(model, x, args.work, name, args.opset, args.dynamic_batch)
    out_dir = os.path.join(args.work, "out")
    shape = ["--input-shape", "input=" + "x".join(map(str, x.shape))] if args.dynamic_batch else []
    run = subprocess.run([sys.executable, args.npu, "run", onnx_path, "--input",
                          os.path.join(args.work, "input.npy"), "-o", out_dir] + shape,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(run.stdout)
    m = re.search(r"compared (\d+) of (\d+) elements, (\d+) mismatches", run.stdout)
    if run.returncode != 0 or not m or int(m.group(1)) == 0 or int(m.group(3)) != 0:
        print(f"pytorch check: FAIL: npu run exited {run.returncode}", file=sys.stderr)
        return 1
    n, bad, line = compare.compare(out_dir, compare.np.load(os.path.join(args.work, "expected.npy")),
                                   args.int8_tolerance)
    print(line)
    return 0 if n > 0 and bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
