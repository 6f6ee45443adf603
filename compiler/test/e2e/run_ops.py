#!/usr/bin/env python3
"""End-to-end check of one op lowering on a small network (compiler/test/e2e/ops).

Each case is a small network around the op (weights drawn from a seeded
numpy generator) and a numpy reference of it. The runner writes the
network, compiles it with npuc, runs `npusim --manifest --memcheck=error`
(which compares every output element and every layer checkpoint of the
device with npuc's golden.bin) and checks:

  * npusim exits 0 and reports "compared N of N elements, 0 mismatches"
    with N the output's element count (N > 0);
  * golden.bin's outputs equal the numpy reference computed here from
    input.bin (integers exactly, f32 within --rtol/--atol): the golden is
    not the only judge of the lowering.

    run_ops.py --npuc build/.../npuc --npusim build/.../npusim \\
        --config configs/gap9.cfg --case softmax_f32 --out DIR
    run_ops.py --list
"""
import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

RNG_SEED = 7


def dense(a):
    """An MLIR dense literal of a numpy array (hex: exact for f32)."""
    a = np.ascontiguousarray(a)
    return 'dense<"0x%s">' % a.tobytes().hex().upper()


def ttype(shape, et):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [et])


def rng():
    return np.random.default_rng(RNG_SEED)


NP = {"f32": np.float32, "i8": np.int8, "i32": np.int32}


def net(name, args, results, body):
    sig = ", ".join("%%arg%d: %s" % (i, ttype(s, e)) for i, (s, e) in enumerate(args))
    res = ", ".join(ttype(s, e) for s, e in results)
    return "func.func @%s(%s) -> (%s) {\n%s\n}\n" % (name, sig, res, body)


# --- cases: each returns (mlir text, [(shape, dtype) of inputs], reference) ----

def case_transpose_f32():
    body = """  %e = tensor.empty() : tensor<10x6xf32>
  %t = linalg.transpose ins(%arg0 : tensor<6x10xf32>) outs(%e : tensor<10x6xf32>) permutation = [1, 0]
  return %t : tensor<10x6xf32>"""
    return net("transpose_f32", [((6, 10), "f32")], [((10, 6), "f32")], body), lambda x: [x[0].T]


def case_transpose_i8():
    body = """  %e = tensor.empty() : tensor<8x4x6xi8>
  %t = linalg.transpose ins(%arg0 : tensor<4x6x8xi8>) outs(%e : tensor<8x4x6xi8>) permutation = [2, 0, 1]
  return %t : tensor<8x4x6xi8>"""
    return (net("transpose_i8", [((4, 6, 8), "i8")], [((8, 4, 6), "i8")], body),
            lambda x: [np.transpose(x[0], (2, 0, 1))])


def case_matmul_transpose_b_f32():
    # A * W^T with constant W (folded at compile time) and A * B^T with B an
    # input (transposed on the workers): the forward and backward of a layer.
    w = rng().standard_normal((16, 32)).astype(np.float32) / 4
    body = f"""  %c0 = arith.constant 0.0 : f32
  %w = arith.constant {dense(w)} : tensor<16x32xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul_transpose_b ins(%arg0, %w : tensor<4x32xf32>, tensor<16x32xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y2 = linalg.matmul_transpose_b ins(%arg0, %arg1 : tensor<4x32xf32>, tensor<16x32xf32>) outs(%z2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %y2 : tensor<4x16xf32>, tensor<4x16xf32>"""
    return (net("matmul_transpose_b_f32", [((4, 32), "f32"), ((16, 32), "f32")],
                [((4, 16), "f32"), ((4, 16), "f32")], body),
            lambda x: [x[0] @ w.T, x[0] @ x[1].T])


def case_matmul_transpose_b_i8():
    w = rng().integers(-128, 128, (16, 32)).astype(np.int8)
    body = f"""  %c0 = arith.constant 0 : i32
  %w = arith.constant {dense(w)} : tensor<16x32xi8>
  %e = tensor.empty() : tensor<4x16xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %y = linalg.matmul_transpose_b ins(%arg0, %w : tensor<4x32xi8>, tensor<16x32xi8>) outs(%z : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %y : tensor<4x16xi32>"""
    return (net("matmul_transpose_b_i8", [((4, 32), "i8")], [((4, 16), "i32")], body),
            lambda x: [x[0].astype(np.int32) @ w.T.astype(np.int32)])


def case_matmul_transpose_a_f32():
    # A^T * B with A given K x M (the weight gradient's form): both inputs.
    body = """  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul_transpose_a ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>"""
    return (net("matmul_transpose_a_f32", [((4, 8), "f32"), ((4, 16), "f32")], [((8, 16), "f32")], body),
            lambda x: [x[0].T @ x[1]])


def case_batch_matmul_f32():
    w = rng().standard_normal((3, 8, 6)).astype(np.float32)
    body = f"""  %c0 = arith.constant 0.0 : f32
  %w = arith.constant {dense(w)} : tensor<3x8x6xf32>
  %e = tensor.empty() : tensor<3x4x6xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<3x4x6xf32>) -> tensor<3x4x6xf32>
  %y = linalg.batch_matmul ins(%arg0, %w : tensor<3x4x8xf32>, tensor<3x8x6xf32>) outs(%z : tensor<3x4x6xf32>) -> tensor<3x4x6xf32>
  return %y : tensor<3x4x6xf32>"""
    return (net("batch_matmul_f32", [((3, 4, 8), "f32")], [((3, 4, 6), "f32")], body),
            lambda x: [np.matmul(x[0], w)])


def case_broadcast_elementwise_f32():
    # broadcast, then the named elementwise ops in a chain.
    c = rng().standard_normal((4, 8)).astype(np.float32)
    body = f"""  %c = arith.constant {dense(c)} : tensor<4x8xf32>
  %e0 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%arg0 : tensor<8xf32>) outs(%e0 : tensor<4x8xf32>) dimensions = [0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %s = linalg.add ins(%b, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %m = linalg.mul ins(%s, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.sub ins(%m, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.abs ins(%d : tensor<4x8xf32>) outs(%e4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e5 = tensor.empty() : tensor<4x8xf32>
  %x = linalg.exp ins(%s : tensor<4x8xf32>) outs(%e5 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e6 = tensor.empty() : tensor<4x8xf32>
  %q = linalg.div ins(%x, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e6 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e7 = tensor.empty() : tensor<4x8xf32>
  %hi = linalg.max ins(%q, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e7 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e8 = tensor.empty() : tensor<4x8xf32>
  %lo = linalg.min ins(%hi, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e9 = tensor.empty() : tensor<4x8xf32>
  %l = linalg.log ins(%x : tensor<4x8xf32>) outs(%e9 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e10 = tensor.empty() : tensor<4x8xf32>
  %n = linalg.negf ins(%l : tensor<4x8xf32>) outs(%e10 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %lo, %n : tensor<4x8xf32>, tensor<4x8xf32>"""

    def ref(x):
        b = np.broadcast_to(x[0], (4, 8)).astype(np.float32)
        s = b + c
        m = s * c
        d = m - b
        a = np.abs(d)
        e = np.exp(s)
        q = e / c
        return [np.minimum(np.maximum(q, a), e), -np.log(e)]
    return (net("broadcast_elementwise_f32", [((8,), "f32")], [((4, 8), "f32"), ((4, 8), "f32")], body), ref)


def case_elementwise_i32():
    body = """  %e1 = tensor.empty() : tensor<6x5xi32>
  %s = linalg.add ins(%arg0, %arg1 : tensor<6x5xi32>, tensor<6x5xi32>) outs(%e1 : tensor<6x5xi32>) -> tensor<6x5xi32>
  %e2 = tensor.empty() : tensor<6x5xi32>
  %m = linalg.mul ins(%s, %arg1 : tensor<6x5xi32>, tensor<6x5xi32>) outs(%e2 : tensor<6x5xi32>) -> tensor<6x5xi32>
  %e3 = tensor.empty() : tensor<6x5xi32>
  %hi = linalg.max ins(%m, %arg0 : tensor<6x5xi32>, tensor<6x5xi32>) outs(%e3 : tensor<6x5xi32>) -> tensor<6x5xi32>
  %e4 = tensor.empty() : tensor<6x5xi32>
  %lo = linalg.min ins(%hi, %s : tensor<6x5xi32>, tensor<6x5xi32>) outs(%e4 : tensor<6x5xi32>) -> tensor<6x5xi32>
  %e5 = tensor.empty() : tensor<6x5xi32>
  %d = linalg.sub ins(%lo, %arg1 : tensor<6x5xi32>, tensor<6x5xi32>) outs(%e5 : tensor<6x5xi32>) -> tensor<6x5xi32>
  return %d : tensor<6x5xi32>"""

    def ref(x):
        a, b = x[0].astype(np.int64), x[1].astype(np.int64)
        s = a + b
        m = s * b
        return [(np.minimum(np.maximum(m, a), s) - b).astype(np.int32)]
    return net("elementwise_i32", [((6, 5), "i32"), ((6, 5), "i32")], [((6, 5), "i32")], body), ref


ROW_MAPS = ("indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], "
            'iterator_types = ["parallel", "reduction"]')


def case_reductions_f32():
    # Row sum and row max as linalg.generic, a column sum as linalg.reduce,
    # and a reduction of everything to one value (one worker runs it).
    body = f"""  %c0 = arith.constant 0.0 : f32
  %cmin = arith.constant -3.40282347E+38 : f32
  %e0 = tensor.empty() : tensor<6xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {{{ROW_MAPS}}} ins(%arg0 : tensor<6x16xf32>) outs(%z0 : tensor<6xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<6xf32>
  %e1 = tensor.empty() : tensor<6xf32>
  %z1 = linalg.fill ins(%cmin : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %max = linalg.generic {{{ROW_MAPS}}} ins(%arg0 : tensor<6x16xf32>) outs(%z1 : tensor<6xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %a, %acc : f32
    linalg.yield %m : f32
  }} -> tensor<6xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  %col = linalg.reduce ins(%arg0 : tensor<6x16xf32>) outs(%z2 : tensor<16xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {{
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }}
  %e3 = tensor.empty() : tensor<1xf32>
  %z3 = linalg.fill ins(%c0 : f32) outs(%e3 : tensor<1xf32>) -> tensor<1xf32>
  %all = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}}
      ins(%arg0 : tensor<6x16xf32>) outs(%z3 : tensor<1xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<1xf32>
  return %sum, %max, %col, %all : tensor<6xf32>, tensor<6xf32>, tensor<16xf32>, tensor<1xf32>"""

    def seqsum(a, axis):
        # f32 sums in loop order, as the device and the golden add.
        a = np.moveaxis(a, axis, -1)
        acc = np.zeros(a.shape[:-1], np.float32)
        for i in range(a.shape[-1]):
            acc = (acc + a[..., i]).astype(np.float32)
        return acc

    def ref(x):
        a = x[0]
        return [seqsum(a, 1), a.max(axis=1), seqsum(a, 0), seqsum(a.reshape(1, -1), 1)]
    return (net("reductions_f32", [((6, 16), "f32")],
                [((6,), "f32"), ((6,), "f32"), ((16,), "f32"), ((1,), "f32")], body), ref)


def case_reduce_all_f32():
    # Everything to one value (a loss): no loop to split, one worker runs it.
    body = """  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%arg0 : tensor<6x16xf32>) outs(%z : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %acc: f32) {
      %t = arith.addf %a, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>"""

    def ref(x):
        acc = np.float32(0)
        for v in x[0].reshape(-1):
            acc = np.float32(acc + v)
        return [np.array(acc)]
    return net("reduce_all_f32", [((6, 16), "f32")], [((), "f32")], body), ref


def case_reductions_i32():
    body = f"""  %c0 = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<5xi32>
  %z0 = linalg.fill ins(%c0 : i32) outs(%e0 : tensor<5xi32>) -> tensor<5xi32>
  %sum = linalg.generic {{{ROW_MAPS}}} ins(%arg0 : tensor<5x12xi8>) outs(%z0 : tensor<5xi32>) {{
  ^bb0(%a: i8, %acc: i32):
    %w = arith.extsi %a : i8 to i32
    %s = arith.addi %w, %acc : i32
    linalg.yield %s : i32
  }} -> tensor<5xi32>
  %cmin = arith.constant -128 : i8
  %e1 = tensor.empty() : tensor<5xi8>
  %z1 = linalg.fill ins(%cmin : i8) outs(%e1 : tensor<5xi8>) -> tensor<5xi8>
  %max = linalg.generic {{{ROW_MAPS}}} ins(%arg0 : tensor<5x12xi8>) outs(%z1 : tensor<5xi8>) {{
  ^bb0(%a: i8, %acc: i8):
    %m = arith.maxsi %a, %acc : i8
    linalg.yield %m : i8
  }} -> tensor<5xi8>
  return %sum, %max : tensor<5xi32>, tensor<5xi8>"""
    return (net("reductions_i32", [((5, 12), "i8")], [((5,), "i32"), ((5,), "i8")], body),
            lambda x: [x[0].astype(np.int32).sum(axis=1), x[0].max(axis=1)])


def softmax_ref(a):
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def case_softmax_f32():
    w = rng().standard_normal((32, 10)).astype(np.float32) / 4
    body = f"""  %c0 = arith.constant 0.0 : f32
  %w = arith.constant {dense(w)} : tensor<32x10xf32>
  %e = tensor.empty() : tensor<4x10xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x10xf32>) -> tensor<4x10xf32>
  %logits = linalg.matmul ins(%arg0, %w : tensor<4x32xf32>, tensor<32x10xf32>) outs(%z : tensor<4x10xf32>) -> tensor<4x10xf32>
  %e2 = tensor.empty() : tensor<4x10xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<4x10xf32>) outs(%e2 : tensor<4x10xf32>) -> tensor<4x10xf32>
  return %p : tensor<4x10xf32>"""
    return (net("softmax_f32", [((4, 32), "f32")], [((4, 10), "f32")], body),
            lambda x: [softmax_ref(x[0].astype(np.float64) @ w.astype(np.float64))])


def case_softmax_generic_f32():
    # The exp / sum / divide form a front end writes by hand.
    body = f"""  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x10xf32>
  %ex = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%arg0 : tensor<3x10xf32>) outs(%e0 : tensor<3x10xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %x = math.exp %a : f32
    linalg.yield %x : f32
  }} -> tensor<3x10xf32>
  %e1 = tensor.empty() : tensor<3xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %sum = linalg.generic {{{ROW_MAPS}}} ins(%ex : tensor<3x10xf32>) outs(%z1 : tensor<3xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<3x10xf32>
  %p = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%ex, %sum : tensor<3x10xf32>, tensor<3xf32>) outs(%e2 : tensor<3x10xf32>) {{
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }} -> tensor<3x10xf32>
  return %p : tensor<3x10xf32>"""
    return (net("softmax_generic_f32", [((3, 10), "f32")], [((3, 10), "f32")], body),
            lambda x: [np.exp(x[0]) / np.exp(x[0]).sum(axis=1, keepdims=True)])


def maxpool_ref(x, k, s):
    n, h, w, c = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.empty((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            out[:, i, j, :] = x[:, i * s:i * s + k, j * s:j * s + k, :].max(axis=(1, 2))
    return out


def case_maxpool(et, lowest):
    name = "maxpool_%s" % et
    body = f"""  %cmin = arith.constant {lowest} : {et}
  %win = tensor.empty() : tensor<3x3x{et}>
  %e = tensor.empty() : tensor<1x4x4x8x{et}>
  %z = linalg.fill ins(%cmin : {et}) outs(%e : tensor<1x4x4x8x{et}>) -> tensor<1x4x4x8x{et}>
  %p = linalg.pooling_nhwc_max {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}}
      ins(%arg0, %win : tensor<1x9x9x8x{et}>, tensor<3x3x{et}>) outs(%z : tensor<1x4x4x8x{et}>) -> tensor<1x4x4x8x{et}>
  return %p : tensor<1x4x4x8x{et}>"""
    return (net(name, [((1, 9, 9, 8), et)], [((1, 4, 4, 8), et)], body),
            lambda x: [maxpool_ref(x[0], 3, 2)])


def case_maxpool_padded_f32():
    # ONNX MaxPool(kernel 3, stride 2, pads 1): a -inf tensor.pad no
    # convolution folds, then the pooling.
    body = """  %cmin = arith.constant -3.40282347E+38 : f32
  %p = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %cmin : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %z = linalg.fill ins(%cmin : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %m = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %win : tensor<1x10x10x4xf32>, tensor<3x3xf32>) outs(%z : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %m : tensor<1x4x4x4xf32>"""

    def ref(x):
        xp = np.pad(x[0], ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=np.float32(-3.40282347e38))
        return [maxpool_ref(xp, 3, 2)]
    return net("maxpool_padded_f32", [((1, 8, 8, 4), "f32")], [((1, 4, 4, 4), "f32")], body), ref


def case_conv_nchw_f32():
    # NCHW conv with zero padding, constant FCHW weights, bias + ReLU.
    r = rng()
    w = (r.standard_normal((8, 3, 3, 3)) / 4).astype(np.float32)
    bias = r.standard_normal(8).astype(np.float32) / 4
    body = f"""  %c0 = arith.constant 0.0 : f32
  %pad = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c0 : f32
  }} : tensor<1x3x10x10xf32> to tensor<1x3x12x12xf32>
  %w = arith.constant {dense(w)} : tensor<8x3x3x3xf32>
  %b = arith.constant {dense(bias)} : tensor<8xf32>
  %e = tensor.empty() : tensor<1x8x10x10xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  %conv = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}
      ins(%pad, %w : tensor<1x3x12x12xf32>, tensor<8x3x3x3xf32>) outs(%z : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  %o = tensor.empty() : tensor<1x8x10x10xf32>
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%conv, %b : tensor<1x8x10x10xf32>, tensor<8xf32>) outs(%o : tensor<1x8x10x10xf32>) {{
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %x = arith.addf %a, %bb : f32
    %r = arith.maximumf %x, %c0 : f32
    linalg.yield %r : f32
  }} -> tensor<1x8x10x10xf32>
  return %y : tensor<1x8x10x10xf32>"""

    def ref(x):
        xp = np.pad(x[0].astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        out = np.zeros((1, 8, 10, 10))
        for kh in range(3):
            for kw in range(3):
                out += np.einsum("nchw,fc->nfhw", xp[:, :, kh:kh + 10, kw:kw + 10], w[:, :, kh, kw].astype(np.float64))
        return [np.maximum(out + bias[None, :, None, None], 0)]
    return net("conv_nchw_f32", [((1, 3, 10, 10), "f32")], [((1, 8, 10, 10), "f32")], body), ref


def case_conv_nchw_bias_init_f32():
    # The form a front end emits for an ONNX Conv with bias: the bias
    # broadcast into the accumulator, no epilogue, stride 2, no padding.
    r = rng()
    w = (r.standard_normal((6, 4, 3, 3)) / 4).astype(np.float32)
    bias = r.standard_normal(6).astype(np.float32)
    body = f"""  %w = arith.constant {dense(w)} : tensor<6x4x3x3xf32>
  %b = arith.constant {dense(bias)} : tensor<6xf32>
  %e = tensor.empty() : tensor<1x6x4x4xf32>
  %init = linalg.broadcast ins(%b : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}}
      ins(%arg0, %w : tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) outs(%init : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  return %conv : tensor<1x6x4x4xf32>"""

    def ref(x):
        xd = x[0].astype(np.float64)
        out = np.zeros((1, 6, 4, 4))
        for kh in range(3):
            for kw in range(3):
                out += np.einsum("nchw,fc->nfhw", xd[:, :, kh:kh + 7:2, kw:kw + 7:2], w[:, :, kh, kw].astype(np.float64))
        return [out + bias[None, :, None, None]]
    return net("conv_nchw_bias_init_f32", [((1, 4, 9, 9), "f32")], [((1, 6, 4, 4), "f32")], body), ref


def case_mask_i1():
    # A ReLU mask kept as i1 (the backward pass's form), applied with extui
    # and select.
    body = """  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%arg0 : tensor<4x8xf32>) outs(%e0 : tensor<4x8xi1>) {
  ^bb0(%a: f32, %o: i1):
    %p = arith.cmpf ogt, %a, %c0 : f32
    linalg.yield %p : i1
  } -> tensor<4x8xi1>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mask, %arg1 : tensor<4x8xi1>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%m: i1, %d: f32, %o: f32):
    %s = arith.select %m, %d, %c0 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xi32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mask : tensor<4x8xi1>) outs(%e2 : tensor<4x8xi32>) {
  ^bb0(%m: i1, %o: i32):
    %w = arith.extui %m : i1 to i32
    linalg.yield %w : i32
  } -> tensor<4x8xi32>
  return %g, %n : tensor<4x8xf32>, tensor<4x8xi32>"""
    return (net("mask_i1", [((4, 8), "f32"), ((4, 8), "f32")], [((4, 8), "f32"), ((4, 8), "i32")], body),
            lambda x: [np.where(x[0] > 0, x[1], 0).astype(np.float32), (x[0] > 0).astype(np.int32)])


def case_dense_resource_i8():
    # Weights as a dense_resource blob (how MLIR exporters write big
    # constants) next to a dense one.
    r = rng()
    w = r.integers(-128, 128, (32, 16)).astype(np.int8)
    b = r.integers(-1000, 1000, 16).astype(np.int32)
    body = """  %c0 = arith.constant 0 : i32
  %w = arith.constant dense_resource<weights> : tensor<32x16xi8>
  %b = arith.constant dense_resource<bias> : tensor<16xi32>
  %e = tensor.empty() : tensor<4x16xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %y = linalg.matmul ins(%arg0, %w : tensor<4x32xi8>, tensor<32x16xi8>) outs(%z : tensor<4x16xi32>) -> tensor<4x16xi32>
  %e2 = tensor.empty() : tensor<4x16xi32>
  %o = linalg.add ins(%y, %b2 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e2 : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %o : tensor<4x16xi32>"""
    body = body.replace("  %e2 = tensor.empty()", """  %eb = tensor.empty() : tensor<4x16xi32>
  %b2 = linalg.broadcast ins(%b : tensor<16xi32>) outs(%eb : tensor<4x16xi32>) dimensions = [0]
  %e2 = tensor.empty()""")
    text = net("dense_resource_i8", [((4, 32), "i8")], [((4, 16), "i32")], body)
    # A blob is its alignment (4 bytes, little endian) then the data.
    text += ('\n{-#\n  dialect_resources: {\n    builtin: {\n'
             '      weights: "0x01000000%s",\n      bias: "0x04000000%s"\n    }\n  }\n#-}\n'
             % (w.tobytes().hex().upper(), b.tobytes().hex().upper()))
    return text, lambda x: [x[0].astype(np.int32) @ w.astype(np.int32) + b]


def case_concat_i8():
    # tensor.concat of three parts along a middle axis (one of them twice),
    # read by an elementwise op, a tensor.insert_slice into a zero fill (the
    # parts not covered keep the fill) and one into a constant (copied into
    # a buffer of its own first): each part a copy into its slice.
    body = """  %c0 = arith.constant 0 : i8
  %c = tensor.concat dim(1) %arg0, %arg1, %arg0 : (tensor<4x3x8xi8>, tensor<4x5x8xi8>, tensor<4x3x8xi8>) -> tensor<4x11x8xi8>
  %e = tensor.empty() : tensor<4x11x8xi8>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<4x11x8xi8>) outs(%e : tensor<4x11x8xi8>) {
  ^bb0(%a: i8, %o: i8):
    %v = arith.subi %c0, %a : i8
    linalg.yield %v : i8
  } -> tensor<4x11x8xi8>
  %e2 = tensor.empty() : tensor<6x11x8xi8>
  %z = linalg.fill ins(%c0 : i8) outs(%e2 : tensor<6x11x8xi8>) -> tensor<6x11x8xi8>
  %s = tensor.insert_slice %n into %z[1, 0, 0] [4, 11, 8] [1, 1, 1] : tensor<4x11x8xi8> into tensor<6x11x8xi8>
  %k = arith.constant dense<7> : tensor<4x5x8xi8>
  %t = tensor.insert_slice %arg0 into %k[0, 1, 0] [4, 3, 8] [1, 1, 1] : tensor<4x3x8xi8> into tensor<4x5x8xi8>
  return %s, %t : tensor<6x11x8xi8>, tensor<4x5x8xi8>"""

    def reference(x):
        c = np.concatenate([x[0], x[1], x[0]], axis=1)
        k = np.full((4, 5, 8), 7, np.int8)
        k[:, 1:4, :] = x[0]
        return [np.pad((-c.astype(np.int32)).astype(np.int8), ((1, 1), (0, 0), (0, 0))), k]

    return (net("concat_i8", [((4, 3, 8), "i8"), ((4, 5, 8), "i8")], [((6, 11, 8), "i8"), ((4, 5, 8), "i8")], body),
            reference)


CASES = {
    "transpose_f32": case_transpose_f32,
    "transpose_i8": case_transpose_i8,
    "matmul_transpose_b_f32": case_matmul_transpose_b_f32,
    "matmul_transpose_b_i8": case_matmul_transpose_b_i8,
    "matmul_transpose_a_f32": case_matmul_transpose_a_f32,
    "batch_matmul_f32": case_batch_matmul_f32,
    "broadcast_elementwise_f32": case_broadcast_elementwise_f32,
    "elementwise_i32": case_elementwise_i32,
    "reductions_f32": case_reductions_f32,
    "reductions_i32": case_reductions_i32,
    "reduce_all_f32": case_reduce_all_f32,
    "softmax_f32": case_softmax_f32,
    "softmax_generic_f32": case_softmax_generic_f32,
    "maxpool_f32": lambda: case_maxpool("f32", "-3.40282347E+38"),
    "maxpool_i8": lambda: case_maxpool("i8", "-128"),
    "maxpool_padded_f32": case_maxpool_padded_f32,
    "conv_nchw_f32": case_conv_nchw_f32,
    "conv_nchw_bias_init_f32": case_conv_nchw_bias_init_f32,
    "mask_i1": case_mask_i1,
    "dense_resource_i8": case_dense_resource_i8,
    "concat_i8": case_concat_i8,
}


def read_tensors(path, entries, offset_key):
    raw = open(path, "rb").read()
    out = []
    for t in entries:
        dt = NP[t["element_type"]]
        n = int(np.prod(t["shape"])) if t["shape"] else 1
        out.append(np.frombuffer(raw, dt, n, t[offset_key]).reshape(t["shape"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npuc")
    ap.add_argument("--npusim")
    ap.add_argument("--config")
    ap.add_argument("--case")
    ap.add_argument("--out")
    ap.add_argument("--rtol", type=float, default=1e-5)
    ap.add_argument("--atol", type=float, default=1e-5)
    ap.add_argument("--npuc-arg", action="append", default=[])
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if args.case not in CASES:
        print(f"run_ops: unknown case {args.case!r} (--list)")
        return 2
    text, reference = CASES[args.case]()
    os.makedirs(args.out, exist_ok=True)
    src = os.path.join(args.out, args.case + ".mlir")
    open(src, "w").write(text)
    cmd = [args.npuc, src, "--config", args.config, "-o", args.out] + args.npuc_arg
    print("run_ops:", " ".join(cmd))
    c = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print(c.stdout)
    if c.returncode != 0:
        print(f"run_ops: FAIL: npuc exited with {c.returncode}")
        return 1
    manifest = json.load(open(os.path.join(args.out, "manifest.json")))
    run = subprocess.run([args.npusim, "--manifest", os.path.join(args.out, "manifest.json"), "--memcheck=error"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print(run.stdout)
    ok = True
    if run.returncode != 0:
        print(f"run_ops: FAIL: npusim exited with {run.returncode}")
        ok = False
    count = sum(int(np.prod(o["shape"])) if o["shape"] else 1 for o in manifest["outputs"])
    want = f"compared {count} of {count} elements, 0 mismatches"
    if count == 0 or not re.search(r"^" + re.escape(want), run.stdout, re.M):
        print(f"run_ops: FAIL: npusim did not report '{want}'")
        ok = False
    # The golden against numpy, from the input.bin npuc wrote.
    inputs = read_tensors(os.path.join(args.out, manifest["input_file"]), manifest["inputs"], "file_offset")
    golden = read_tensors(os.path.join(args.out, manifest["golden_file"]), manifest["outputs"], "golden_offset")
    refs = reference(inputs)
    for i, (g, r) in enumerate(zip(golden, refs)):
        r = np.asarray(r).reshape(g.shape)
        if np.issubdtype(g.dtype, np.integer):
            bad = int(np.count_nonzero(g.astype(np.int64) != r.astype(np.int64)))
            err = int(np.max(np.abs(g.astype(np.int64) - r.astype(np.int64)))) if g.size else 0
        else:
            close = np.isclose(g.astype(np.float64), r.astype(np.float64), rtol=args.rtol, atol=args.atol)
            bad = int(np.count_nonzero(~close))
            err = float(np.max(np.abs(g.astype(np.float64) - r))) if g.size else 0.0
        print(f"run_ops: output {i}: golden vs numpy: compared {g.size} elements, {bad} mismatches, max abs err {err}")
        if bad or g.size == 0:
            ok = False
        if g.size > 1 and len(np.unique(r)) < 2:
            print(f"run_ops: FAIL: output {i}'s reference is constant; the input does not exercise the op")
            ok = False
    if len(golden) != len(refs):
        print("run_ops: FAIL: the network's outputs and the reference's differ in number")
        ok = False
    print("run_ops: PASS" if ok else "run_ops: FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
