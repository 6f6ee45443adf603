#!/usr/bin/env python3
"""Exports a torch.nn.Module to ONNX with an input and PyTorch's output on it.

  export.py --model resnet8 --out build/onnx/resnet8            (models.py's)
  export.py --model resnet8 --int8 --out build/onnx/resnet8_int8  (its QDQ form)
  export.py --model mynet.py:MyNet --input-shape 1x3x32x32 --out build/onnx/mynet

writes <out>/<name>.onnx (torch.onnx.export, opset 13), <out>/input.npy (the
input `npu run --input` takes: f32, or for a QDQ model its int8 quantization)
and <out>/expected.npy (PyTorch's forward on it; for a QDQ model in units of
the output scale). A module of your own is given as file.py:Class, built with
no arguments, in eval mode; its input is seeded N(0, 1).
"""
import argparse
import importlib.util
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


def load(spec, int8, input_shape):
    """(model, input, name) for a models.py name or file.py:Class."""
    if ":" not in spec:
        model = models.quantized(spec) if int8 else models.build(spec)
        return model, models.example_input(model), spec + ("_int8" if int8 else "_f32")
    path, cls = spec.rsplit(":", 1)
    mod_spec = importlib.util.spec_from_file_location("user_model", path)
    module = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(module)
    torch.manual_seed(2024)
    model = getattr(module, cls)().eval()
    shape = tuple(int(d) for d in input_shape.split("x")) if input_shape else model.input_shape
    x = torch.randn(shape, generator=torch.Generator().manual_seed(7))
    return model, x, cls.lower()


def export(model, x, out, name, opset=13, dynamic_batch=False):
    """Writes the .onnx, input.npy and expected.npy; returns the .onnx path.
    dynamic_batch: the input's dimension 0 is symbolic ('batch')."""
    os.makedirs(out, exist_ok=True)
    with torch.no_grad():
        expected = model(x).numpy()
    path = os.path.join(out, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=opset, input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": {0: "batch"}} if dynamic_batch else None)
    if isinstance(model, models.QuantizedNet):
        # The QDQ model's interface is int8: its input quantized with the
        # input scale, its output in units of the output scale.
        data = torch.clamp(torch.round(x / model.in_scale), -128, 127).to(torch.int8).numpy()
        expected = np.round(expected / model.q["fc"].out_scale).astype(np.int64)
    else:
        data = x.numpy()
    np.save(os.path.join(out, "input.npy"), data)
    np.save(os.path.join(out, "expected.npy"), expected)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help=f"one of {', '.join(sorted(models.MODELS))}, or file.py:Class")
    ap.add_argument("--int8", action="store_true", help="the int8 QDQ form (dscnn, resnet8)")
    ap.add_argument("--input-shape", help="the input's shape for file.py:Class, e.g. 1x3x32x32")
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    model, x, name = load(args.model, args.int8, args.input_shape)
    print(f"export: {export(model, x, args.out, name)}, {args.out}/input.npy, {args.out}/expected.npy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
