#!/usr/bin/env python3
"""Writes fuzz_onnx's seed corpus: tiny ONNX models made with the test suite's
protobuf writer (compiler/frontends/onnx_writer.py) rather than committed
binaries. The control models of onnx_bad_input.py (an MLP, a convolution, an
int8-quantised MLP, a dynamic batch, a shape folded from Slices) and the first seeded random models of
onnx_random_models.py (most of them rejected somewhere in the importer).

  fuzz/gen_onnx_seeds.py OUT_DIR [--random N]
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compiler", "frontends"))
from onnx_bad_input import conv, mlp, sliced_shape  # noqa: E402
from onnx_random_models import random_model  # noqa: E402
from onnx_writer import attr_int, attr_ints  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--random", type=int, default=24)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    seeds = {
        "mlp_relu": mlp(),
        "mlp_sigmoid": mlp(op="Sigmoid"),
        "mlp_opset17": mlp(opset=17),
        "mlp_quant": mlp(quant=True),
        "mlp_dynamic_batch": mlp(x_dims=("batch", 4)),
        "conv": conv([]),
        "conv_pads_strides": conv([attr_ints("pads", [1, 1, 1, 1]), attr_ints("strides", [2, 2])]),
        "conv_group": conv([attr_int("group", 2)], group_weights=2),
        # Reaches the constant folder (Slice, Concat, Reshape of constants).
        "folded_shape": sliced_shape(),
    }
    rng = random.Random(12)  # onnx_random_models.py's default seed: the same models it tests
    for i in range(args.random):
        seeds[f"random{i}"] = random_model(rng)
    for name, data in seeds.items():
        with open(os.path.join(args.out, name + ".onnx"), "wb") as f:
            f.write(data)
    print(f"gen_onnx_seeds: {len(seeds)} models in {args.out}")


if __name__ == "__main__":
    main()
