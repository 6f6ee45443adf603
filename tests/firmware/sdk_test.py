#!/usr/bin/env python3
"""The installable SDK and the hand-build recipe (docs/firmware.md).

    sdk_test.py --cmake CMAKE --ninja NINJA --build BUILD --source SRC --out DIR

1. cmake --install BUILD --prefix DIR/prefix
2. examples/out-of-tree configured with find_package(npusim) against that
   prefix, built, its ctest run, and its ELF run by the installed npusim.
3. A network compiled by the installed npuc (which must use the installed
   runtime and config) and run by the installed npusim against its golden.
4. The "Building by hand" block of docs/firmware.md, run as written.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

TIMEOUT = 600


def run(cmd, cwd=None, expect=0, what=""):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    if expect is not None and p.returncode != expect:
        print(f"FAIL: {what or ' '.join(cmd)}: exit code {p.returncode}, expected {expect}", file=sys.stderr)
        print(p.stdout[-4000:], p.stderr[-4000:], sep="\n", file=sys.stderr)
        sys.exit(1)
    return p


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    for a in ("--cmake", "--ninja", "--build", "--source", "--out"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    prefix = os.path.join(out, "prefix")

    # 1. install
    run([args.cmake, "--install", args.build, "--prefix", prefix], what="cmake --install")
    for f in ("bin/npusim", "bin/npu_fwgen", "lib/npusim/firmware/crt0.o", "lib/npusim/firmware/libnpu_runtime.a",
              "include/npusim/firmware/npu.h", "include/npusim/firmware/dma_regs.h",
              "share/npusim/configs/gap9.cfg", "lib/cmake/npusim/npusimConfig.cmake"):
        if not os.path.exists(os.path.join(prefix, f)):
            fail(f"the SDK lacks {f}")

    # 2. out-of-tree project
    oot = os.path.join(out, "oot")
    run([args.cmake, "-S", os.path.join(args.source, "examples/out-of-tree"), "-B", oot, "-G", "Ninja",
         f"-DCMAKE_MAKE_PROGRAM={args.ninja}", f"-DCMAKE_PREFIX_PATH={prefix}"], what="configure out-of-tree")
    run([args.cmake, "--build", oot], what="build out-of-tree")
    run(["ctest", "--test-dir", oot, "--output-on-failure"], what="ctest out-of-tree")
    elf = os.path.join(oot, "scale.elf")
    p = run([os.path.join(prefix, "bin/npusim"), "-q", elf], what="installed npusim on scale.elf")
    if "scaled on 8 workers: sum 1380 (expected 1380)" not in p.stdout:
        fail(f"scale.elf printed {p.stdout!r}")
    # It used the installed runtime, headers and generator, nothing of the npusim trees.
    ninja_file = open(os.path.join(oot, "build.ninja"), encoding="utf-8").read()
    keys = ("libnpu_runtime.a", "crt0", "npu_fwgen", "/firmware/runtime", "npusim/firmware")
    used = {t for t in re.findall(r"/[^\s:$]+", ninja_file) if any(k in t for k in keys)}
    outside = [u for u in used if not u.startswith(prefix)]
    if not used or outside:
        fail(f"the out-of-tree build should use only the SDK in {prefix}: {sorted(used)}")

    # 3. the installed npuc
    npuc = os.path.join(prefix, "bin/npuc")
    if os.path.exists(npuc):
        net = os.path.join(out, "net")
        run([npuc, os.path.join(args.source, "compiler/networks/mlp_tiny_int8.mlir"), "-o", net],
            what="installed npuc")
        man = json.load(open(os.path.join(net, "manifest.json"), encoding="utf-8"))
        if not str(man.get("config", "")).startswith(prefix):
            fail(f"the installed npuc used config {man.get('config')!r}, not the installed one")
        p = run([os.path.join(prefix, "bin/npusim"), "-q", "--manifest", os.path.join(net, "manifest.json")],
                what="installed npusim on the network")
        if not re.search(r"compared (\d+) of \1 elements?, 0 mismatch", p.stderr + p.stdout):
            fail(f"no golden comparison in: {p.stderr[-2000:]}")

    # 4. docs/firmware.md "Building by hand", as written, from a repository root
    doc = open(os.path.join(args.source, "docs/firmware.md"), encoding="utf-8").read()
    m = re.search(r"## Building by hand.*?```sh\n(.*?)```", doc, re.S)
    if not m:
        fail("docs/firmware.md has no 'Building by hand' sh block")
    root = os.path.join(out, "hand")
    os.makedirs(root)
    for d in ("firmware", "models", "configs"):
        os.symlink(os.path.join(args.source, d), os.path.join(root, d))
    os.symlink(os.path.abspath(args.build), os.path.join(root, "build"))
    with open(os.path.join(root, "prog.c"), "w", encoding="utf-8") as f:
        f.write('#include <stdio.h>\n#include "npu.h"\n#include "npu_platform.h"\n'
                'int main(void) { printf("hand-built on %d workers\\n", NB_WORKERS); return 0; }\n')
    p = run(["bash", "-euo", "pipefail", "-c", m.group(1)], cwd=root, what="the hand-build recipe")
    if "hand-built on 8 workers" not in p.stdout:
        fail(f"the hand-built program printed {p.stdout!r}")
    print("PASS")


if __name__ == "__main__":
    main()
