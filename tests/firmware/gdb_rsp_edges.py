#!/usr/bin/env python3
"""npusim --gdb against a raw RSP client: the edge cases a debugger (or a
broken one) can send, each checked for the reply and for what it did.

    gdb_rsp_edges.py --npusim NPUSIM --elf fwtest_gdb_target.elf --loop-elf fwtest_infinite_loop.elf

Found by a robustness hunt (each was wrong before):
  - a register or thread number past 64 bits wrapped (p100000020 read the pc);
  - a write running past the end of L2 wrote the part inside, then said E14;
  - mepc written by the debugger lost bit 1 on cores with `c`;
  - a breakpoint above 2^32 was cut to 32 bits and hit; a watchpoint range
    wrapping past 2^32 was accepted and never fired;
  - `Hg05` answered OK and selected nothing; a short `G` was applied as far
    as it went;
  - stepping a parked hart ran the whole program;
  - a Ctrl-C in the same read as the resume packet was lost: the run went
    on, deaf to the debugger, until killed.
Prints "gdb rsp edges: N checks as expected" and exits 0, or names each
check that failed and exits 1.
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time


def checksum(b):
    return b"%02x" % (sum(b) & 0xFF)


def packet(body):
    b = body.encode("latin1") if isinstance(body, str) else body
    return b"$" + b + b"#" + checksum(b)


class Session:
    def __init__(self, npusim, elf, errfile):
        self.err = errfile
        self.proc = subprocess.Popen([npusim, "--gdb=0", elf], stdout=subprocess.DEVNULL, stderr=self.err,
                                     env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        port = None
        for _ in range(400):
            self.err.seek(0)
            m = re.search(rb"127\.0\.0\.1:(\d+)", self.err.read())
            if m:
                port = int(m.group(1))
                break
            time.sleep(0.05)
        if port is None:
            self.proc.kill()
            sys.exit("npusim did not print its gdb port")
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""

    def reply(self, timeout=10):
        """The next packet's body (acks and console output skipped), or
        None after `timeout`."""
        end = time.time() + timeout
        while True:
            m = re.search(rb"\$([^#]*)#..", self.buf, re.S)
            if m:
                self.buf = self.buf[m.end():]
                self.sock.sendall(b"+")
                body = m.group(1).decode("latin1")
                if body.startswith("O") and body != "OK":
                    continue
                return body
            left = end - time.time()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not data:
                return None
            self.buf += data

    def cmd(self, body, timeout=10):
        self.sock.sendall(packet(body))
        return self.reply(timeout)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return "hang"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npusim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--loop-elf", required=True, help="a program that runs until interrupted")
    a = ap.parse_args()
    bad, checks = [], 0

    def expect(what, got, want):
        nonlocal checks
        checks += 1
        ok = want(got) if callable(want) else got == want
        if not ok:
            bad.append(f"{what}: got {got!r}, expected {want if not callable(want) else 'something else'}")

    with tempfile.TemporaryFile() as err:
        s = Session(a.npusim, a.elf, err)
        expect("qSupported", s.cmd("qSupported:swbreak+"), lambda r: r is not None and "PacketSize" in r)
        expect("? (stopped at start)", s.cmd("?"), lambda r: r is not None and r.startswith("T"))
        # Numbers past 64 bits are refused, not wrapped.
        expect("p with a 65-bit register number", s.cmd("p10000000000000020"), "E01")
        expect("P with a huge register number", s.cmd("P100000001=78563412"), "E01")
        expect("Hg with a 65-bit thread", s.cmd("Hg10000000000000001"), "E01")
        # A write past the end of L2 (0x1c180000 on gap9) changes nothing.
        before = s.cmd("m1c17fff8,8")
        expect("M across the end of L2", s.cmd("M1c17fffe,4:aabbccdd"), "E14")
        expect("memory after the refused M", s.cmd("m1c17fff8,8"), before)
        expect("X across the end of L2", s.cmd(b"X1c17ffff,2:\x11\x22"), "E14")
        expect("memory after the refused X", s.cmd("m1c17fff8,8"), before)
        # mepc keeps bit 1 on cores with compressed instructions (IALIGN 16).
        expect("P mepc", s.cmd("P382=4201001c"), "OK")
        expect("p mepc", s.cmd("p382"), "4201001c")
        # Breakpoints and watchpoints outside 32 bits.
        expect("Z0 above 2^32", s.cmd("Z0,11c000106,2"), "E01")
        expect("Z2 wrapping past 2^32", s.cmd("Z2,1c0034e8,e3ffcb20"), "E01")
        expect("Z2 of length 0", s.cmd("Z2,1c0034e0,0"), "E01")
        # Hg05 selects hart 4 (thread 5), not "any".
        expect("Hg05", s.cmd("Hg05"), "OK")
        expect("qC after Hg05", s.cmd("qC"), "QC5")
        # A short G payload is refused whole.
        g = s.cmd("g")
        expect("G short", s.cmd("G0000000011111111"), "E01")
        expect("registers after the refused G", s.cmd("g"), g)
        # Stepping a hart that never started is refused (it ran the program).
        expect("Hg1", s.cmd("Hg1"), "OK")
        expect("s on a parked hart", s.cmd("s"), "E01")
        expect("vCont;s:1 on a parked hart", s.cmd("vCont;s:1"), "E01")
        s.sock.sendall(packet("k"))
        expect("exit code after k", s.close(), 9)
    with tempfile.TemporaryFile() as err:
        # The resume and the interrupt in one send: the run stops (T02).
        s = Session(a.npusim, a.loop_elf, err)
        expect("? (loop)", s.cmd("?"), lambda r: r is not None and r.startswith("T"))
        s.sock.sendall(packet("vCont;c") + b"\x03")
        expect("Ctrl-C with the resume packet", s.reply(20), lambda r: r is not None and r.startswith("T02"))
        s.sock.sendall(packet("k"))
        expect("exit code after k (loop)", s.close(), 9)
    for b in bad:
        print(b)
    if bad:
        print(f"gdb rsp edges: {len(bad)} of {checks} checks failed")
        return 1
    print(f"gdb rsp edges: {checks} checks as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
