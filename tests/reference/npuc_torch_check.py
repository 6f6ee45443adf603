#!/usr/bin/env python3
"""npuc's golden reference against PyTorch, on the MLPerf Tiny networks.

For each network of compiler/networks (--kind f32 or int8): the generator's
input (the .npz of gen_mlperf.py) is written as a .npy and given to
`npuc --input`, which runs the network on the host through MLIR's
ExecutionEngine (golden.bin); its output is compared with PyTorch's
(torch_outputs.npz of torch_reference.py, the topology written again in
torch.nn.functional; int8 with PyTorch integer arithmetic of the
requantisation) within |golden - torch| <= 1e-4 * max(1, |torch|) for f32,
exactly for int8. With --npusim the firmware npuc
built for the same input also runs and must verify against that golden
("compared N of N elements, 0 mismatches"), so device, golden and PyTorch
agree on the same data. Prints "npuc vs torch: compared N of N elements,
M mismatches"; fails when N is 0 or M > 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

TOL = 1e-4


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npuc", required=True)
    ap.add_argument("--npusim")
    ap.add_argument("--net-dir", required=True)
    ap.add_argument("--npz-dir", required=True)
    ap.add_argument("--torch-outputs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--nets", default="dscnn,resnet8,mobilenet,autoencoder")
    ap.add_argument("--kind", choices=["f32", "int8"], default="f32")
    args = ap.parse_args()
    dtype = np.float32 if args.kind == "f32" else np.int8
    torch_out = np.load(args.torch_outputs)
    total = bad = 0
    for net in args.nets.split(","):
        name = f"{net}_{args.kind}"
        d = np.load(os.path.join(args.npz_dir, f"{name}.npz"))
        out = os.path.join(args.out, name)
        os.makedirs(out, exist_ok=True)
        inp = os.path.join(out, "input.npy")
        np.save(inp, np.ascontiguousarray(d["input"].astype(dtype)))
        c = subprocess.run([args.npuc, os.path.join(args.net_dir, f"{name}.mlir"), "-o", out,
                            f"--input={inp}"], capture_output=True, text=True)
        if c.returncode != 0:
            print(f"{name}: npuc failed:\n{c.stderr}")
            return 1
        manifest = json.load(open(os.path.join(out, "manifest.json")))
        o = manifest["outputs"][0]
        count = int(np.prod(o["shape"]))
        gold = np.frombuffer(open(os.path.join(out, manifest["golden_file"]), "rb").read(),
                             dtype=dtype, count=count, offset=o["golden_offset"])
        want = torch_out[name].reshape(-1).astype(dtype)
        if args.kind == "int8":
            err = gold.astype(np.int64) != want.astype(np.int64)
        else:
            err = np.abs(gold.astype(np.float64) - want) > TOL * np.maximum(1.0, np.abs(want))
        n_bad = int(err.sum())
        print(f"{name}: golden.bin vs torch: compared {count} of {want.size} output elements, {n_bad} mismatches, "
              f"max abs err {np.abs(gold.astype(np.float64) - want).max():.3g}")
        total += count
        bad += n_bad + (count != want.size)
        if args.npusim:
            s = subprocess.run([args.npusim, "--manifest", os.path.join(out, "manifest.json"),
                                "--memcheck=error"], capture_output=True, text=True)
            m = re.search(r"^compared (\d+) of (\d+) elements, 0 mismatches", s.stdout + s.stderr, re.M)
            ok = s.returncode == 0 and m and m.group(1) == m.group(2) != "0"
            print(f"{name}: device on the same input: {'verified' if ok else 'FAILED (exit %d)' % s.returncode}")
            bad += 0 if ok else 1
    print(f"npuc vs torch: compared {total} of {total} elements, {bad} mismatches")
    return 0 if total and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
