#!/usr/bin/env python3
"""Independent reference for the MLPerf Tiny networks of compiler/networks.

The four topologies are written here again, in PyTorch, from docs/mlperf-tiny.md
(not imported from the generator): f32 with torch.nn.functional (conv2d,
avg_pool2d, linear, relu, pad), int8 with an integer PyTorch reference of the
requantisation of compiler/runtime/npurt_conv.h:

    rq(a, m, s) = (a * m + ((1 << s) >> 1)) >> s      (int64, arithmetic shift)
    y = clamp(rq(acc + bias) [+ rq(residual, rm, rs)], 0 | -128, 127)

(convolutions of integer values in float64: every partial sum is an integer
below 2^53, so they are exact). Weights, inputs and the generator's numpy
forward outputs come from the .npz files gen_mlperf.py writes for a seed.
Every output element is compared: int8 exactly, f32 within
|torch - numpy| <= 1e-5 * max(1, |torch|). The torch outputs are written to
--out for the MLIR host check (mlir_host_check.py).

  gen_mlperf.py --npz-dir build/mlperf --seed 2024
  torch_reference.py --npz-dir build/mlperf --out build/mlperf/torch_outputs.npz
"""
import argparse
import sys

import numpy as np
import torch
import torch.nn.functional as F

F32_TOL = 1e-5


def tf_same(size, k, s):
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


# --- topologies, in torch terms -------------------------------------------------------
# ('conv', name, stride, same_padding, relu, residual_name) | ('dw', name, stride)
# | ('pool', name, kh, kw) | ('fc', name, relu); each layer's output is named after it.


def topology(net):
    if net == "dscnn":
        L = [("conv", "conv1", 2, True, True, None, "input")]
        x = "conv1"
        for i in range(1, 5):
            L.append(("dw", f"dw{i}", 1, x))
            L.append(("conv", f"pw{i}", 1, True, True, None, f"dw{i}"))
            x = f"pw{i}"
        L += [("pool", "pool", 24, 5, x), ("fc", "fc", False, "pool")]
        return L
    if net == "resnet8":
        L = [("conv", "conv1", 1, True, True, None, "input"),
             ("conv", "s1_conv1", 1, True, True, None, "conv1"),
             ("conv", "s1_conv2", 1, True, True, "conv1", "s1_conv1")]
        x = "s1_conv2"
        for st in (2, 3):
            L += [("conv", f"s{st}_conv1", 2, True, True, None, x),
                  ("conv", f"s{st}_short", 2, False, False, None, x),
                  ("conv", f"s{st}_conv2", 1, True, True, f"s{st}_short", f"s{st}_conv1")]
            x = f"s{st}_conv2"
        L += [("pool", "pool", 8, 8, x), ("fc", "fc", False, "pool")]
        return L
    if net == "mobilenet":
        L = [("conv", "conv1", 2, True, True, None, "input")]
        x = "conv1"
        strides = [1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1]
        for i, s in enumerate(strides, 1):
            L.append(("dw", f"dw{i}", s, x))
            L.append(("conv", f"pw{i}", 1, True, True, None, f"dw{i}"))
            x = f"pw{i}"
        L += [("pool", "pool", 3, 3, x), ("fc", "fc", False, "pool")]
        return L
    if net == "autoencoder":
        L, x = [], "input"
        for i in range(1, 11):
            L.append(("fc", f"fc{i}", i < 10, x))
            x = f"fc{i}"
        return L
    raise ValueError(net)


def nchw(x):
    return x.permute(0, 3, 1, 2)


def nhwc(x):
    return x.permute(0, 2, 3, 1)


def pad_same(x, kh, kw, s):
    """x NCHW; TensorFlow 'same' zero padding for kernel kh x kw, stride s."""
    pt, pb = tf_same(x.shape[2], kh, s)
    pl, pr = tf_same(x.shape[3], kw, s)
    return F.pad(x, (pl, pr, pt, pb))


def run_f32(net, d):
    t = {"input": torch.from_numpy(d["input"])}
    for L in topology(net):
        op, name = L[0], L[1]
        if op == "conv":
            _, _, s, same, relu, res, src = L
            w = torch.from_numpy(d[f"{name}.w"]).permute(3, 2, 0, 1)  # HWCF -> FCHW
            x = nchw(t[src])
            if same:
                x = pad_same(x, w.shape[2], w.shape[3], s)
            y = nhwc(F.conv2d(x, w, torch.from_numpy(d[f"{name}.b"]), stride=s))
            if res:
                y = y + t[res]
            t[name] = F.relu(y) if relu else y
        elif op == "dw":
            _, _, s, src = L
            w = torch.from_numpy(d[f"{name}.w"])  # HWC
            c = w.shape[2]
            x = pad_same(nchw(t[src]), w.shape[0], w.shape[1], s)
            y = F.conv2d(x, w.permute(2, 0, 1).unsqueeze(1), torch.from_numpy(d[f"{name}.b"]), stride=s, groups=c)
            t[name] = F.relu(nhwc(y))
        elif op == "pool":
            _, _, kh, kw, src = L
            t[name] = nhwc(F.avg_pool2d(nchw(t[src]), (kh, kw)))
        elif op == "fc":
            _, _, relu, src = L
            x = t[src].reshape(1, -1)
            y = F.linear(x, torch.from_numpy(d[f"{name}.w"]).t(), torch.from_numpy(d[f"{name}.b"]))
            t[name] = F.relu(y) if relu else y
    return t


def rq(a, m, s):
    m = torch.as_tensor(m, dtype=torch.int64)
    s = torch.as_tensor(s, dtype=torch.int64)
    one = torch.ones_like(s)
    v = (a * m + ((one << s) >> 1)) >> s
    # npurt_conv.h truncates rq to int32 before the addition and the clamp.
    return v.to(torch.int32).to(torch.int64)


def run_int8(net, d):
    t = {"input": torch.from_numpy(d["input"]).to(torch.int64)}
    for L in topology(net):
        op, name = L[0], L[1]
        if op == "pool":
            _, _, kh, kw, src = L
            acc = F.avg_pool2d(nchw(t[src]).double(), (kh, kw), divisor_override=1).round().to(torch.int64)
            y = rq(nhwc(acc), d[f"{name}.m"], d[f"{name}.s"])
            t[name] = y.clamp(-128, 127)
            continue
        relu = True
        res = None
        if op == "conv":
            _, _, s, same, relu, res, src = L
            w = torch.from_numpy(d[f"{name}.w"]).double().permute(3, 2, 0, 1)
            x = nchw(t[src]).double()
            if same:
                x = pad_same(x, w.shape[2], w.shape[3], s)
            acc = nhwc(F.conv2d(x, w, stride=s))
        elif op == "dw":
            _, _, s, src = L
            w = torch.from_numpy(d[f"{name}.w"]).double()
            x = pad_same(nchw(t[src]).double(), w.shape[0], w.shape[1], s)
            acc = nhwc(F.conv2d(x, w.permute(2, 0, 1).unsqueeze(1), stride=s, groups=w.shape[2]))
        else:
            _, _, relu, src = L
            acc = t[src].reshape(1, -1).double() @ torch.from_numpy(d[f"{name}.w"]).double()
        acc = acc.round().to(torch.int64)
        a = (acc + torch.from_numpy(d[f"{name}.b"]).to(torch.int64)).to(torch.int32).to(torch.int64)
        v = rq(a, d[f"{name}.m"], d[f"{name}.s"])
        if res:
            v = v + rq(t[res], d[f"{name}.rm"], d[f"{name}.rs"])
        t[name] = v.clamp(0 if relu else -128, 127)
    return t


def compare(label, got, want, int8):
    got = np.asarray(got).reshape(-1)
    want = np.asarray(want).reshape(-1)
    if got.shape != want.shape:
        print(f"{label}: shape {got.shape} vs {want.shape}")
        return 0, 1
    if int8:
        bad = int(np.sum(got.astype(np.int64) != want.astype(np.int64)))
        worst = ""
    else:
        err = np.abs(got.astype(np.float64) - want.astype(np.float64))
        bad = int(np.sum(err > F32_TOL * np.maximum(1.0, np.abs(got))))
        worst = f", max |diff| {err.max():.3g}"
    return got.size, bad, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--npz-dir", required=True)
    ap.add_argument("--nets", default="dscnn,resnet8,mobilenet,autoencoder")
    ap.add_argument("--out", help="write the torch outputs here (.npz, one array per network variant)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    total = bad_total = 0
    outputs = {}
    for net in args.nets.split(","):
        for kind in ("f32", "int8"):
            name = f"{net}_{kind}"
            d = np.load(f"{args.npz_dir}/{name}.npz")
            t = run_int8(net, d) if kind == "int8" else run_f32(net, d)
            last = topology(net)[-1][1]
            out = t[last].numpy()
            out = out.astype(np.int8) if kind == "int8" else out.astype(np.float32)
            outputs[name] = out.reshape(d["output"].shape)
            n, bad, worst = compare(name, out, d["output"], kind == "int8")
            # Every intermediate activation too: a wrong layer cannot hide behind a saturated output.
            na = nb = 0
            for L in topology(net):
                an, ab, _ = compare(f"{name}.{L[1]}", t[L[1]].numpy(), d[f"act.{L[1]}"], kind == "int8")
                na += an
                nb += ab
            print(f"{name}: torch vs the generator's numpy forward: compared {n} of {d['output'].size} output "
                  f"elements, {bad} mismatches{worst}; activations: compared {na}, {nb} mismatches")
            total += n + na
            bad_total += bad + nb
    if args.out:
        np.savez(args.out, **outputs)
    print(f"torch reference: compared {total} of {total} elements, {bad_total} mismatches")
    if total == 0 or bad_total:
        print("FAIL")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
