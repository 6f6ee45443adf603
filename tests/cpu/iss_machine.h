// A SystemC-free machine for ISS unit tests: one hart over a flat RAM, the
// same interpreter (interp.h) the core model runs, and a driver loop that
// delivers traps to mtvec or stops at the first trap when mtvec is 0.
#pragma once

#include "rv_asm.h"

#include "interp.h"

#include <cstring>
#include <vector>

namespace npu::test {

// Flat RAM at [base, base + size); everything else is a bus error.
struct flat_memory {
    std::uint32_t base;
    std::vector<unsigned char> ram;
    bool split = false;
    std::uint32_t latency = 0;  // cycles added per access
    unsigned accesses = 0;

    flat_memory(std::uint32_t b, std::size_t size) : base(b), ram(size, 0) {}

    bool split_misaligned() const { return split; }
    bool stop_requested() const { return false; }  // interp.h Exact: no stop request here
    bool in(std::uint32_t a, unsigned n) const { return a >= base && std::uint64_t(a) + n <= base + ram.size(); }

    bool code_window(std::uint32_t pc, std::uint64_t& start, std::uint64_t& len, const unsigned char*& host) {
        if (!in(pc, 2)) return false;  // a 16-bit instruction may end the RAM
        start = base;
        len = ram.size();
        host = ram.data();
        return true;
    }
    template <class T>
    bool load(std::uint32_t a, T& v, std::uint64_t& cyc, std::uint32_t) {
        if (!in(a, sizeof(T))) return false;
        std::memcpy(&v, &ram[a - base], sizeof(T));
        cyc += latency;
        ++accesses;
        return true;
    }
    template <class T>
    bool store(std::uint32_t a, T v, std::uint64_t& cyc, std::uint32_t) {
        if (!in(a, sizeof(T))) return false;
        std::memcpy(&ram[a - base], &v, sizeof(T));
        cyc += latency;
        ++accesses;
        return true;
    }
    std::vector<std::uint32_t> traced_pcs;
    bool trace(std::uint32_t pc, const cpu::insn&, const cpu::hart_state&, std::uint64_t) {
        traced_pcs.push_back(pc);
        return false;
    }

    std::uint32_t word(std::uint32_t a) const {
        std::uint32_t v;
        std::memcpy(&v, &ram[a - base], 4);
        return v;
    }
    void set_word(std::uint32_t a, std::uint32_t v) { std::memcpy(&ram[a - base], &v, 4); }
};

enum : std::uint32_t { ran_out = 0xffffffffu, stopped_in_wfi = 0xfffffffeu };

struct iss_machine {
    static constexpr std::uint32_t ram_base = 0x1c000000;
    static constexpr std::uint32_t data = ram_base + 0x8000;  // scratch data area
    cpu::reservation_set reservations;  // this machine's alone (tests may share one)
    cpu::hart_state h;
    flat_memory mem{ram_base, 64 * 1024};
    cpu::decode_cache dc;
    std::vector<std::uint32_t> exc_pcs;  // pc of every trap taken

    iss_machine() {
        h.pc = ram_base;
        h.reservations = &reservations;
        h.mstatus |= 1u << 13;  // FS = Initial: F usable like after a crt0
    }

    void load(std::uint32_t addr, const std::vector<std::uint32_t>& words) {
        for (std::size_t i = 0; i < words.size(); ++i) mem.set_word(addr + 4 * static_cast<std::uint32_t>(i), words[i]);
    }
    void program(const std::vector<std::uint32_t>& words) { load(ram_base, words); }

    // Runs until a trap with mtvec == 0 (returns its mcause; h.pc = the
    // trapping instruction), a WFI with nothing pending, or max_cycles.
    bool trace = false;  // use the tracing instantiation (flat_memory::traced_pcs)

    std::uint32_t run(std::uint64_t max_cycles = 1000000, std::uint64_t batch = 1000) {
        for (;;) {
            if (const std::uint32_t irq = cpu::pending_interrupt(h)) cpu::enter_trap(h, irq, 0);
            h.cycle_limit = h.cycle + batch;
            const cpu::stop s = trace ? cpu::run<flat_memory, true>(h, mem, dc) : cpu::run(h, mem, dc);
            if (s == cpu::stop::exception) {
                if (h.mtvec == 0) return h.exc_cause;
                exc_pcs.push_back(h.pc);
                cpu::enter_trap(h, h.exc_cause, h.exc_tval);
            } else if (s == cpu::stop::wfi) {
                if (!(h.mip & h.mie)) return stopped_in_wfi;
            }
            if (h.cycle >= max_cycles) return ran_out;
        }
    }
};

}  // namespace npu::test
