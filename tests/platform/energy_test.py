#!/usr/bin/env python3
"""The energy model's extensions (docs/architects.md), each checked by the
exact change one key makes to one run's --stats (the run's events are the
same, only the per-event figures change):
  - energy.insn_<class>: the class's part of the cores' energy is its
    instructions times the key, and the classes add up to no more than the
    cores' figure; doubling energy.insn_mul adds exactly the mul part;
  - energy.voltage: halving the voltage quarters every dynamic figure;
  - energy.sa_idle_cycle: the SA's idle cycles (run minus busy) times the key;
  - energy.l1_bank_access: one access per core load/store of L1 and one per
    l1.bank_width (4 B) of the other initiators' L1 bytes;
  - energy.<block>_leakage_power: the power times the run's simulated time.
No key changes the cycles."""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def run(a, *keys):
    with tempfile.TemporaryDirectory() as d:
        st = os.path.join(d, "stats.json")
        p = subprocess.run([a.npusim, "--stats", st, *keys, a.elf], capture_output=True, text=True, timeout=100)
        if p.returncode != 0:
            fail(f"npusim {' '.join(keys)} exited {p.returncode}: {p.stderr[-2000:]}")
        return json.load(open(st)), p.stderr


def close(x, y, what):
    if abs(x - y) > 1e-6 * max(1.0, abs(y)):
        fail(f"{what}: {x} uJ, expected {y} uJ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    a = ap.parse_args()

    base, err = run(a)
    e, insn = base["energy_uj"], base["energy_insn_uj"]
    if "cores' instruction classes, uJ: alu " not in err:
        fail("the text report does not split the cores' energy by instruction class")
    if set(insn) != {"alu", "mul", "div", "branch", "jump", "load", "store", "fpu", "fdiv", "amo"}:
        fail(f"energy_insn_uj classes: {sorted(insn)}")
    if not 0 < sum(insn.values()) < e["cores"] or insn["mul"] <= 0 or insn["fpu"] <= 0:
        fail(f"instruction classes {insn} against cores {e['cores']}")
    cycles = base["cycles"]

    dbl, _ = run(a, "--energy.insn_mul=6200")
    close(dbl["energy_uj"]["cores"] - e["cores"], insn["mul"], "doubling energy.insn_mul, the cores' increase")
    close(dbl["energy_insn_uj"]["mul"], 2 * insn["mul"], "doubling energy.insn_mul, its class")

    half, _ = run(a, "--energy.voltage=450")
    for block in ("cores", "l1", "l2", "sa"):
        close(half["energy_uj"][block], e[block] / 4, f"energy.voltage=450: {block}")

    sa_busy = base["stats"]["soc.sa"]["busy_cycles"]
    idle, _ = run(a, "--energy.sa_idle_cycle=1000")  # 1 pJ per idle cycle
    close(idle["energy_uj"]["sa"] - e["sa"], (cycles - sa_busy) * 1e-6, "energy.sa_idle_cycle=1000")

    st = base["stats"]
    core_accesses = sum(v.get("loads.l1", 0) + v.get("stores.l1", 0) for k, v in st.items() if "loads.l1" in v)
    other_bytes = sum(t["l1"]["read"] + t["l1"]["write"] for k, t in base["traffic"].items() if k in ("soc.sa.bus",)
                      or k.startswith("soc.dma"))
    if core_accesses <= 0 or other_bytes <= 0:
        fail(f"no L1 accesses to charge ({core_accesses} by cores, {other_bytes} B by others)")
    bank, _ = run(a, "--energy.l1_bank_access=1000")  # 1 pJ per bank access
    close(bank["energy_uj"]["l1"] - e["l1"], (core_accesses + other_bytes / 4) * 1e-6, "energy.l1_bank_access=1000")

    seconds = cycles / base["cluster_clock_hz"]
    leak, _ = run(a, "--energy.l1_leakage_power=1000", "--energy.core_leakage_power=10")
    close(leak["energy_uj"]["l1"] - e["l1"], 1000 * seconds, "energy.l1_leakage_power=1000")
    close(leak["energy_uj"]["cores"] - e["cores"], 10 * len(base["cores"]) * seconds, "energy.core_leakage_power=10")

    for r in (dbl, half, idle, bank, leak):
        if r["cycles"] != cycles:
            fail("an energy key changed the cycles")
    print(f"energy: ok (cores {e['cores']:.3f} uJ, of which instruction classes {sum(insn.values()):.3f}; "
          f"{cycles} cycles, SA busy {sa_busy})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
