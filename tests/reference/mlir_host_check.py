#!/usr/bin/env python3
"""Runs the committed MLPerf Tiny .mlir networks on the host with upstream MLIR
and compares every output element with the PyTorch reference.

Each network is wrapped in a main() that calls it on the generator's input
(a dense constant: exact int8 values, f32 bit patterns in hex) and prints the
result with the MLIR runner utils; the module is lowered with mlir-opt's
upstream pipeline (one-shot bufferization, linalg to loops, to the LLVM
dialect: the one npuc's ExecutionEngine golden uses) and run with
mlir-cpu-runner. This proves the .mlir files compute what PyTorch computes,
independently of npuc: int8 exactly, f32 within 1e-5 * max(1, |torch|).

  mlir_host_check.py --net-dir compiler/networks --npz-dir build/mlperf \
      --torch-outputs build/mlperf/torch_outputs.npz
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

F32_TOL = 1e-5
PIPELINE = ("builtin.module(empty-tensor-to-alloc-tensor,"
            "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
            "func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
            "finalize-memref-to-llvm,convert-arith-to-llvm,convert-math-to-llvm,convert-func-to-llvm,"
            "convert-cf-to-llvm,reconcile-unrealized-casts)")


def tt(shape, et):
    return "tensor<" + "x".join(map(str, shape)) + "x" + et + ">"


def harness(name, x, oshape, int8):
    """main(): the network on input x, its output printed as i32 (int8 widened,
    f32 as its bit pattern, so nothing is lost to printing)."""
    et = "i8" if int8 else "f32"
    if int8:
        lit = "dense<" + np.array2string(x.astype(np.int64), separator=", ", threshold=10**9,
                                         max_line_width=10**9) + ">"
    else:
        lit = 'dense<"0x' + x.astype("<f4").tobytes().hex().upper() + '">'
    ms = "x".join(map(str, oshape))
    n = len(oshape)
    dims = ", ".join(f"d{i}" for i in range(n))
    idm = f"affine_map<({dims}) -> ({dims})>"
    iters = ", ".join(['"parallel"'] * n)
    widen = "arith.extsi %a : i8 to i32" if int8 else "arith.bitcast %a : f32 to i32"
    return "\n".join([
        "", "func.func @main() {",
        f"  %in = arith.constant {lit} : {tt(x.shape, et)}",
        f"  %out = call @{name}(%in) : ({tt(x.shape, et)}) -> {tt(oshape, et)}",
        f"  %e = tensor.empty() : {tt(oshape, 'i32')}",
        f"  %o32 = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = [{iters}]}}",
        f"      ins(%out : {tt(oshape, et)}) outs(%e : {tt(oshape, 'i32')}) {{",
        f"  ^bb0(%a: {et}, %b: i32):",
        f"    %c = {widen}",
        "    linalg.yield %c : i32",
        f"  }} -> {tt(oshape, 'i32')}",
        f"  %m = bufferization.to_memref %o32 : memref<{ms}xi32>",
        f"  %u = memref.cast %m : memref<{ms}xi32> to memref<*xi32>",
        "  call @printMemrefI32(%u) : (memref<*xi32>) -> ()",
        "  return", "}",
        "func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}", ""])


def parse_printed(text):
    """The integers printMemrefI32 printed (after 'data =')."""
    data = text.split("data =", 1)[1]
    return np.array([int(v) for v in re.findall(r"-?\d+", data)], dtype=np.int64)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--net-dir", required=True, help="where the <net>_<type>.mlir files are")
    ap.add_argument("--npz-dir", required=True, help="gen_mlperf.py's .npz files (the inputs)")
    ap.add_argument("--torch-outputs", required=True, help="torch_reference.py --out")
    ap.add_argument("--nets", default="dscnn,resnet8,mobilenet,autoencoder")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-19/bin/mlir-opt")
    ap.add_argument("--mlir-cpu-runner", default="/usr/lib/llvm-19/bin/mlir-cpu-runner")
    ap.add_argument("--runner-libs", default="/usr/lib/llvm-19/lib/libmlir_c_runner_utils.so,"
                                              "/usr/lib/llvm-19/lib/libmlir_runner_utils.so")
    args = ap.parse_args()
    ref = np.load(args.torch_outputs)
    total = bad_total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for net in args.nets.split(","):
            for kind in ("f32", "int8"):
                name = f"{net}_{kind}"
                int8 = kind == "int8"
                d = np.load(os.path.join(args.npz_dir, name + ".npz"))
                want = ref[name]
                src = open(os.path.join(args.net_dir, name + ".mlir")).read()
                main_mlir = os.path.join(tmp, name + ".mlir")
                llvm_mlir = os.path.join(tmp, name + ".llvm.mlir")
                with open(main_mlir, "w") as f:
                    f.write(src + harness(name, d["input"], want.shape, int8))
                subprocess.run([args.mlir_opt, main_mlir, "--pass-pipeline=" + PIPELINE, "-o", llvm_mlir], check=True)
                run = subprocess.run([args.mlir_cpu_runner, llvm_mlir, "-e", "main", "-entry-point-result=void", "-O2",
                                      "-shared-libs=" + args.runner_libs], check=True, capture_output=True, text=True)
                got = parse_printed(run.stdout)
                if not int8:
                    got = got.astype(np.int32).view(np.float32).astype(np.float64)
                w = want.reshape(-1).astype(np.float64)
                if got.size != w.size:
                    print(f"{name}: the MLIR printed {got.size} values, torch has {w.size}")
                    bad_total += 1
                    continue
                if int8:
                    bad = int(np.sum(got != w))
                    worst = ""
                else:
                    err = np.abs(got - w)
                    bad = int(np.sum(err > F32_TOL * np.maximum(1.0, np.abs(w))))
                    worst = f", max |diff| {err.max():.3g}"
                print(f"{name}: MLIR on the host (mlir-cpu-runner) vs PyTorch: compared {got.size} of {w.size} "
                      f"elements, {bad} mismatches{worst}")
                total += got.size
                bad_total += bad
    print(f"MLIR host check: compared {total} of {total} elements, {bad_total} mismatches")
    if total == 0 or bad_total:
        print("FAIL")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
