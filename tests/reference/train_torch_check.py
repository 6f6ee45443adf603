#!/usr/bin/env python3
"""npuc's training golden against PyTorch autograd.

For each network: `npuc --train` derives the training steps and writes the
golden (the training module run on the host through MLIR's ExecutionEngine:
every step's loss, then every weight and bias after the last step). This
script reads the same initial weights from the network's .mlir, the same
mini-batches and labels from npuc's input.bin (manifest.json says where), and
trains the same layers with torch.autograd and torch.optim.SGD: the losses
and final weights must agree with the golden within
|golden - torch| <= TOL * max(1, |torch|). With --npusim the firmware runs
too and must pass its own check (`losses: compared N of N`). Prints
"train vs torch: compared N of N elements, M mismatches"; fails when N is 0
or M > 0.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

TOL = 1e-4

CONST = re.compile(r"^\s*(%[\w.]+) = arith\.constant dense<(.*)> : tensor<([0-9x]+)xf32>")
MATMUL = re.compile(r"^\s*(%[\w.]+) = linalg\.matmul ins\((%[\w.]+), (%[\w.]+) :")
GENERIC = re.compile(r"^\s*(%[\w.]+) = linalg\.generic .*")
INS = re.compile(r"ins\((%[\w.]+), (%[\w.]+) :")


def dense(text, shape):
    n = int(np.prod(shape))
    if text.startswith('"0x'):
        raw = bytes.fromhex(text[3:-1])
        a = np.frombuffer(raw, dtype="<f4")
        if a.size == 1 and n > 1:  # a splat
            a = np.full(n, a[0], dtype=np.float32)
    else:
        a = np.array(json.loads(text), dtype=np.float32)
        if a.size == 1 and n > 1:
            a = np.full(n, float(a.reshape(-1)[0]), dtype=np.float32)
    return a.reshape(shape)


def layers_of(path):
    """[(W, b, relu)] in order: matmul with a constant weight, then the
    generic adding a constant bias (ReLU when its body has maximumf)."""
    consts, layers, pending = {}, [], None
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = CONST.match(line)
        if m:
            consts[m.group(1)] = dense(m.group(2), [int(d) for d in m.group(3).split("x")])
        m = MATMUL.match(line)
        if m:
            pending = (m.group(1), consts[m.group(3)])
        if GENERIC.match(line) and pending:
            body, j = [line], i + 1
            while "} ->" not in lines[j - 1] or j == i + 1:
                body.append(lines[j])
                j += 1
            text = "\n".join(body)
            ins = INS.search(text)
            assert ins and ins.group(1) == pending[0], f"{path}:{i + 1}: unexpected epilogue"
            layers.append((pending[1], consts[ins.group(2)], "maximumf" in text))
            pending = None
            i = j
            continue
        i += 1
    return layers


PAD = re.compile(r"^\s*(%[\w.]+) = tensor\.pad (%[\w.]+) low\[([\d, ]+)\] high\[([\d, ]+)\]")
NAMED = re.compile(r"^\s*(%[\w.]+) = linalg\.(conv_2d_nhwc_hwcf|depthwise_conv_2d_nhwc_hwc|pooling_nhwc_sum|pooling_nhwc_max|matmul)\b(.*)")
STRIDES = re.compile(r"strides = dense<\[?([\d, ]+)\]?>")
COLLAPSE = re.compile(r"^\s*(%[\w.]+) = tensor\.collapse_shape (%[\w.]+) .* into tensor<([0-9x]+)xf32>")
RETURN = re.compile(r"^\s*return (%[\w.]+)")
OPERANDS = re.compile(r"ins\(([^:]*):")
SCALAR = re.compile(r"arith\.constant ([-0-9.e]+) : f32")


def conv_network(path):
    """A convolutional network of gen_mlperf.py (DS-CNN, ResNet-8) as torch:
    (params [(weight, bias or None)] in npu-derive-training's layer order,
    forward(x, params) -> logits). Tensors stay NHWC / HWCF as in the .mlir,
    so the gradients have the golden's layout."""
    lines = open(path).read().splitlines()
    arg = re.search(r"func\.func @[\w.]+\((%[\w.]+):", "\n".join(lines)).group(1)
    consts, ops, layers, layer_of = {}, [], [], {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = CONST.match(line)
        if m:
            consts[m.group(1)] = dense(m.group(2), [int(d) for d in m.group(3).split("x")])
        m = PAD.match(line)
        if m:
            lo = [int(v) for v in m.group(3).split(",")]
            hi = [int(v) for v in m.group(4).split(",")]
            ops.append(("pad", m.group(1), [m.group(2)], (lo, hi)))
        m = NAMED.match(line)
        if m:
            text = line if "ins(" in line else line + lines[i + 1]
            ins = [v.strip() for v in OPERANDS.search(text).group(1).split(",")]
            st = STRIDES.search(line)
            strides = [int(v) for v in st.group(1).split(",")] if st else [1]
            if len(strides) == 1:
                strides *= 2
            kind = m.group(2)
            if not kind.startswith("pooling"):
                layer_of[m.group(1)] = len(layers)
                layers.append([ins[1], None])
            shape = re.findall(r"tensor<([0-9x]+)xf32>", text)[1]
            ops.append((kind, m.group(1), ins, (strides, [int(d) for d in shape.split("x")])))
        if GENERIC.match(line):
            body, j = [line], i + 1
            while "} ->" not in lines[j - 1] or j == i + 1:
                body.append(lines[j])
                j += 1
            text = "\n".join(body)
            ins = [v.strip() for v in OPERANDS.search(text).group(1).split(",")]
            res = [v for v in ins[1:] if consts.get(v) is None or consts[v].ndim != 1]
            bias = [v for v in ins[1:] if v not in res]
            if bias:
                layers[layer_of[ins[0]]][1] = bias[0]
            div = SCALAR.search(text) if "divf" in text else None
            ops.append(("epilogue", GENERIC.match(line).group(1), ins,
                        (bias[0] if bias else None, res[0] if res else None,
                         "maximumf" in text, float(div.group(1)) if div else 1.0)))
            i = j
            continue
        m = COLLAPSE.match(line)
        if m:
            ops.append(("reshape", m.group(1), [m.group(2)], [int(d) for d in m.group(3).split("x")]))
        m = RETURN.match(line)
        if m:
            ops.append(("return", None, [m.group(1)], None))
        i += 1
    params = []
    for w, b in layers:
        params.append((torch.tensor(consts[w].copy(), requires_grad=True),
                       torch.tensor(consts[b].copy(), requires_grad=True) if b else None))
    index = {w: k for k, (w, _) in enumerate(layers)}
    bias_index = {b: k for k, (_, b) in enumerate(layers) if b}

    def forward(x, params):
        env = {arg: x}
        for kind, out, ins, extra in ops:
            if kind == "return":
                return env[ins[0]]
            a = env[ins[0]]
            if kind == "pad":
                lo, hi = extra
                env[out] = F.pad(a, (lo[3], hi[3], lo[2], hi[2], lo[1], hi[1]))
            elif kind in ("conv_2d_nhwc_hwcf", "depthwise_conv_2d_nhwc_hwc"):
                w = params[index[ins[1]]][0]
                strides, _ = extra
                if kind == "conv_2d_nhwc_hwcf":
                    y = F.conv2d(a.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), stride=strides)
                else:
                    y = F.conv2d(a.permute(0, 3, 1, 2), w.permute(2, 0, 1).unsqueeze(1), stride=strides,
                                 groups=w.shape[2])
                env[out] = y.permute(0, 2, 3, 1)
            elif kind == "pooling_nhwc_sum":
                strides, window = extra
                y = F.avg_pool2d(a.permute(0, 3, 1, 2), window, stride=strides, divisor_override=1)
                env[out] = y.permute(0, 2, 3, 1)
            elif kind == "pooling_nhwc_max":
                strides, window = extra
                y = F.max_pool2d(a.permute(0, 3, 1, 2), window, stride=strides)
                env[out] = y.permute(0, 2, 3, 1)
            elif kind == "matmul":
                env[out] = a @ params[index[ins[1]]][0]
            elif kind == "epilogue":
                bias, res, relu, div = extra
                if bias:
                    a = a + params[bias_index[bias]][1]
                if res:
                    a = a + env[res]
                if relu:
                    a = torch.relu(a)
                env[out] = a / div if div != 1.0 else a
            elif kind == "reshape":
                env[out] = a.reshape(extra)
        raise ValueError(f"{path}: no return")

    return params, forward


def read_tensor(blob, t, offset_key):
    dtype = {"f32": "<f4", "i32": "<i4"}[t["element_type"]]
    count = int(np.prod(t["shape"]))
    return np.frombuffer(blob, dtype=dtype, count=count, offset=t[offset_key]).reshape(t["shape"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--npusim")
    ap.add_argument("--net", action="append", required=True, help="network .mlir (repeatable)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--batch", type=int, default=4, help="rows per mini-batch of a dense network "
                                                        "(a convolutional one trains batch 1)")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--default-mem-level", default="L2")
    ap.add_argument("--activation-mem-level", default="L2",
                    help="L3 for a network whose kept activations outgrow L2 (MobileNetV1)")
    args = ap.parse_args()
    torch.set_default_dtype(torch.float32)
    total = bad = 0
    for net in args.net:
        name = os.path.splitext(os.path.basename(net))[0]
        out = os.path.join(args.out, name)
        batch = [] if "conv_2d" in open(net).read() else [f"--batch={args.batch}"]
        c = subprocess.run([args.npuc, net, "-o", out, "--train", f"--steps={args.steps}", f"--lr={args.lr!r}",
                            f"--default-mem-level={args.default_mem_level}",
                            f"--activation-mem-level={args.activation_mem_level}"] + batch,
                           capture_output=True, text=True)
        if c.returncode != 0:
            print(f"{name}: npuc --train failed:\n{c.stderr}")
            return 1
        manifest = json.load(open(os.path.join(out, "manifest.json")))
        inputs = open(os.path.join(out, manifest["input_file"]), "rb").read()
        golden = open(os.path.join(out, manifest["golden_file"]), "rb").read()
        data = {t["name"]: read_tensor(inputs, t, "file_offset") for t in manifest["inputs"]}
        want = {t["name"]: read_tensor(golden, t, "golden_offset") for t in manifest["outputs"]}

        conv = "conv_2d" in open(net).read()
        if conv:
            pairs, forward = conv_network(net)
            params = [t for pair in pairs for t in pair if t is not None]
        else:
            layers = layers_of(net)
            pairs = [(torch.tensor(w.copy(), requires_grad=True), torch.tensor(b.copy(), requires_grad=True))
                     for w, b, _ in layers]
            params = [t for pair in pairs for t in pair]

            def forward(x, pairs):
                a = x
                for (w, b), (_, _, relu) in zip(pairs, layers):
                    a = a @ w + b
                    if relu:
                        a = torch.relu(a)
                return a
        opt = torch.optim.SGD(params, lr=args.lr)
        got = {}
        for s in range(args.steps):
            x = torch.tensor(data[f"step{s}.data"].copy())
            a = forward(x, pairs)
            if f"step{s}.labels" in data:
                loss = F.cross_entropy(a, torch.tensor(data[f"step{s}.labels"].astype(np.int64)))
            else:
                loss = F.mse_loss(a, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            got[f"loss.step{s}"] = loss.detach().numpy().reshape(1, 1)
        got["steps.done"] = np.full((1, 1), args.steps, dtype=np.float32)
        for k, (w, b) in enumerate(pairs):
            got[f"layer{k + 1}.weight"] = w.detach().numpy()
            if b is not None:
                got[f"layer{k + 1}.bias"] = b.detach().numpy()

        n = n_bad = 0
        for key, g in want.items():
            t = got[key].astype(np.float64)
            err = np.abs(g.astype(np.float64) - t) > TOL * np.maximum(1.0, np.abs(t))
            n += g.size
            n_bad += int(err.sum())
            if key.startswith("loss"):
                print(f"{name}: {key}: golden {float(g.reshape(-1)[0]):.6f}, torch {float(t.reshape(-1)[0]):.6f}")
            elif err.any():
                print(f"{name}: {key}: {int(err.sum())} of {g.size} differ, max abs err {np.abs(g - t).max():.3g}")
        print(f"{name}: golden vs torch: compared {n} elements, {n_bad} mismatches")
        total += n
        bad += n_bad
        if args.npusim:
            r = subprocess.run([args.npusim, "--manifest", os.path.join(out, "manifest.json"), "--memcheck=error"],
                               capture_output=True, text=True)
            line = [l for l in (r.stdout + r.stderr).splitlines() if l.startswith("losses:")]
            print(f"{name}: npusim exit {r.returncode}: {line[0] if line else 'no losses line'}")
            if r.returncode != 0 or not line or not re.match(r"losses: compared ([1-9]\d*) of \1,", line[0]):
                print((r.stdout + r.stderr)[-3000:])
                return 1
    print(f"train vs torch: compared {total} of {total} elements, {bad} mismatches")
    return 0 if total and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
