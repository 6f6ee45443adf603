// SystemC environment for core-model tests: a few cores on a test bus with
// RAM and a small L1 (both DMI-capable, with latencies), a device region
// reachable only through b_transport (a scratch register and a wake
// register, an interrupt-line register), and address errors everywhere else.
#pragma once

#include "rv_asm.h"

#include "core.h"

#include "base/sim_services.h"
#include "util/harness.h"

#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <functional>
#include <memory>
#include <vector>

namespace npu::test {

struct bus_backing {
    static constexpr std::uint32_t ram_base = 0x1c000000, ram_size = 64 * 1024;
    static constexpr std::uint32_t l1_base = 0x10000000, l1_size = 4 * 1024;
    static constexpr std::uint32_t dev_base = 0x1a100000, dev_size = 0x10;
    std::vector<unsigned char> ram = std::vector<unsigned char>(ram_size);
    std::vector<unsigned char> l1 = std::vector<unsigned char>(l1_size);
    std::uint32_t scratch = 0;
    std::function<void(std::uint32_t)> on_wake;
    std::function<void(std::uint32_t)> on_irq;  // device offset 8: drive an interrupt line
    // Device offset 12: a target that wait()s inside b_transport (like the
    // event unit's blocking registers); it sets the returned delay itself.
    std::function<void(sc_core::sc_time&)> on_block;
    sc_core::sc_time period;
    int ram_tid = -1, l1_tid = -1;
    unsigned device_accesses = 0;

    std::uint32_t word(std::uint32_t a) const {
        std::uint32_t v;
        std::memcpy(&v, a >= ram_base ? &ram[a - ram_base] : &l1[a - l1_base], 4);
        return v;
    }
    void load(std::uint32_t a, const std::vector<std::uint32_t>& words) {
        std::memcpy(&ram[a - ram_base], words.data(), words.size() * 4);
    }
};

// One target per core (simple_target_socket binds one initiator).
class test_bus : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<test_bus> socket;

    test_bus(sc_core::sc_module_name nm, bus_backing& b) : sc_core::sc_module(nm), socket("socket"), b_(b) {
        socket.register_b_transport(this, &test_bus::b_transport);
        socket.register_get_direct_mem_ptr(this, &test_bus::get_dmi);
    }

private:
    unsigned char* host(std::uint64_t a, unsigned n, std::uint32_t& lat, std::uint64_t& start, std::uint64_t& end) {
        if (a >= b_.ram_base && a + n <= std::uint64_t(b_.ram_base) + b_.ram_size) {
            lat = 6;
            start = b_.ram_base;
            end = b_.ram_base + b_.ram_size - 1;
            return &b_.ram[a - b_.ram_base];
        }
        if (a >= b_.l1_base && a + n <= std::uint64_t(b_.l1_base) + b_.l1_size) {
            lat = 1;
            start = b_.l1_base;
            end = b_.l1_base + b_.l1_size - 1;
            return &b_.l1[a - b_.l1_base];
        }
        return nullptr;
    }

    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        const std::uint64_t a = t.get_address();
        const unsigned n = t.get_data_length();
        std::uint32_t lat;
        std::uint64_t s, e;
        if (unsigned char* p = host(a, n, lat, s, e)) {
            if (t.is_read())
                std::memcpy(t.get_data_ptr(), p, n);
            else
                std::memcpy(p, t.get_data_ptr(), n);
            delay += b_.period * lat;
            t.set_dmi_allowed(true);
            t.set_response_status(tlm::TLM_OK_RESPONSE);
            return;
        }
        if (a >= b_.dev_base && a + n <= std::uint64_t(b_.dev_base) + b_.dev_size && n == 4) {
            ++b_.device_accesses;
            if (a - b_.dev_base == 12) {
                // Receives the initiator's local time unchanged: waits it, then blocks.
                if (!b_.on_block) {
                    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
                    return;
                }
                b_.on_block(delay);
                t.set_response_status(tlm::TLM_OK_RESPONSE);
                return;
            }
            delay += b_.period * 10;
            std::uint32_t v = 0;
            if (t.is_write()) std::memcpy(&v, t.get_data_ptr(), 4);
            switch (a - b_.dev_base) {
            case 0:
                if (t.is_write())
                    b_.scratch = v;
                else
                    std::memcpy(t.get_data_ptr(), &b_.scratch, 4);
                break;
            case 4:
                if (t.is_write() && b_.on_wake) b_.on_wake(v);
                break;
            case 8:
                if (t.is_write() && b_.on_irq) b_.on_irq(v);
                break;
            default: t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return;
            }
            t.set_response_status(tlm::TLM_OK_RESPONSE);
            return;
        }
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }

    bool get_dmi(tlm::tlm_generic_payload& t, tlm::tlm_dmi& d) {
        std::uint32_t lat;
        std::uint64_t s, e;
        unsigned char* p = host(t.get_address(), 1, lat, s, e);
        if (!p) return false;
        d.set_dmi_ptr(p - (t.get_address() - s));
        d.set_start_address(s);
        d.set_end_address(e);
        d.set_read_latency(b_.period * lat);
        d.set_write_latency(b_.period * lat);
        d.allow_read_write();
        return true;
    }

    bus_backing& b_;
};

// `workers` worker cores plus the cluster controller, each on its own test bus.
struct core_env {
    cfg::config cfg;
    test_context ctx;
    bus_backing mem;
    std::vector<std::unique_ptr<test_bus>> buses;
    std::vector<std::unique_ptr<cpu::core>> cores;

    explicit core_env(std::vector<std::string> overrides, unsigned workers = 2)
        : cfg(make_cfg(std::move(overrides), workers)), ctx("ctx", cfg) {
        mem.period = sc_core::sc_time(10, sc_core::SC_NS);  // 100 MHz below
        auto& tr = ctx.context().traffic;
        mem.ram_tid = tr.add_target("ram");
        mem.l1_tid = tr.add_target("l1");
        auto& sim = ctx.services();
        sim.register_host_range({mem.ram.data(), mem.ram.size(), nullptr, mem.ram_tid});
        sim.register_host_range({mem.l1.data(), mem.l1.size(), nullptr, mem.l1_tid});
        for (unsigned h = 0; h <= workers; ++h) {
            const bool cc = h == workers;
            cores.push_back(std::make_unique<cpu::core>(cc ? "cc" : ("core" + std::to_string(h)).c_str(), cfg, h, cc));
            buses.push_back(std::make_unique<test_bus>(("bus" + std::to_string(h)).c_str(), mem));
            cores.back()->bus.socket.bind(buses.back()->socket);
        }
        // The machine external interrupt line of the cluster controller.
        mem.on_irq = [this](std::uint32_t level) { cc().set_irq(11, level & 1); };
        mem.on_wake = [this](std::uint32_t mask) {
            for (unsigned h = 0; h < cores.size(); ++h)
                if (mask >> h & 1) cores[h]->wake();
        };
    }

    static cfg::config make_cfg(std::vector<std::string> o, unsigned workers) {
        o.push_back("soc.cluster_clock=100MHz");
        o.push_back("cluster.workers=" + std::to_string(workers));
        o.push_back("l1.base=0x10000000");
        o.push_back("l1.size=4KiB");
        o.push_back("l1.banks=16");
        o.push_back("soc.memcheck=off");
        // These tests count the pipeline's cycles instruction by instruction
        // on hand-written programs; the instruction cache's misses are
        // counted exactly by icache_test and fw.icache.
        o.push_back("icache.enabled=false");
        return cfg::config::load("", o);
    }

    cpu::core& cc() { return *cores.back(); }

    // Boots the cluster controller at `pc` and simulates `t` (the tests'
    // one elaboration runs one program).
    void boot_cc_and_run(std::uint32_t pc, const sc_core::sc_time& t = sc_core::sc_time(1, sc_core::SC_MS)) {
        cc().set_boot_address(pc);
        cc().start();
        sc_core::sc_start(t);
    }
};

}  // namespace npu::test
