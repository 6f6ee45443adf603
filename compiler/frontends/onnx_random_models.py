#!/usr/bin/env python3
"""npuc on random ONNX models: every one imports or is rejected with an error
(exit 0 or 1), none crashes or hangs.

Seeded, so the same models every run: up to five nodes of the importer's op
types (and one it rejects) wired to random earlier values (or chained), constants of
random shapes and element types, attributes with random (often invalid)
values, graph inputs of float or int8. Prints "onnx random models: all N
imported or rejected cleanly (I imported)".

  onnx_random_models.py --npuc build/compiler/tools/npuc/npuc --work build/onnx-random --count 400
"""
import argparse
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_writer import FLOAT, INT8, INT32, INT64, attr_int, attr_ints, model, node, tensor, value_info  # noqa: E402

OPS = ["Conv", "Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Relu", "Clip", "Sigmoid", "MaxPool", "AveragePool",
       "GlobalAveragePool", "Flatten", "Reshape", "Transpose", "Squeeze", "Unsqueeze", "Concat", "Pad", "Softmax",
       "BatchNormalization", "QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul", "Identity", "Cast",
       "ConstantOfShape", "Shape", "Slice", "Erf"]
ATTRS = ["axis", "group", "strides", "pads", "kernel_shape", "dilations", "perm", "transB", "alpha", "to", "auto_pad"]


def random_model(rng):
    def rint():
        return rng.choice([0, 1, 2, 3, -1, -2, 7, 2**31, -2**40, 5])

    inits, nodes, names = [], [], ["x"]
    for k in range(rng.randint(0, 4)):
        dims = [rng.choice([1, 2, 3, 4, 0]) for _ in range(rng.randint(0, 4))]
        n = 1
        for d in dims:
            n *= d
        inits.append(tensor(f"c{k}", dims, rng.choice([FLOAT, INT64, INT8, INT32]),
                            [rng.choice([0, 1, -1, 2, 3]) for _ in range(n)]))
        names.append(f"c{k}")
    # Half the models chain their nodes (each reads the previous value) with
    # no attributes, so more of them get past the first node.
    chained = rng.random() < 0.5
    for k in range(rng.randint(1, 5)):
        attrs = []
        if chained:
            ins = [names[-1]] + [rng.choice(names) for _ in range(rng.randint(0, 2))]
            nodes.append(node(rng.choice(OPS), ins, [f"v{k}"], f"n{k}"))
            names.append(f"v{k}")
            continue
        for _ in range(rng.randint(0, 3)):
            a = rng.choice(ATTRS)
            attrs.append(attr_ints(a, [rint() for _ in range(rng.randint(0, 4))]) if rng.random() < 0.5
                         else attr_int(a, rint()))
        nodes.append(node(rng.choice(OPS), [rng.choice(names) for _ in range(rng.randint(0, 5))], [f"v{k}"],
                          f"n{k}", attrs))
        names.append(f"v{k}")
    dims = [rng.choice([1, 2, 3, 4, 8]) for _ in range(rng.choice([2, 4]))]
    return model(nodes, inits, [value_info("x", rng.choice([FLOAT, INT8, FLOAT]), dims)],
                 [value_info(names[-1], FLOAT, [1])])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = random.Random(args.seed)
    bad = imported = 0
    for i in range(args.count):
        path = os.path.join(args.work, "model.onnx")
        with open(path, "wb") as f:
            f.write(random_model(rng))
        try:
            r = subprocess.run([args.npuc, path, "--emit=imported"], capture_output=True, text=True,
                               errors="replace", timeout=60)
            rc = r.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        if rc not in (0, 1):
            bad += 1
            kept = os.path.join(args.work, f"failure{i}.onnx")
            os.replace(path, kept)
            print(f"model {i}: exit {rc} (kept as {kept})")
        imported += rc == 0
    if bad:
        print(f"onnx random models: {bad} of {args.count} crashed or hung")
        return 1
    print(f"onnx random models: all {args.count} imported or rejected cleanly ({imported} imported)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
