#!/usr/bin/env python3
"""QLinearConv and QLinearMatMul (the ONNX QOperator int8 form) through npuc
and npusim, against a numpy integer reference.

The model (written with onnx_writer.py): x f32 [1, 3, 8, 8] -> QuantizeLinear
-> QLinearConv (3x3, 4 channels, per-channel weight scales, int32 bias) ->
Flatten -> QLinearMatMul [144 x 5] -> DequantizeLinear. `npu run` compiles it
and compares the device with the golden; the golden (int8 output) is compared
with numpy computing npurt_conv.h's requantisation rq(a, m, s) =
(a * m + ((1 << s) >> 1)) >> s, with (m, s) as gen_mlperf.py derives them from
the scales. A second model, the QDQ form of Linear(bias=False) as torch
exports it (x -> QuantizeLinear -> DequantizeLinear -> MatMul with the
weight's DequantizeLinear -> Transpose -> QuantizeLinear), is checked the
same way (npuc took the transposed weight for a float one). Prints "qlinear
check: compared N of N elements, 0 mismatches".
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "networks"))
from gen_mlperf import quant_multiplier, rq  # noqa: E402
from onnx_writer import FLOAT, INT8, INT32, attr_int, model, node, tensor, value_info  # noqa: E402


def run_and_compare(npu, path, xq, want, out):
    """`npu run` the model on xq; returns (compared, mismatches of the golden vs want, device verified)."""
    np.save(out + ".input.npy", xq)
    shutil.rmtree(out, ignore_errors=True)  # a previous run's golden is no result
    run = subprocess.run([sys.executable, npu, "run", path, "--input", out + ".input.npy", "-o", out],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(run.stdout)
    ok = run.returncode == 0 and re.search(r"compared [1-9]\d* of \d+ elements, 0 mismatches", run.stdout)
    if not os.path.exists(os.path.join(out, "manifest.json")):
        return want.size, want.size, False
    with open(os.path.join(out, "manifest.json")) as f:
        o = json.load(f)["outputs"][0]
    with open(os.path.join(out, "golden.bin"), "rb") as f:
        f.seek(o["golden_offset"])
        golden = np.frombuffer(f.read(o["bytes"]), dtype=np.int8).reshape(o["shape"]).astype(np.int64)
    bad = int(np.sum(golden != want)) if golden.shape == want.shape else want.size
    # A failed `npu run` counts every element as a mismatch (the ctest's
    # pass expression reads the count).
    return want.size, bad if ok else want.size, bool(ok)


def qdq_linear_no_bias(args, rng):
    """QDQ Linear(bias=False): the int8 weight's DequantizeLinear (per output channel, axis 0) goes through a
    Transpose before the MatMul; no bias Add follows."""
    sx, sy = 0.05, 0.1
    w = rng.integers(-127, 128, (16, 20))
    sw = rng.uniform(0.002, 0.004, 16)
    zero8 = lambda name, n=None: tensor(name, [] if n is None else [n], INT8, [0] * (1 if n is None else n))  # noqa
    inits = [tensor("sx", [], FLOAT, [sx]), zero8("zx"), tensor("W", [16, 20], INT8, w.reshape(-1).tolist()),
             tensor("sw", [16], FLOAT, sw.tolist()), zero8("zw", 16), tensor("sy", [], FLOAT, [sy]), zero8("zy")]
    nodes = [node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], "quant"),
             node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], "dequant_x"),
             node("DequantizeLinear", ["W", "sw", "zw"], ["wd"], "dequant_w", [attr_int("axis", 0)]),
             node("Transpose", ["wd"], ["wt"], "transpose"),
             node("MatMul", ["xd", "wt"], ["y"], "matmul"),
             node("QuantizeLinear", ["y", "sy", "zy"], ["yq"], "quant_y"),
             node("DequantizeLinear", ["yq", "sy", "zy"], ["out"], "dequant_y")]
    path = os.path.join(args.work, "qdq_nobias.onnx")
    with open(path, "wb") as f:
        f.write(model(nodes, inits, [value_info("x", FLOAT, [1, 20])], [value_info("out", FLOAT, [1, 16])]))
    xq = rng.integers(-128, 128, (1, 20)).astype(np.int8)
    acc = xq.astype(np.int64) @ w.T.astype(np.int64)
    m, s = quant_multiplier(sx * sw / sy)
    want = np.clip(rq(acc.astype(np.int32), m, s), -128, 127)
    return run_and_compare(args.npu, path, xq, want, os.path.join(args.work, "out_nobias"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npu", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(5)
    sx, sy, sz = 0.05, 0.08, 0.1
    w = rng.integers(-127, 128, (4, 3, 3, 3))
    sw = np.array([0.002, 0.003, 0.0025, 0.004])
    bias = rng.integers(-2000, 2000, 4)
    b = rng.integers(-127, 128, (144, 5))
    sb = 0.003
    zero8 = lambda name, n=None: tensor(name, [] if n is None else [n], INT8, [0] * (1 if n is None else n))  # noqa
    inits = [tensor("sx", [], FLOAT, [sx]), zero8("zx"), tensor("W", [4, 3, 3, 3], INT8, w.reshape(-1).tolist()),
             tensor("sw", [4], FLOAT, sw.tolist()), zero8("zw", 4), tensor("sy", [], FLOAT, [sy]), zero8("zy"),
             tensor("B", [4], INT32, bias.tolist()), tensor("Bm", [144, 5], INT8, b.reshape(-1).tolist()),
             tensor("sb", [], FLOAT, [sb]), zero8("zb"), tensor("sz", [], FLOAT, [sz]), zero8("zz")]
    nodes = [node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], "quant"),
             node("QLinearConv", ["xq", "sx", "zx", "W", "sw", "zw", "sy", "zy", "B"], ["yq"], "qconv",
                  [attr_int("group", 1)]),
             node("Flatten", ["yq"], ["fq"], "flatten", [attr_int("axis", 1)]),
             node("QLinearMatMul", ["fq", "sy", "zy", "Bm", "sb", "zb", "sz", "zz"], ["zq"], "qmatmul"),
             node("DequantizeLinear", ["zq", "sz", "zz"], ["out"], "dequant")]
    data = model(nodes, inits, [value_info("x", FLOAT, [1, 3, 8, 8])], [value_info("out", FLOAT, [1, 5])])
    path = os.path.join(args.work, "qlinear.onnx")
    with open(path, "wb") as f:
        f.write(data)
    xq = rng.integers(-128, 128, (1, 3, 8, 8)).astype(np.int8)

    # numpy: the int8 conv (valid, stride 1) and the matmul, requantised.
    acc = np.zeros((4, 6, 6), dtype=np.int64)
    for o in range(4):
        for i in range(6):
            for j in range(6):
                acc[o, i, j] = np.sum(xq[0, :, i:i + 3, j:j + 3].astype(np.int64) * w[o]) + bias[o]
    m, s = quant_multiplier(sx * sw / sy)
    y = np.clip(rq(acc.astype(np.int32), m[:, None, None], s[:, None, None]), -128, 127)
    acc2 = y.reshape(1, -1) @ b.astype(np.int64)
    m2, s2 = quant_multiplier(sy * sb / sz)
    want = np.clip(rq(acc2.astype(np.int32), m2, s2), -128, 127)

    n1, bad1, ok1 = run_and_compare(args.npu, path, xq, want, os.path.join(args.work, "out"))
    n2, bad2, ok2 = qdq_linear_no_bias(args, rng)
    n, bad, ok = n1 + n2, bad1 + bad2, ok1 and ok2
    print(f"qlinear check: compared {n} of {n} elements, {bad} mismatches"
          f"{'' if ok else ' (npu run FAILED)'}")
    return 0 if ok and bad == 0 and n else 1


if __name__ == "__main__":
    sys.exit(main())
