#!/usr/bin/env python3
"""npuc on bad ONNX input: every case a clear error with npuc's exit code 1
(`npu run`: 2), never a crash; and the control models that must import.

The models are written here with a minimal protobuf encoder (no onnx Python
package needed): a small valid model and variations of it. One case exports a
torch.nn.Module with an op npuc does not import (GELU -> Erf) and runs it with
`npu run`. Prints "onnx bad input: all N cases as expected".

  onnx_bad_input.py --npuc build/compiler/tools/npuc/npuc --npu ./npu --work build/onnx-bad
"""
import argparse
import os
import re
import resource
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_writer import FLOAT, INT64, attr_int, attr_ints, model, node, tensor, value_info  # noqa: E402


def mlp(op="Relu", op_domain=None, opset=13, w=None, x_dims=(1, 4), extra_attrs=(), b_init=None, y_name="y",
        quant=False):
    """x [1, 4] -> MatMul(W [4, 2]) -> Add(b) -> <op> -> y: the control model and its variations."""
    w = w or tensor("W", [4, 2], FLOAT, [0.5, -1, 2, 0.25, 1, 1, -0.5, 3])
    b = b_init or tensor("b", [2], FLOAT, [0.1, -0.2])
    nodes = [node("MatMul", ["x", "W"], ["mm"], "fc1"), node("Add", ["mm", "b"], ["sum"], "bias1"),
             node(op, ["sum"], ["y"], "act1", extra_attrs, op_domain)]
    if quant:
        nodes.insert(0, node("QuantizeLinear", ["x0", "s"], ["x"], "quant_in"))
        return model(nodes, [w, b, tensor("s", [], FLOAT, [0.1])], [value_info("x0", FLOAT, x_dims)],
                     [value_info(y_name, FLOAT, [1, 2])], opset)
    return model(nodes, [w, b], [value_info("x", FLOAT, x_dims)], [value_info(y_name, FLOAT, [1, 2])], opset)


def conv(attrs, group_weights=4):
    w = tensor("W", [4, group_weights, 3, 3], FLOAT, [0.1] * (4 * group_weights * 9))
    return model([node("Conv", ["x", "W"], ["y"], "conv_a", attrs)], [w], [value_info("x", FLOAT, [1, 4, 8, 8])],
                 [value_info("y", FLOAT, [1, 4, 6, 6])])


def sliced_shape():
    """x reshaped by a shape folded from Slices at the int64 extremes, as exporters write them: x[0:] of [1, 9]
    with a step of INT64_MAX (the first element only) and x[-1::INT64_MIN] of [9, 4] (the last one only), then
    concatenated: [1, 4]. Both steps and INT64_MAX's "to the end" overflowed int64 in npuc's folding (found by
    fuzz_onnx: UBSan's float-cast-overflow)."""
    big, small = 2**63 - 1, -2**63
    inits = [tensor("W", [4, 2], FLOAT, [0.5] * 8), tensor("s0", [2], INT64, [1, 9]), tensor("s1", [2], INT64, [9, 4]),
             tensor("z", [1], INT64, [0]), tensor("e0", [1], INT64, [big]), tensor("big", [1], INT64, [big]),
             tensor("m1", [1], INT64, [-1]), tensor("small", [1], INT64, [small])]
    nodes = [node("Slice", ["s0", "z", "e0", "z", "big"], ["a"], "head"),
             node("Slice", ["s1", "m1", "small", "z", "small"], ["b"], "tail"),
             node("Concat", ["a", "b"], ["shape"], "cat", [attr_int("axis", 0)]),
             node("Reshape", ["x", "shape"], ["xr"], "reshape"), node("MatMul", ["xr", "W"], ["y"], "fc1")]
    return model(nodes, inits, [value_info("x", FLOAT, (4,))], [value_info("y", FLOAT, [1, 2])])


def two_layers(first, second, domain=None, conv_input=False):
    """x -> <first> -> h -> <second, of `domain`> -> y: a node that npuc fuses or folds into the one before it."""
    if conv_input:
        inits = [tensor("W", [2, 2, 1, 1], FLOAT, [1, 0, 0, 1]), tensor("s", [2], FLOAT, [2, 2]),
                 tensor("bb", [2], FLOAT, [1, 1]), tensor("m", [2], FLOAT, [0, 0]), tensor("v", [2], FLOAT, [1, 1])]
        dims = [1, 2, 3, 3]
        extra = ["s", "bb", "m", "v"] if second == "BatchNormalization" else []
        return model([node(first, ["x", "W"], ["h"], "layer"), node(second, ["h"] + extra, ["y"], "next", (), domain)],
                     inits, [value_info("x", FLOAT, dims)], [value_info("y", FLOAT, dims)])
    inits = [tensor("W", [4, 2], FLOAT, [0.5] * 8), tensor("b", [2], FLOAT, [0.1, -0.2])]
    extra = ["b"] if second == "Add" else []
    return model([node(first, ["x", "W"], ["h"], "layer"), node(second, ["h"] + extra, ["y"], "next", (), domain)],
                 inits, [value_info("x", FLOAT, (1, 4))], [value_info("y", FLOAT, [1, 2])])


def external(location, offset=None, length=None, side=None, side_bytes=64):
    """The control model with its weight W (8 floats) in the external file `location`; `side`: a file written next to
    the model (the weights at offset 0, then zeros)."""
    ext = {"location": location}
    if offset is not None:
        ext["offset"] = offset
    if length is not None:
        ext["length"] = length
    data = mlp(w=tensor("W", [4, 2], FLOAT, external=ext))
    if side is None:
        return data
    w = tensor("W", [4, 2], FLOAT, [0.5, -1, 2, 0.25, 1, 1, -0.5, 3])
    raw = w[w.index(b"\x00\x00\x00\x3f"):][:32]  # the 8 floats' bytes, 0.5 first
    return data, (side, (raw + b"\0" * side_bytes)[:side_bytes])


def symlink_to(target, name):
    """A callable writing the control model with W in `name`, a symbolic link to `target`, next to it."""
    def write(work):
        link = os.path.join(work, name)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(target, link)
        return external(name, "0", "32")
    return write


def shared_weight():
    """x -> MatMul(W) -> Relu -> MatMul(W) -> y: one initializer read by two nodes (an nn.Linear applied twice)."""
    return model([node("MatMul", ["x", "W"], ["h"], "fc1"), node("Relu", ["h"], ["r"], "act"),
                  node("MatMul", ["r", "W"], ["y"], "fc2")],
                 [tensor("W", [4, 4], FLOAT, [0.25, -0.5, 0.5, 0.125] * 4)], [value_info("x", FLOAT, (1, 4))],
                 [value_info("y", FLOAT, [1, 4])])


def conv_no_bias():
    """Conv2d(1, 2, 3, padding=1, bias=False) -> Relu -> Flatten -> Linear(32, 3)."""
    return model([node("Conv", ["x", "W"], ["c"], "conv", [attr_ints("pads", [1, 1, 1, 1])]),
                  node("Relu", ["c"], ["r"], "act"), node("Flatten", ["r"], ["f"], "flatten", [attr_int("axis", 1)]),
                  node("MatMul", ["f", "W2"], ["m"], "fc"), node("Add", ["m", "b2"], ["y"], "fc_bias")],
                 [tensor("W", [2, 1, 3, 3], FLOAT, [0.1, -0.2, 0.3] * 6),
                  tensor("W2", [32, 3], FLOAT, [0.05, -0.1, 0.02] * 32), tensor("b2", [3], FLOAT, [0.1, 0.2, 0.3])],
                 [value_info("x", FLOAT, (1, 1, 4, 4))], [value_info("y", FLOAT, [1, 3])])


def cases(work):
    ok = mlp()
    # A file outside the model's directory, for the locations ONNX forbids.
    outside = os.path.join(os.path.dirname(os.path.abspath(work)), "outside.bin")
    os.makedirs(os.path.dirname(outside), exist_ok=True)
    with open(outside, "wb") as f:
        f.write(b"\0" * 32)
    here = os.path.basename(os.path.abspath(work))
    return [
        # name, file bytes (or a callable writing files), extra npuc args, expected rc, expected message regex
        # [, npuc's address-space limit in bytes]
        ("control: a valid model imports", ok, [], 0, r"linalg\.matmul"),
        ("control: dynamic batch with --input-shape", mlp(x_dims=("batch", 4)), ["--input-shape=x=1x4"], 0,
         r"tensor<1x4xf32>"),
        ("unsupported op", mlp(op="Erf"), [], 1,
         r"ONNX node 'act1': Erf \(opset 13\): not an op npuc imports \(supported: Conv, "),
        ("unsupported op domain", mlp(op="FusedGelu", op_domain="com.microsoft"), [], 1,
         r"ONNX node 'act1': FusedGelu \(opset 13\): op domain 'com.microsoft' is not supported"),
        ("unsupported attribute", conv([attr_int("frobnicate", 1)]), [], 1,
         r"ONNX node 'conv_a': Conv \(opset 13\): attribute 'frobnicate' is not supported"),
        ("unsupported attribute value", conv([attr_int("group", 2)], group_weights=2), [], 1,
         r"ONNX node 'conv_a': Conv \(opset 13\): group=2 is not supported"),
        ("unsupported opset (too old)", mlp(opset=9), [], 1,
         r"opset 9 of the default ONNX domain is not supported \(opsets 13-17"),
        ("unsupported opset (too new)", mlp(opset=21), [], 1, r"opset 21 of the default ONNX domain is not supported"),
        # Found by fuzz_onnx: fusing the bias Add into the MatMul read the
        # Add's missing output (protobuf threw, npuc aborted).
        ("a fusable consumer without an output",
         model([node("MatMul", ["x", "W"], ["mm"], "fc1"), node("Add", ["mm", "b"], [], "bias1")],
               [tensor("W", [4, 2], FLOAT, [0.5] * 8), tensor("b", [2], FLOAT, [0.1, -0.2])],
               [value_info("x", FLOAT, (1, 4))], [value_info("y", FLOAT, [1, 2])]), [], 1,
         r"ONNX node 'bias1': Add \(opset 13\): has no output"),
        ("control: Slices at the int64 extremes fold", sliced_shape(), [], 0, r"tensor<1x4xf32>"),
        ("a shape entry of INT64_MAX",
         model([node("Reshape", ["x", "shape"], ["y"], "reshape")], [tensor("shape", [2], INT64, [2**63 - 1, 2])],
               [value_info("x", FLOAT, (4,))], [value_info("y", FLOAT, [2, 2])]), [], 1,
         r"ONNX node 'reshape': Reshape \(opset 13\): the shape holds more than 2\^28 elements"),
        ("pads of INT64_MAX",
         model([node("Pad", ["x", "pads"], ["y"], "pad")], [tensor("pads", [2], INT64, [0, 2**63 - 1])],
               [value_info("x", FLOAT, (4,))], [value_info("y", FLOAT, [4])]), [], 1,
         r"ONNX node 'pad': Pad \(opset 13\): pads larger than 2\^28 are not supported"),
        ("a dilation of 2^62 (overflowed the window arithmetic)", conv([attr_ints("dilations", [2**62, 1])]), [], 1,
         r"ONNX node 'conv_a': Conv \(opset 13\): strides, dilations and pads larger than 2\^28 are not supported"),
        ("pooling pads of 2^62",
         model([node("MaxPool", ["x"], ["y"], "pool", [attr_ints("kernel_shape", [2, 2]),
                                                       attr_ints("pads", [0, 0, 2**62, 0])])], [],
               [value_info("x", FLOAT, [1, 4, 8, 8])], [value_info("y", FLOAT, [1, 4, 4, 4])]), [], 1,
         r"ONNX node 'pool': MaxPool \(opset 13\): kernel_shape, strides and pads larger than 2\^28 are not supported"),
        ("truncated file", ok[: len(ok) // 2], [], 1, r"not an ONNX model"),
        ("not an ONNX file (MLIR text)", b"func.func @f() {\n  return\n}\n", [], 1, r"not an ONNX model"),
        ("empty file", b"", [], 1, r"not an ONNX model"),
        ("random bytes", bytes((i * 73 + 41) % 256 for i in range(4096)), [], 1, r"not an ONNX model"),
        ("missing external data",
         mlp(w=tensor("W", [4, 2], FLOAT, external={"location": "weights.bin", "offset": "0", "length": "32"})), [],
         1, r"initializer 'W': its data is in the external file 'weights.bin', which cannot be read"),
        ("external data too short",
         (mlp(w=tensor("W", [4, 2], FLOAT, external={"location": "short.bin"})), ("short.bin", b"\0" * 8)), [],
         1, r"initializer 'W': external data \[0, 32\) lies outside 'short.bin' \(8 bytes\)"),
        # External data: only [offset, offset + length) is read (the whole
        # file was: '/dev/zero' exhausted memory), of a regular file inside
        # the model's directory (ONNX's rule: '..' and absolute locations
        # read any file), offset and length digits only ('abc' was 0).
        ("control: external data, a slice of a larger file", external("w64.bin", side="w64.bin"), [], 0,
         r"dense<\[\[5\.000000e-01, -1\.000000e\+00\]"),
        ("control: external data at an offset", external("w96.bin", offset="32", side="w96.bin", side_bytes=96), [],
         0, r"dense<0\.000000e\+00> : tensor<4x2xf32>"),
        ("external data through '..'", external(f"../{here}/w64.bin", "0", "32"), [], 1,
         r"initializer 'W': its data is in the external file '\.\./[^']*/w64\.bin', which is not allowed: a '\.\.' "
         r"component leaves the model's directory"),
        ("external data at an absolute path", external(outside, "0", "32"), [], 1,
         r"initializer 'W': its data is in the external file '/[^']*outside\.bin', which is not allowed: ONNX external "
         r"data must be a relative path inside the model's directory"),
        ("external data in /dev/zero", external("/dev/zero"), [], 1,
         r"initializer 'W': its data is in the external file '/dev/zero', which is not allowed", 1 << 30),
        ("external data: a link to /dev/zero", symlink_to("/dev/zero", "zero.bin"), [], 1,
         r"initializer 'W': its data is in the external file 'zero.bin', which is not a regular file", 1 << 30),
        ("external data: a link out of the directory", symlink_to(outside, "out.bin"), [], 1,
         r"initializer 'W': its data is in the external file 'out.bin', which is not allowed: it leads outside the "
         r"model's directory"),
        ("external data: a directory", external(".", "0", "32"), [], 1,
         r"initializer 'W': its data is in the external file '\.', which is not a regular file"),
        ("external data: offset not a number", external("w64.bin", offset="abc", length="32"), [], 1,
         r"initializer 'W': external data in 'w64.bin': 'offset' is 'abc', not a byte count"),
        ("external data: negative offset", external("w64.bin", offset="-4", length="32"), [], 1,
         r"initializer 'W': external data in 'w64.bin': 'offset' is '-4', not a byte count"),
        ("external data: offset past the end", external("w64.bin", offset="48"), [], 1,
         r"initializer 'W': external data \[48, 80\) lies outside 'w64.bin' \(64 bytes\)"),
        ("external data: a huge offset", external("w64.bin", offset=str(1 << 62)), [], 1,
         r"initializer 'W': external data \[4611686018427387904, 4611686018427387936\) lies outside 'w64.bin'"),
        ("external data: length not what the shape needs", external("w64.bin", offset="0", length="64"), [], 1,
         r"initializer 'W': external data length 64 in 'w64.bin', but its shape and type need 32 bytes"),
        ("raw data of the wrong size", mlp(w=tensor("W", [4, 2], FLOAT, raw=b"\0" * 12)), [], 1,
         r"initializer 'W': holds 12 bytes of data for 8 float elements"),
        # Found by fuzz_onnx: the elements (2^28 doubles, 2 GiB) were
        # allocated before the data's size was checked. Run with 1 GiB of
        # address space: an npuc that allocates first dies of it.
        ("a shape of 2^28 elements over 32 bytes of data",
         model([node("MatMul", ["x", "W"], ["y"], "fc1")], [tensor("W", [4, 2**26], FLOAT, [0.5] * 8)],
               [value_info("x", FLOAT, (1, 4))], [value_info("y", FLOAT, [1, 2**26])]), [], 1,
         r"initializer 'W': holds 32 bytes of data for 268435456 float elements", 1 << 30),
        ("type mismatch", mlp(b_init=tensor("b", [2], INT64, [1, 2])), [], 1,
         r"ONNX node 'bias1': Add \(opset 13\): type mismatch: input 1 is int64, expected float"),
        ("dynamic shape without --input-shape", mlp(x_dims=("batch", 4)), [], 1,
         r"graph input 'x' has a dynamic dimension 0 \('batch'\); npuc needs static shapes: give it with "
         r"--input-shape=x="),
        ("--input-shape of no input", ok, ["--input-shape=z=1x4"], 1, r"--input-shape names 'z', which is not a graph input"),
        # A misspelt name for a dynamic input: the name is the problem (the
        # dynamic input's own message came first).
        ("--input-shape misspelt for a dynamic input", mlp(x_dims=("batch", 4)), ["--input-shape=z=1x4"], 1,
         r"--input-shape names 'z', which is not a graph input"),
        ("--input-shape twice, two shapes", mlp(x_dims=("batch", 4)), ["--input-shape=x=1x4", "--input-shape=x=2x4"],
         1, r"--input-shape gives 'x' two shapes \(2x4 and an earlier one\)"),
        ("control: --input-shape twice, one shape", mlp(x_dims=("batch", 4)),
         ["--input-shape=x=1x4", "--input-shape=x=1x4"], 0, r"tensor<1x4xf32>"),
        ("--input-shape not fitting", ok, ["--input-shape=x=1x5"], 1,
         r"--input-shape for 'x' does not fit its shape in the model: dimension 1 is 4 in the model, 5 given"),
        ("--input-shape of another rank", ok, ["--input-shape=x=1x4x1"], 1,
         r"--input-shape for 'x' does not fit its shape in the model: rank 3 given, the model's is 2"),
        ("an input dimension of 0", mlp(x_dims=(0, 4)), [], 1,
         r"graph input 'x' has an invalid dimension 0 of size 0 \(sizes must be positive\)"),
        ("a negative input dimension", mlp(x_dims=(1, -4)), [], 1,
         r"graph input 'x' has an invalid dimension 1 of size -4 \(sizes must be positive\)"),
        ("a string initializer", mlp(w=tensor("W", [4, 2], 8, raw=b"")), [], 1,
         r"initializer 'W': element type string is not supported"),
        ("an initializer of undefined type", mlp(w=tensor("W", [4, 2], 0, raw=b"")), [], 1,
         r"initializer 'W': element type undefined \(0\) is not supported"),
        ("an initializer of element type 99", mlp(w=tensor("W", [4, 2], 99, raw=b"")), [], 1,
         r"initializer 'W': element type unknown \(99\) is not supported"),
        ("no default-domain opset import", model(
            [node("Relu", ["x"], ["y"], "act")], [], [value_info("x", FLOAT, (1, 4))],
            [value_info("y", FLOAT, (1, 4))], 1, "com.other"), [], 1,
         r"the model has no opset import of the default ONNX domain"),
        ("two nodes of one output name", model(
            [node("Relu", ["x"], ["y"], "act1"), node("Sigmoid", ["x"], ["y"], "act2")], [],
            [value_info("x", FLOAT, (1, 4))], [value_info("y", FLOAT, (1, 4))]), [], 1,
         r"ONNX node 'act2': Sigmoid \(opset 13\): output 'y' is also the output of node 'act1'"),
        # A node of another domain after a Conv/MatMul was fused or folded
        # into it as the standard op of its name.
        ("custom-domain Add after MatMul", two_layers("MatMul", "Add", "my.custom"), [], 1,
         r"ONNX node 'next': Add \(opset 13\): op domain 'my.custom' is not supported"),
        ("custom-domain Relu after MatMul", two_layers("MatMul", "Relu", "com.microsoft"), [], 1,
         r"ONNX node 'next': Relu \(opset 13\): op domain 'com.microsoft' is not supported"),
        ("custom-domain Relu after Conv", two_layers("Conv", "Relu", "com.microsoft", True), [], 1,
         r"ONNX node 'next': Relu \(opset 13\): op domain 'com.microsoft' is not supported"),
        ("custom-domain BatchNormalization after Conv", two_layers("Conv", "BatchNormalization", "my.custom", True),
         [], 1, r"ONNX node 'next': BatchNormalization \(opset 13\): op domain 'my.custom' is not supported"),
        ("control: ai.onnx is the default domain", two_layers("MatMul", "Relu", "ai.onnx"), [], 0,
         r"arith\.maximumf"),
        # npu train: a layer without a bias gets zeros (onnx.no_bias) that
        # training left trainable (PyTorch has no such parameter), and a
        # shared weight was trained as untied copies.
        ("npu train: a MatMul without a bias trains no bias", two_layers("MatMul", "Relu"),
         ["--train", "--steps=1", "--emit=verify"], 0,
         r'outputs = \["steps\.done", "loss\.step0", "layer1\.weight"\]'),
        ("npu train: a Conv without a bias trains no bias", conv_no_bias(), ["--train", "--steps=1", "--batch=1",
                                                                            "--emit=verify"], 0,
         r'outputs = \["steps\.done", "loss\.step0", "layer1\.weight", "layer2\.weight", "layer2\.bias"\]'),
        ("npu train: a weight two nodes read", shared_weight(), ["--train", "--steps=1", "--emit=verify"], 1,
         r"training a weight used by more than one node is not supported: initializer 'W' is read by nodes 'fc1' "
         r"and 'fc2'"),
        ("control: a weight two nodes read, for inference", shared_weight(), [], 0, r"onnx\.shared"),
        ("uint8 quantization (no zero point)", mlp(quant=True), [], 1,
         r"ONNX node 'quant_in': QuantizeLinear \(opset 13\): no zero point: ONNX then quantises to uint8"),
        ("output not computed", mlp(y_name="nowhere"), [], 1, r"graph output 'nowhere' is not computed by the graph"),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--npu", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures = 0
    all_cases = cases(args.work)
    for i, (name, data, extra, want_rc, want, *limit) in enumerate(all_cases):
        path = os.path.join(args.work, f"case{i}.onnx")
        if callable(data):
            data = data(args.work)
        if isinstance(data, tuple):
            data, (side_name, side_data) = data
            with open(os.path.join(args.work, side_name), "wb") as f:
                f.write(side_data)
        with open(path, "wb") as f:
            f.write(data)
        # A case's optional sixth field: npuc's address space in bytes.
        cap = (lambda: resource.setrlimit(resource.RLIMIT_AS, (limit[0], limit[0]))) if limit else None
        emit = [] if any(a.startswith("--emit=") for a in extra) else ["--emit=imported"]
        r = subprocess.run([args.npuc, path] + emit + extra, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, errors="replace", preexec_fn=cap)
        text = r.stdout + r.stderr
        good = r.returncode == want_rc and re.search(want, text) is not None
        if want_rc != 0:
            good = good and "npuc: error:" not in r.stdout and re.search(r"\.onnx: error: ", r.stderr) is not None
        print(f"{'ok  ' if good else 'FAIL'} {name}: exit {r.returncode}")
        if not good:
            print(f"     expected exit {want_rc} and /{want}/; got:\n" + text[-2000:])
            failures += 1

    # A torch.nn.Module with an op npuc does not import, through `npu run`:
    # exit 2, the node named.
    import torch
    net = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.GELU())
    path = os.path.join(args.work, "gelu.onnx")
    torch.onnx.export(net.eval(), torch.zeros(1, 8), path, opset_version=13)
    r = subprocess.run([sys.executable, args.npu, "run", path, "-o", os.path.join(args.work, "gelu")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    good = r.returncode == 2 and re.search(r"ONNX node '/1/Erf': Erf \(opset 13\): not an op npuc imports",
                                           r.stdout) is not None
    print(f"{'ok  ' if good else 'FAIL'} npu run on an exported GELU: exit {r.returncode}")
    if not good:
        print(r.stdout[-2000:])
        failures += 1
    n = len(all_cases) + 1
    if failures:
        print(f"onnx bad input: {n - failures} of {n} cases as expected, {failures} FAILED")
    else:
        print(f"onnx bad input: all {n} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
