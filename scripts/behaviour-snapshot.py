#!/usr/bin/env python3
"""Record, and compare, everything a refactoring must not change.

    scripts/behaviour-snapshot.py record  [--build build] --out DIR
    scripts/behaviour-snapshot.py compare BEFORE_DIR AFTER_DIR

`record` runs every firmware ELF the build made (examples, bug reproductions,
firmware tests, benchmark workloads) on configs/gap9.cfg, and compiles + runs
every network in compiler/networks/ in several placements, L1 sizes, configs
and injected faults. For each run it keeps the exit code, the UART output, the
end-of-run report with host-time figures and folder names masked, and the
--stats JSON; for networks also the manifest and the SHA-256 of golden.bin,
input.bin and of the bytes firmware.elf loads.

`compare` prints every difference and exits 1 if there is one. Cycles,
exit codes, firmware output, every statistic and every golden comparison must
match exactly; host-time figures (seconds, MIPS) are ignored. A snapshot with
no runs is an error, never an empty pass.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Report lines and JSON keys that measure the host, not the simulated system.
HOST_LINE = [
    (re.compile(r"(\d+\.\d+) s host"), "<host> s host"),
    (re.compile(r"simulation speed: .*"), "simulation speed: <host>"),
    (re.compile(r"\(\d+\.\d+ s\)"), "(<host> s)"),
]
HOST_KEYS = re.compile(r"host|wall|mips|seconds", re.I)

NETWORK_VARIANTS = [
    ("default", []),
    ("w-l3", ["--default-mem-level=L3"]),
    ("act-l3", ["--activation-mem-level=L3"]),
    ("all-l3", ["--default-mem-level=L3", "--activation-mem-level=L3"]),
    ("l1-64k", ["--l1.size=64KiB"]),
    ("siracusa", ["--config", os.path.join(ROOT, "configs", "siracusa.cfg")]),
    ("fault-skip", ["--inject-fault=skip-weight-load"]),
    ("fault-l3", ["--inject-fault=l3-as-l2", "--default-mem-level=L3"]),
    ("fault-alloc", ["--inject-fault=unchecked-l1-alloc"]),
]


def mask(text, paths=()):
    # Longest first: the work folder lies inside the output folder.
    for path, name in sorted(paths, key=lambda p: -len(p[0])):
        text = text.replace(path, name)
    for pat, repl in HOST_LINE:
        text = pat.sub(repl, text)
    return text


def strip_host(value):
    if isinstance(value, dict):
        return {k: strip_host(v) for k, v in value.items() if not HOST_KEYS.search(k)}
    if isinstance(value, list):
        return [strip_host(v) for v in value]
    return value


def sha(path):
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def elf_load_sha(path):
    """SHA-256 of what the loader writes (PT_LOAD segments: address, sizes,
    bytes) and the entry point: debug info names the build folder, so the
    whole file differs between checkouts while the program does not."""
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        return sha(path)
    entry, phoff = struct.unpack_from("<II", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    h = hashlib.sha256(struct.pack("<I", entry))
    for i in range(phnum):
        p_type, off, vaddr, paddr, filesz, memsz, flags, _ = struct.unpack_from("<8I", data, phoff + i * phentsize)
        if p_type == 1:
            h.update(struct.pack("<5I", paddr, vaddr, filesz, memsz, flags))
            h.update(data[off:off + filesz])
    return h.hexdigest()


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                       timeout=600)
    return p.returncode, p.stdout, p.stderr


def stats(path, paths):
    try:
        with open(path) as f:
            return strip_host(json.loads(mask(f.read(), paths)))
    except (OSError, ValueError):
        return None


def record(args):
    build = os.path.abspath(args.build)
    npusim = os.path.join(build, "sc_main", "npusim")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "work")
    os.makedirs(work, exist_ok=True)
    snap = {}
    paths = [(work, "<work>"), (build, "<build>"), (ROOT, "<root>")]

    # bench_<wl>_qemu*.elf are linked for QEMU's virt machine, not for npusim.
    elfs = sorted(e for e in set(glob.glob(os.path.join(build, "firmware", "**", "*.elf"), recursive=True) +
                                 glob.glob(os.path.join(build, "bench", "**", "*.elf"), recursive=True))
                  if not re.match(r"bench_\w+_qemu(_\d+)?\.elf$", os.path.basename(e)))
    for elf in elfs:
        name = "elf:" + os.path.relpath(elf, build)
        st = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".json")
        if os.path.exists(st):
            os.remove(st)
        rc, so, se = run([npusim, "--config", os.path.join(ROOT, "configs", "gap9.cfg"), "--max-cycles=200000000",
                          "--stats", st, elf])
        snap[name] = {"exit": rc, "stdout": mask(so, paths), "report": mask(se, paths), "stats": stats(st, paths)}
        print(f"{name}: exit {rc}", flush=True)

    env = dict(os.environ, NPU_BUILD_DIR=build)
    for net in sorted(glob.glob(os.path.join(ROOT, "compiler", "networks", "*.mlir"))):
        stem = os.path.splitext(os.path.basename(net))[0]
        for variant, extra in NETWORK_VARIANTS:
            name = f"net:{stem}:{variant}"
            d = os.path.join(work, f"{stem}-{variant}")
            st = os.path.join(d, "stats.json")
            if os.path.exists(st):
                os.remove(st)
            cmd = [sys.executable, os.path.join(ROOT, "npu"), "run", net, "-o", d,
                   "--npusim-arg=--stats", f"--npusim-arg={st}"] + extra
            p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               errors="replace", timeout=600)
            snap[name] = {"exit": p.returncode, "stdout": mask(p.stdout, paths), "report": mask(p.stderr, paths),
                          "stats": stats(st, paths),
                          "files": {"firmware.elf (loaded bytes)": elf_load_sha(os.path.join(d, "firmware.elf")),
                                    "golden.bin": sha(os.path.join(d, "golden.bin")),
                                    "input.bin": sha(os.path.join(d, "input.bin"))}}
            # The manifest records absolute paths of its inputs: compare it without them.
            try:
                with open(os.path.join(d, "manifest.json")) as f:
                    m = json.load(f)
                for k in ("source", "config"):
                    m.pop(k, None)
                snap[name]["manifest"] = m
            except (OSError, ValueError):
                snap[name]["manifest"] = None
            print(f"{name}: exit {p.returncode}", flush=True)

    if not snap:
        sys.exit("behaviour-snapshot: nothing was run (is the build complete?)")
    with open(os.path.join(out, "snapshot.json"), "w") as f:
        json.dump(snap, f, indent=1, sort_keys=True)
    print(f"recorded {len(snap)} runs ({len(elfs)} ELFs) in {out}/snapshot.json")


def diff(path, a, b, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'after' if k in b else 'before'}")
            else:
                diff(f"{path}.{k}", a[k], b[k], out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(f"{path}[{i}]", x, y, out)
    elif isinstance(a, str) and isinstance(b, str) and "\n" in a + b:
        if a != b:
            la, lb = a.splitlines(), b.splitlines()
            for i in range(max(len(la), len(lb))):
                x = la[i] if i < len(la) else "<none>"
                y = lb[i] if i < len(lb) else "<none>"
                if x != y:
                    out.append(f"{path} line {i + 1}:\n    before: {x}\n    after:  {y}")
                    break
    elif isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-9 * max(1, abs(a))):
            out.append(f"{path}: {a!r} -> {b!r}")
    elif a != b:
        out.append(f"{path}: {a!r} -> {b!r}")


def compare(args):
    def load(d):
        with open(os.path.join(d, "snapshot.json")) as f:
            return json.load(f)
    before, after = load(args.before), load(args.after)
    if not before or not after:
        sys.exit("behaviour-snapshot: an empty snapshot compares nothing")
    out = []
    for name in sorted(set(before) | set(after)):
        if name not in after:
            out.append(f"{name}: missing after")
        elif name not in before:
            print(f"{name}: new (not in before; not a difference)")
        else:
            diff(name, before[name], after[name], out)
    for line in out:
        print(line)
    common = len(set(before) & set(after))
    print(f"compared {common} runs: {len(out)} differences")
    return 1 if out or common == 0 else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--build", default=os.path.join(ROOT, "build"))
    r.add_argument("--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args()
    return record(args) if args.cmd == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main() or 0)
