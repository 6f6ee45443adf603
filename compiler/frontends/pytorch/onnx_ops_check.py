#!/usr/bin/env python3
"""The importer's ops beyond the MLPerf Tiny networks, checked on the host.

Small torch.nn.Modules that use the rest of the importer's ops (MaxPool,
AveragePool with pads, GlobalAveragePool, Softmax, Sigmoid, Clip, Sub/Mul/Div
with broadcast constants, a BatchNormalization that does not follow a conv,
Concat, Transpose, Pad, Squeeze/Unsqueeze, Reshape, MatMul + Add, dilated and
depthwise convolutions, BatchNormalization after Conv folded by npuc) are exported to ONNX, imported with
`npuc --emit=imported`, run on the host with upstream mlir-opt +
mlir-cpu-runner (the harness of tests/reference/mlir_host_check.py) and
compared with PyTorch: |mlir - torch| <= 1e-5 * max(1, |torch|).
This checks the imported MLIR whether or not npusim's lowering runs every op;
the cases the device runs also go through `npu run` (npusim vs the golden)
and compare.py (the golden vs PyTorch).
Prints "onnx ops check: compared N of N elements, 0 mismatches".
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "reference"))
import mlir_host_check as host  # noqa: E402

sys.path.insert(0, HERE)
import compare  # noqa: E402

TOL = 1e-5


class Pools(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=2, dilation=2)
        self.dw = nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.conv(x)), 3, stride=2, padding=1)
        y = F.avg_pool2d(self.dw(y), 2, stride=1, padding=1)  # count_include_pad
        y = F.adaptive_avg_pool2d(y, 1)  # GlobalAveragePool
        return F.softmax(self.fc(torch.flatten(y, 1)), dim=1)


class Elementwise(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.c = nn.Parameter(torch.randn(4, 1, 1))
        self.w = nn.Parameter(torch.randn(4 * 8 * 12, 6) * 0.05)
        self.b = nn.Parameter(torch.randn(6))

    def forward(self, x):
        y = self.conv(x)
        y = torch.sigmoid(y * 0.5 - self.c) / 1.5
        y = self.bn(torch.clamp(y, 0.1, 0.6))  # Clip, then a BatchNormalization after no conv
        y = F.pad(y.transpose(2, 3), (1, 1, 0, 0), value=0.25)  # [1, 4, 8, 12]
        y = torch.flatten(y, 1).unsqueeze(0).squeeze(0)
        return torch.matmul(y, self.w) + self.b  # MatMul + Add


class Concat(nn.Module):
    """Concat along channels (three parts: two convolutions and the input)
    and along rows: each part copied into its slice on the device. The
    concatenation is the output, so every element of it is compared."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(3, 2, 1)

    def forward(self, x):
        y = torch.cat([F.relu(self.conv(x)), x, self.conv2(x)], dim=1)
        return torch.cat([y, y * 0.5], dim=2)


class Reshapes(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 6, 1)
        self.fc = nn.Linear(6 * 4 * 4, 3)

    def forward(self, x):
        y = F.relu(self.conv(x)).reshape(1, -1)  # Reshape after a conv: weight rows permuted
        return torch.clamp(self.fc(y), max=0.3)


class Head(nn.Module):
    """Ops the device runs too: an unpadded MaxPool, Sigmoid, Softmax."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc1 = nn.Linear(8 * 4 * 4, 16)
        self.fc2 = nn.Linear(16, 6)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.conv(x)), 2)
        y = torch.sigmoid(self.fc1(torch.flatten(y, 1)))
        return F.softmax(self.fc2(y), dim=1)


class ConvBNs(nn.Module):
    """Exported with its BatchNormalization nodes (TrainingMode.PRESERVE):
    npuc folds them into the Conv and Gemm weights."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False)
        self.bn_dw = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 6 * 6, 4)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        y = F.relu(self.bn_dw(self.dw(y)))
        return self.fc(torch.flatten(y, 1))


class AsymmetricPads(nn.Module):
    """Pads of a dimension's end only: TF "same" ZeroPad2d((0, 1, 0, 1))
    before a MaxPool, and a constant Pad as the output (npuc's lowering of
    such a pad failed linalg's verifier)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        y = F.max_pool2d(nn.ZeroPad2d((0, 1, 0, 1))(F.relu(self.conv(x))), 3, 2)
        return F.pad(y, (0, 1, 0, 2), value=0.5)


class SharedLinear(nn.Module):
    """One nn.Linear applied twice: two Gemm nodes read its initializers."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.o = nn.Linear(8, 4)

    def forward(self, x):
        return self.o(F.relu(self.a(F.relu(self.a(x)))))


# name: (module, input shape, also run on npusim with `npu run`, export options)
CASES = {"pools": (Pools, (1, 4, 12, 12), True, {}), "elementwise": (Elementwise, (1, 3, 10, 8), True, {}),
         "concat": (Concat, (1, 3, 5, 5), True, {}),
         "reshapes": (Reshapes, (1, 2, 4, 4), True, {}), "head": (Head, (1, 3, 8, 8), True, {}),
         "batchnorm": (ConvBNs, (1, 3, 6, 6), True, {"training": torch.onnx.TrainingMode.PRESERVE}),
         "asymmetric_pads": (AsymmetricPads, (1, 3, 8, 8), True, {}), "shared_linear": (SharedLinear, (1, 8), True, {})}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--npu", default=os.path.join(HERE, "..", "..", "..", "npu"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-19/bin/mlir-opt")
    ap.add_argument("--mlir-cpu-runner", default="/usr/lib/llvm-19/bin/mlir-cpu-runner")
    ap.add_argument("--runner-libs", default="/usr/lib/llvm-19/lib/libmlir_c_runner_utils.so,"
                                              "/usr/lib/llvm-19/lib/libmlir_runner_utils.so")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    total = bad_total = 0
    for name, (cls, shape, device, export_options) in CASES.items():
        torch.manual_seed(3)
        model = cls()
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                with torch.no_grad():
                    m.running_mean.uniform_(-0.2, 0.2)
                    m.running_var.uniform_(0.5, 1.5)
        model.eval()
        x = torch.randn(shape)
        with torch.no_grad():
            want = model(x).numpy()
        onnx_path = os.path.join(args.work, name + ".onnx")
        torch.onnx.export(model, x, onnx_path, opset_version=13, **export_options)
        if "training" in export_options and b"BatchNormalization" not in open(onnx_path, "rb").read():
            print(f"{name}: the export has no BatchNormalization left to fold")
            bad_total += 1
        imported = subprocess.run([args.npuc, onnx_path, "--emit=imported"], capture_output=True, text=True)
        if imported.returncode != 0:
            print(f"{name}: npuc --emit=imported failed:\n{imported.stderr}")
            bad_total += 1
            continue
        src = imported.stdout
        main_mlir = os.path.join(args.work, name + ".mlir")
        llvm_mlir = os.path.join(args.work, name + ".llvm.mlir")
        with open(main_mlir, "w") as f:
            f.write(src.rstrip()[:-1] + host.harness(name, x.numpy(), want.shape, False) + "}\n")
        subprocess.run([args.mlir_opt, main_mlir, "--pass-pipeline=" + host.PIPELINE, "-o", llvm_mlir], check=True)
        run = subprocess.run([args.mlir_cpu_runner, llvm_mlir, "-e", "main", "-entry-point-result=void", "-O2",
                              "-shared-libs=" + args.runner_libs], check=True, capture_output=True, text=True)
        got = host.parse_printed(run.stdout).astype(np.int32).view(np.float32).astype(np.float64)
        w = want.reshape(-1).astype(np.float64)
        if got.size != w.size:
            print(f"{name}: the MLIR printed {got.size} values, torch has {w.size}")
            bad_total += 1
            continue
        err = np.abs(got - w)
        bad = int(np.sum(err > TOL * np.maximum(1.0, np.abs(w))))
        print(f"{name}: imported MLIR on the host vs PyTorch: compared {got.size} of {w.size} elements, "
              f"{bad} mismatches, max |diff| {err.max():.3g}")
        total += got.size
        bad_total += bad
        if device:
            # The device too: npusim vs the golden, the golden vs PyTorch.
            np.save(os.path.join(args.work, name + ".input.npy"), x.numpy())
            out = os.path.join(args.work, name + ".out")
            run = subprocess.run([sys.executable, args.npu, "run", onnx_path, "--input",
                                  os.path.join(args.work, name + ".input.npy"), "-o", out],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            verified = run.returncode == 0 and "golden comparison: PASS" in run.stdout
            n, bad, line = compare.compare(out, want) if verified else (0, 1, run.stdout[-3000:])
            print(f"{name}: npu run {'verified' if verified else 'FAILED'}; {line}")
            total += n
            bad_total += bad if verified else 1
    print(f"onnx ops check: compared {total} of {total} elements, {bad_total} mismatches")
    return 0 if total and not bad_total else 1


if __name__ == "__main__":
    sys.exit(main())
