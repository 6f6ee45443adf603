#!/usr/bin/python3
"""npusim's config handling end to end (tests/config/CMakeLists.txt):

    cli_test.py CASE --npusim NPUSIM --elf HELLO_ELF

CASE cross-key: a value valid alone but wrong with another key's (an
icache.size under one set, a dma.l1_width that is not whole bank words) is
refused by every entry point that loads a config, not only a run: exit 2 and
the usual `<command line>: key: ...` message.
CASE clock: the report's clock is never printed as 0 MHz.
"""
import argparse
import subprocess
import sys


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def run(npusim, args):
    return subprocess.run([npusim] + args, capture_output=True, text=True)


def case_cross_key(a):
    bad = [(["--icache.size=8B"], "npusim: error: <command line>: icache.size: icache.size (8 B) holds less than one "
                                  "set of icache.ways x icache.line_bytes (4 x 16 B = 64 B)"),
           (["--dma.l1_width=5B"], "npusim: error: <command line>: dma.l1_width: dma.l1_width (5 B) is neither a "
                                   "multiple nor a divisor of l1.bank_width (4 B)")]
    for overrides, message in bad:
        for entry in (["--fingerprint"], ["--dump-config"], ["--print-map"], [a.elf]):
            r = run(a.npusim, overrides + entry)
            if r.returncode != 2 or message not in r.stderr or r.stdout:
                fail(f"npusim {' '.join(overrides + entry)}: exit {r.returncode}, stdout {r.stdout[:80]!r}, "
                     f"stderr {r.stderr.strip()!r}; expected exit 2 with: {message}")
    print("cross-key checks at every entry point: ok")


def case_clock(a):
    for clock, shown in [("1kHz", "@ 1 kHz ="), ("1500Hz", "@ 1.5 kHz ="), ("999Hz", "@ 999 Hz ="),
                         ("370MHz", "@ 370 MHz ="), ("1GHz", "@ 1000 MHz ="), ("370500kHz", "@ 370.5 MHz =")]:
        r = run(a.npusim, [f"--soc.cluster_clock={clock}", a.elf])
        line = next((l for l in r.stderr.splitlines() if l.startswith("cycles   :")), None)
        if r.returncode != 0 or line is None or shown not in line:
            fail(f"--soc.cluster_clock={clock}: exit {r.returncode}, report line {line!r}; expected '{shown}'")
        print(line)
    print("report clock: ok")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=["cross-key", "clock"])
    p.add_argument("--npusim", required=True)
    p.add_argument("--elf", required=True)
    a = p.parse_args()
    {"cross-key": case_cross_key, "clock": case_clock}[a.case](a)


if __name__ == "__main__":
    main()
