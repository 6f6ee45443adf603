#!/usr/bin/env python3
"""npusim --gdb driven by a real debugger.

    gdb_test.py --npusim NPUSIM --gdb GDB --elf gdb_target.elf --source gdb_target.c --loop-elf infinite_loop.elf

1. gdb-multiarch -batch on gdb_target.elf: a breakpoint on the function only
   worker 3 runs, registers, memory, a step, a write watchpoint, and the bus
   error stopping in the debugger on the line marked FAULT.
2. The protocol itself (a socket, no gdb): Ctrl-C stops a spinning target
   with SIGINT, and a kill ends npusim with exit code 9.
3. A port that is no TCP port is bad input (exit code 2).
Every process runs under a timeout: nothing here can hang CI.
"""
import argparse
import re
import socket
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60


def fail(msg, *blocks):
    print("FAIL: " + msg, file=sys.stderr)
    for title, text in blocks:
        print(f"---- {title} ----", file=sys.stderr)
        sys.stderr.write(text if text else "(empty)\n")
    sys.exit(1)


def start_npusim(npusim, elf, extra=()):
    """Starts npusim --gdb=0 and returns (process, port) once it listens."""
    proc = subprocess.Popen([npusim, "-q", "--gdb=0", *extra, elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    line = proc.stderr.readline()
    m = re.search(r"waiting for gdb on 127\.0\.0\.1:(\d+)", line)
    if not m:
        proc.kill()
        out, err = proc.communicate(timeout=TIMEOUT)
        fail("npusim --gdb=0 did not print its port", ("stderr", line + err), ("stdout", out))
    return proc, int(m.group(1))


def finish(proc):
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        fail("npusim did not end after the debugger left", ("stderr", err), ("stdout", out))
    return proc.returncode, out, err


def gdb_session(args):
    with open(args.source, encoding="utf-8") as f:
        fault_line = next(i for i, l in enumerate(f, 1) if "/* FAULT */" in l)
    proc, port = start_npusim(args.npusim, args.elf)
    script = f"""set pagination off
set confirm off
target remote :{port}
break scale_on_worker
continue
info threads
info registers a0
x/4dw &gdb_data
x/1xw 0x10200008
x/1xw 0x1a100200
p $mhartid
p/x $pc
stepi
p/x $pc
watch gdb_data[2]
continue
delete
continue
bt
monitor report
"""
    with tempfile.NamedTemporaryFile("w", suffix=".gdb") as cmds:
        cmds.write(script)
        cmds.flush()
        try:
            g = subprocess.run([args.gdb, "-nx", "-batch", "-x", cmds.name, args.elf], capture_output=True, text=True,
                               timeout=TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as e:
            proc.kill()
            proc.communicate()
            fail(f"gdb did not run to its end: {e}")
    rc, out, err = finish(proc)
    log = g.stdout + g.stderr
    blocks = (("gdb output", log), ("npusim stderr", err), ("npusim stdout", out))
    checks = [
        (r"Thread 4 hit Breakpoint 1, scale_on_worker \(arg=0x3\)", "the breakpoint stops worker 3 (thread 4)"),
        (r"\* 4 +Thread 4 \(hart 3, worker 3, running\)", "info threads names worker 3 as the current thread"),
        (r"Thread 9 \(hart 8, cluster controller", "the cluster controller is listed"),
        (r"Thread 1 \(hart 0, worker 0, parked\)", "a parked worker is listed"),
        (r"a0 +0x3\s+3", "a0 holds the argument 3"),
        (r"<gdb_data>:\s+1\s+2\s+3\s+4", "memory reads the initial data"),
        # Registers whose read computes the value (they read 0 before).
        (r"0x10200008:\s+0x00000108\b", "the cluster's AWAKE register shows harts 3 and 8 awake"),
        (r"0x1a100200:\s+0x0*[1-9a-f][0-9a-f]*\b", "the cycle counter reads non-zero"),
        (r"\$1 = 3\b", "mhartid (a CSR) reads 3"),
        (r"Old value = 3\s+New value = 9", "the write watchpoint stops after the store"),
        (r"Thread 9 received signal SIGSEGV", "the bus error stops the controller in the debugger"),
        (rf"store_tile \(base=0x0, value=3\) at \S*gdb_target\.c:{fault_line}", "the stop is on the faulting line"),
        (r"initiator : soc\.cc \(hart 8, cluster controller\)", "gdb shows the bus-error report"),
        (r"#1 .* main \(\) at \S*gdb_target\.c:\d+", "the backtrace reaches main"),
        # At the fault the report so far says so (it said "success").
        (r"status +: bus error \(exit code 3\) — bus error: store at 0x[0-9a-f]+ by soc\.cc \(stopped in the debugger\)",
         "monitor report gives the fault's status"),
    ]
    for pattern, what in checks:
        if not re.search(pattern, log):
            fail(f"{what}: /{pattern}/ not in gdb's output", *blocks)
    pcs = re.findall(r"\$[23] = 0x([0-9a-f]+)", log)
    if len(pcs) != 2 or int(pcs[1], 16) != int(pcs[0], 16) + 4:
        fail(f"stepi should advance pc by one instruction, got {pcs}", *blocks)
    if rc != 3:
        fail(f"npusim exit code {rc}, expected 3 (bus error)", *blocks)
    if "worker 3 scaled the data: 12" not in out:
        fail("the firmware did not finish its work before the fault", *blocks)
    if not re.search(r"\*\*\* bus error \*\*\*", err):
        fail("npusim's own bus-error report is missing", *blocks)


class Rsp:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.buf = b""

    def send(self, body):
        data = body.encode()
        self.s.sendall(b"$" + data + b"#" + f"{sum(data) & 0xff:02x}".encode())

    def packet(self):
        while True:
            m = re.search(rb"\$([^#]*)#..", self.buf)
            if m:
                self.buf = self.buf[m.end():]
                return m.group(1).decode()
            chunk = self.s.recv(4096)
            if not chunk:
                raise EOFError("npusim closed the connection")
            self.buf += chunk

    def ask(self, body):
        self.send(body)
        return self.packet()


def ctrl_c_and_kill(args):
    proc, port = start_npusim(args.npusim, args.loop_elf)
    try:
        r = Rsp(port)
        r.ask("qSupported:swbreak+")
        stop = r.ask("?")
        if not stop.startswith("T05thread:9;"):
            fail(f"the first stop should be the controller's entry (T05 thread 9), got {stop!r}")
        r.send("vCont;c")
        time.sleep(1.0)
        r.s.sendall(b"\x03")
        stop = r.packet()
        if not re.match(r"T02thread:[0-9a-f]+;", stop):
            fail(f"Ctrl-C should stop with SIGINT (T02), got {stop!r}")
        pc = r.ask("p20")
        if not re.fullmatch(r"[0-9a-f]{8}", pc) or pc == "00000000":
            fail(f"the interrupted hart's pc reads {pc!r}")
        r.send("vKill;1")
        r.packet()
    except (OSError, EOFError) as e:
        proc.kill()
        rc, out, err = finish(proc)
        fail(f"protocol session failed: {e}", ("npusim stderr", err))
    rc, out, err = finish(proc)
    if rc != 9:
        fail(f"a kill from the debugger should exit 9, got {rc}", ("npusim stderr", err))


def bad_port(args):
    # "-5" was read as port 4294967291.
    for port in ("70000", "-5", "12ab"):
        p = subprocess.run([args.npusim, f"--gdb={port}", args.elf], capture_output=True, text=True, timeout=TIMEOUT)
        if p.returncode != 2 or f"--gdb: '{port}' is not a TCP port (0-65535)" not in p.stderr:
            fail(f"--gdb={port} should be bad input (2) naming it, got {p.returncode}", ("stderr", p.stderr))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--gdb", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--loop-elf", required=True)
    args = ap.parse_args()
    gdb_session(args)
    ctrl_c_and_kill(args)
    bad_port(args)
    print("PASS")


if __name__ == "__main__":
    main()
