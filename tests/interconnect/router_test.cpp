// The router with real memories and peripherals behind it: decode from the
// config's map, per-initiator visibility, misses and straddles as address
// errors with the reason in txn_ext, hop latency, DMI translated to bus
// addresses, debug transport, the alias window, and register-bank errors.
#include "interconnect/router.h"
#include "memory/memory.h"
#include "periph/cluster_ctrl.h"
#include "periph/soc_periph.h"
#include "util/harness.h"

#include "base/peripheral.h"
#include "base/txn_ext.h"
#include "periph/soc_periph_regs.h"

using namespace npu;
using cfg::initiator_class;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

#ifdef NPU_TEST_ALIAS
constexpr bool alias_on = true;
#else
constexpr bool alias_on = false;
#endif

namespace {

enum { CORE, DMA, SA, LOADER };

struct env {
    cfg::config cfg =
        cfg::config::load("", {"soc.cluster_clock=1GHz", "interconnect.hop_latency=2", "l1.latency=1", "l2.latency=6",
                               std::string("alias.enable=") + (alias_on ? "true" : "false")});
    cfg::memory_map map = cfg::memory_map::build(cfg);
    test::test_context ctx{"ctx", cfg};  // soc.memcheck=warn (the default)
    test::harness h{"h", {{"core", 0, 3}, {"dma", 1}, {"sa", 2}, {"loader", 3}}};
    interconnect::router router{"router", cfg, map};
    memory::memory l1{"l1", cfg, "l1"}, l2{"l2", cfg, "l2"}, l3{"l3", cfg, "l3"};
    periph::soc_periph soc{"soc_periph", cfg};
    periph::cluster_ctrl cluster{"cluster_ctrl", cfg};
    base::line_stub no_cores{"no_cores"};  // the cluster's lines: no cores here

    env() {
        router.bind_initiator(h.master(CORE).socket, initiator_class::core);
        router.bind_initiator(h.master(DMA).socket, initiator_class::dma);
        router.bind_initiator(h.master(SA).socket, initiator_class::sa);
        router.bind_initiator(h.master(LOADER).socket, initiator_class::loader);
        router.bind_target(l1.socket, "l1");
        router.bind_target(l2.socket, "l2");
        router.bind_target(l3.socket, "l3");
        router.bind_target(soc.socket, "soc_periph");
        router.bind_target(cluster.socket, "cluster_periph");
        soc.set_echo(false);
        for (unsigned h = 0; h < cluster.fetch_enable.size(); ++h) {
            cluster.fetch_enable[h].bind(no_cores);
            cluster.awake[h].bind(no_cores);
        }
        cluster.boot_address.bind(no_cores);
    }
};
env* E;

tlm::tlm_response_status read32(int who, std::uint64_t a, std::uint32_t& v, sc_time& d) {
    return E->h.master(who).read(a, v, d);
}

}  // namespace

TEST(Router, CoreReachesL2AtTheRightOffset) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0xA5A5A5A5;
        ASSERT_EQ(E->h.master(CORE).write(0x1C000100, v, d), tlm::TLM_OK_RESPONSE);
        std::uint32_t back = 0;
        EXPECT_EQ(E->h.master(LOADER).debug_read(0x1C000100, &back, 4), 4u);
        EXPECT_EQ(back, 0xA5A5A5A5u);
        // The memory saw offset 0x100: read it from the memory's own view.
        EXPECT_TRUE(E->l2.initialized(0x100, 4));
    });
}

TEST(Router, HopLatencyIsAdded) {
    E->h.run_job([] {
        wait(sc_time(1, sc_core::SC_US));  // earlier bursts have drained
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 1;
        tlm::tlm_generic_payload t;  // plain b_transport: no DMI shortcut
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(0x1C000200);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        t.set_data_length(4);
        t.set_streaming_width(4);
        E->h.master(DMA).socket->b_transport(t, d);
        ASSERT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(d, sc_time(2 + 6, SC_NS));
        EXPECT_EQ(t.get_address(), 0x1C000200u) << "the router must restore the bus address";
    });
}

TEST(Router, CoresDoNotSeeL3) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v;
        EXPECT_EQ(read32(CORE, 0x80000000, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(E->h.master(CORE).last_ext().routed, base::txn_ext::route::not_visible);
        EXPECT_EQ(read32(DMA, 0x80000000, v, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->h.master(CORE).dmi_for(0x80000000, 4, false), nullptr) << "no DMI into an invisible region";
    });
}

TEST(Router, SaMastersOnlyL1) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0;
        EXPECT_EQ(E->h.master(SA).write(0x10000000, v, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(read32(SA, 0x1C000000, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(E->h.master(SA).last_ext().routed, base::txn_ext::route::not_visible);
        EXPECT_EQ(read32(SA, 0x80000000, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    });
}

TEST(Router, MissesAreAddressErrors) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v;
        for (std::uint64_t a : {0x0ull, 0x00001000ull, 0x1C180000ull, 0x20000000ull, 0xFFFFFFFCull}) {
            if (alias_on && a < 0x20000) continue;  // aliased for cores
            EXPECT_EQ(read32(CORE, a, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE) << std::hex << a;
            EXPECT_EQ(E->h.master(CORE).last_ext().routed, base::txn_ext::route::unmapped) << std::hex << a;
        }
        // Straddling the end of L2 is an error too, not a short access.
        EXPECT_EQ(read32(CORE, 0x1C17FFFE, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    });
}

// One byte past the end is the router's own refusal (routed = unmapped),
// not an access forwarded for the memory behind it to refuse.
TEST(Router, StraddleByOneByteIsRefusedByTheRouter) {
    E->h.run_job([] {
        // Through b_transport: a DMI window an earlier test's access left in
        // the master would serve the first read without the router.
        E->h.master(CORE).set_dmi_enabled(false);
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v;
        EXPECT_EQ(read32(CORE, 0x1C17FFFC, v, d), tlm::TLM_OK_RESPONSE);  // L2's last word
        EXPECT_EQ(E->h.master(CORE).last_ext().routed, base::txn_ext::route::ok);
        EXPECT_EQ(read32(CORE, 0x1C17FFFD, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(E->h.master(CORE).last_ext().routed, base::txn_ext::route::unmapped);
        E->h.master(CORE).set_dmi_enabled(true);
    });
}

// One initiator port going round three windows (the router keeps the last
// two a port went through), then to an address just past one it holds, and
// to a window its class may not use: each access reaches the right memory
// at the right offset, and the misses are refused with their reason.
TEST(Router, APortThatMovesBetweenWindowsIsRoutedEachTime) {
    E->h.run_job([] {
        auto& dma = E->h.master(DMA);
        dma.set_dmi_enabled(false);  // every access through b_transport
        sc_time d = SC_ZERO_TIME;
        const std::uint64_t at[3] = {0x10000400, 0x1C000400, 0x80000400};  // L1, L2, L3
        for (std::uint32_t i = 0; i < 30; ++i) {
            // Round robin, then back and forth between two: hits in both
            // remembered windows and misses of either.
            const std::uint64_t a = at[i < 15 ? i % 3 : (i % 2) * 2] + 4 * i;
            std::uint32_t v = 0xC0DE0000 + i;
            ASSERT_EQ(dma.write(a, v, d), tlm::TLM_OK_RESPONSE) << i;
            std::uint32_t back = 0;
            ASSERT_EQ(E->h.master(LOADER).debug_read(a, &back, 4), 4u) << i;
            EXPECT_EQ(back, v) << std::hex << a;
        }
        EXPECT_TRUE(E->l1.initialized(0x400, 4));
        EXPECT_TRUE(E->l2.initialized(0x400 + 4 * 1, 4));
        EXPECT_TRUE(E->l3.initialized(0x400 + 4 * 2, 4));
        std::uint32_t v = 0;
        // L2 is remembered: its last word is routed, one byte further is not.
        EXPECT_EQ(dma.read(0x1C17FFFC, &v, 4, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(dma.read(0x1C17FFFD, &v, 4, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(dma.last_ext().routed, base::txn_ext::route::unmapped);
        EXPECT_EQ(dma.read(0x1C180000, &v, 4, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        // After L1, the SA's port still may not reach L2.
        auto& sa = E->h.master(SA);
        sa.set_dmi_enabled(false);
        EXPECT_EQ(sa.read(0x10000400, &v, 4, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(sa.read(0x1C000400, &v, 4, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(sa.last_ext().routed, base::txn_ext::route::not_visible);
        EXPECT_EQ(sa.read(0x10000404, &v, 4, d), tlm::TLM_OK_RESPONSE);
        dma.set_dmi_enabled(true);
        sa.set_dmi_enabled(true);
    });
}

TEST(Router, NullIsUnmappedForDmaAndSaEvenWithAlias) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v;
        EXPECT_EQ(read32(DMA, 0x0, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(read32(SA, 0x10, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    });
}

TEST(Router, NullForCoresDependsOnAlias) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0x600DF00D;
        auto st = E->h.master(CORE).write(0x40, v, d);
        if (!alias_on) {
            EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        ASSERT_EQ(st, tlm::TLM_OK_RESPONSE);
        std::uint32_t back = 0;
        // The write landed in L1 at offset 0x40: the silicon behaviour that
        // hides NULL-based tile addresses.
        EXPECT_EQ(E->h.master(LOADER).debug_read(0x10000040, &back, 4), 4u);
        EXPECT_EQ(back, 0x600DF00Du);
        const base::dmi_window* w = E->h.master(CORE).dmi_for(0x40, 4, false);
        ASSERT_NE(w, nullptr);
        EXPECT_EQ(w->start, 0u) << "DMI through the alias is expressed in alias addresses";
    });
}

TEST(Router, DmiWindowsAreBusAddresses) {
    E->h.run_job([] {
        const base::dmi_window* w = E->h.master(CORE).dmi_for(0x1C000010, 4, false);
        ASSERT_NE(w, nullptr);
        EXPECT_EQ(w->start, 0x1C000000u);
        EXPECT_EQ(w->end, 0x1C000000u + E->l2.size() - 1);
        EXPECT_EQ(w->read_latency, sc_time(6 + 2, SC_NS)) << "DMI latency includes the hop";
        // Writing through DMI is visible through b_transport of another master.
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0x1234, back = 0;
        ASSERT_EQ(E->h.master(CORE).write(0x1C000010, v, d), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(read32(DMA, 0x1C000010, back, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(back, 0x1234u);
    });
}

// The stat `name` of the component whose name ends in `owner`.
std::uint64_t stat_of(const std::string& owner, const std::string& name) {
    for (const auto& g : E->ctx.stats().groups()) {
        if (g.owner.size() < owner.size() || g.owner.compare(g.owner.size() - owner.size(), owner.size(), owner) != 0)
            continue;
        for (const auto& v : g.values)
            if (v.name == name) return *v.value;
    }
    ADD_FAILURE() << "no stat " << owner << "." << name;
    return 0;
}

// Every counter a burst moves, read before and after a pass of bursts.
std::vector<std::uint64_t> burst_counters() {
    std::vector<std::uint64_t> v = {stat_of("router", "forwarded")};
    for (const char* m : {"l1", "l2", "l3"})
        for (const char* n : {"reads", "writes", "bytes_read", "bytes_written", "uninit_reads"})
            v.push_back(stat_of(m, n));
    v.push_back(stat_of("l1", "bank_conflicts"));
    v.push_back(stat_of("l3", "psram_transactions"));
    const auto& t = E->h.master(DMA).traffic();
    v.insert(v.end(), std::begin(t.read_bytes), std::end(t.read_bytes));
    v.insert(v.end(), std::begin(t.write_bytes), std::end(t.write_bytes));
    return v;
}

// A DMA channel between memories hands its bursts to the memory directly
// (bus_initiator::direct): the same data, delays, bank and port timing,
// memcheck findings and counters as the same bursts through the socket.
// Two passes of one burst sequence, each at its own addresses (0x10000 and
// 0x18000 up, where no other test writes; the same banks and PSRAM page
// offsets) and times (far apart: the first pass's port and bank bookings
// are long over), the first through
// the socket, the second direct; each pass's bank bookings ahead are
// followed by their data with the banks booked.
TEST(Router, DirectBurstsMatchTheSocketPath) {
    E->h.run_job([] {
        auto& m = E->h.master(DMA);
        m.set_dmi_enabled(false);  // a DMA channel's setting: every burst timed by its target
        struct burst {
            std::uint64_t addr;
            unsigned n;
            tlm::tlm_command cmd;  // TLM_IGNORE_COMMAND: bank booking ahead, then its read
            std::uint64_t beat;
            unsigned at_ns;
        };
        const std::vector<burst> seq = {
            {0x10000004, 256, tlm::TLM_WRITE_COMMAND, 8, 0},   {0x10000040, 64, tlm::TLM_WRITE_COMMAND, 8, 3},
            {0x10000004, 256, tlm::TLM_READ_COMMAND, 8, 10},   {0x10000100, 96, tlm::TLM_READ_COMMAND, 8, 11},
            {0x10000010, 128, tlm::TLM_IGNORE_COMMAND, 8, 40}, {0x1C000000, 256, tlm::TLM_WRITE_COMMAND, 0, 50},
            {0x1C000080, 256, tlm::TLM_READ_COMMAND, 0, 51},   {0x1C001000, 64, tlm::TLM_READ_COMMAND, 0, 52},
            {0x80000700, 256, tlm::TLM_WRITE_COMMAND, 0, 60},  {0x800007C0, 256, tlm::TLM_READ_COMMAND, 0, 61},
            {0x80000000, 128, tlm::TLM_READ_COMMAND, 0, 62},
        };
        const sc_time pass_start[2] = {sc_time(1, sc_core::SC_US), sc_time(500, sc_core::SC_US)};
        std::vector<std::uint64_t> counters[2];
        std::vector<sc_time> delays[2];
        std::vector<std::vector<unsigned char>> data[2];
        std::vector<tlm::tlm_response_status> status[2];
        std::size_t findings[2] = {};
        std::vector<std::uint64_t> finding_offsets[2];
        std::vector<base::memcheck_info> seen;
        E->ctx.services().on_memcheck = [&seen](const base::memcheck_info& i) {
            seen.push_back(i);
            return false;
        };
        for (int pass = 0; pass < 2; ++pass) {
            const std::uint64_t shift = pass ? 0x18000 : 0x10000;
            base::burst_route routes[3];
            const std::uint64_t bases[3] = {0x10000000 + shift, 0x1C000000 + shift, 0x80000000 + shift};
            for (int r = 0; r < 3; ++r) {
                m.resolve_burst_route(bases[r], routes[r]);
                ASSERT_NE(routes[r].target, nullptr) << "a memory serves bursts directly";
                EXPECT_EQ(routes[r].hop, sc_time(2, SC_NS)) << "the route carries the router's hop";
            }
            const auto before = burst_counters();
            seen.clear();
            for (const burst& b : seq) {
                const std::uint64_t a = b.addr + shift;
                const base::burst_route& r = routes[a >= 0x80000000 ? 2 : a >= 0x1C000000 ? 1 : 0];
                std::vector<unsigned char> buf(b.n);
                for (unsigned i = 0; i < b.n; ++i) buf[i] = static_cast<unsigned char>(a * 7 + i);
                m.set_beat_bytes(b.beat);
                sc_time d = pass_start[pass] + sc_time(b.at_ns, SC_NS);
                const sc_time issued = d;
                tlm::tlm_response_status st;
                if (b.cmd == tlm::TLM_IGNORE_COMMAND) {
                    st = pass ? m.direct(r, tlm::TLM_IGNORE_COMMAND, a, nullptr, b.n, d) : m.book_banks(a, b.n, d);
                    delays[pass].push_back(d - issued);
                    status[pass].push_back(st);
                    d = issued;
                    m.set_banks_booked(true);
                    st = pass ? m.direct(r, tlm::TLM_READ_COMMAND, a, buf.data(), b.n, d) : m.read(a, buf.data(), b.n, d);
                    m.set_banks_booked(false);
                } else if (b.cmd == tlm::TLM_WRITE_COMMAND) {
                    st = pass ? m.direct(r, b.cmd, a, buf.data(), b.n, d) : m.write(a, buf.data(), b.n, d);
                } else {
                    st = pass ? m.direct(r, b.cmd, a, buf.data(), b.n, d) : m.read(a, buf.data(), b.n, d);
                }
                delays[pass].push_back(d - issued);
                status[pass].push_back(st);
                data[pass].push_back(buf);
            }
            m.set_beat_bytes(0);
            const auto after = burst_counters();
            for (std::size_t i = 0; i < after.size(); ++i) counters[pass].push_back(after[i] - before[i]);
            findings[pass] = seen.size();
            for (const auto& f : seen) finding_offsets[pass].push_back(f.address - shift);
            EXPECT_EQ(seen.size(), 5u) << "pass " << pass << ": never-written bytes read in L1, L2 (two) and L3 (two)";
        }
        E->ctx.services().on_memcheck = nullptr;
        m.set_dmi_enabled(true);
        EXPECT_EQ(status[0], status[1]);
        EXPECT_EQ(delays[0], delays[1]);
        EXPECT_EQ(counters[0], counters[1]);
        EXPECT_GT(counters[1][0], 0u) << "the direct bursts count as forwarded";
        EXPECT_EQ(findings[0], findings[1]);
        EXPECT_EQ(finding_offsets[0], finding_offsets[1]);
        // The written pattern depends on the address's low byte only, the
        // same in both passes (0x10000 * 7 and 0x18000 * 7 end in 0x00): what the reads
        // returned, written bytes and never-written zeros, is the same.
        EXPECT_EQ(data[0], data[1]);
        std::size_t nonzero = 0;
        for (std::size_t k = 0; k < seq.size(); ++k)
            if (seq[k].cmd != tlm::TLM_WRITE_COMMAND)
                for (unsigned char c : data[1][k]) nonzero += c != 0;
        EXPECT_GT(nonzero, 256u) << "the reads return what the writes wrote";
    });
}

TEST(Router, LoaderSeesMemoriesButNotPeripherals) {
    E->h.run_job([] {
        const unsigned char b[4] = {1, 2, 3, 4};
        EXPECT_EQ(E->h.master(LOADER).debug_write(0x80000000, b, 4), 4u);
        EXPECT_EQ(E->h.master(LOADER).debug_write(0x1A100000, b, 4), 0u);
        EXPECT_EQ(E->h.master(LOADER).debug_write(0x00000000, b, 4), 0u);
    });
}

TEST(Peripheral, RegisterBankErrors) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0;
        // UART status is readable and reads 1 (TX ready).
        ASSERT_EQ(read32(CORE, 0x1A100000 + NPU_UART_STATUS, v, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(v, 1u);
        // An offset nobody claims: address error.
        EXPECT_EQ(read32(CORE, 0x1A100000 + 0x0F0, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        // Write to a read-only register, read of a write-only one, byte access: command errors.
        EXPECT_EQ(E->h.master(CORE).write(0x1A100000 + NPU_UART_STATUS, v, d), tlm::TLM_COMMAND_ERROR_RESPONSE);
        EXPECT_EQ(read32(CORE, 0x1A100000 + NPU_UART_TX, v, d), tlm::TLM_COMMAND_ERROR_RESPONSE);
        std::uint8_t c = 'x';
        EXPECT_EQ(E->h.master(CORE).write(0x1A100000 + NPU_UART_TX, c, d), tlm::TLM_COMMAND_ERROR_RESPONSE);
        std::uint32_t ch = 'A';
        EXPECT_EQ(E->h.master(CORE).write(0x1A100000 + NPU_UART_TX, ch, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->soc.uart_output(), "A");
    });
}

TEST(Peripheral, ADirectRouteServesRegistersAsTheInterconnectDoes) {
    // A core's register access goes straight to the peripheral through the
    // route the interconnect describes (cpu::core's slow_access): the same
    // value, latency, errors and side effects as through b_transport.
    E->h.run_job([] {
        base::bus_initiator& m = E->h.master(CORE);
        const std::uint64_t periph = 0x1A100000;
        base::burst_route r;
        m.resolve_burst_route(periph + NPU_UART_STATUS, r);
        ASSERT_NE(r.target, nullptr) << "the soc peripheral's window is a route";
        ASSERT_NE(dynamic_cast<base::peripheral*>(r.target), nullptr);
        EXPECT_TRUE(r.covers(periph, periph + 0xFFF));
        auto direct = [&](tlm::tlm_command cmd, std::uint64_t a, std::uint32_t& v, sc_time& d) {
            return m.direct(r, cmd, a, reinterpret_cast<unsigned char*>(&v), 4, d);
        };
        sc_time d1 = SC_ZERO_TIME, d2 = SC_ZERO_TIME;
        std::uint32_t v1 = 0, v2 = 0;
        ASSERT_EQ(direct(tlm::TLM_READ_COMMAND, periph + NPU_UART_STATUS, v1, d1), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(read32(CORE, periph + NPU_UART_STATUS, v2, d2), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(v1, v2);
        EXPECT_EQ(d1, d2) << "the same latency: the interconnect's hop and the register's";
        EXPECT_GT(d1, SC_ZERO_TIME);
        EXPECT_EQ(direct(tlm::TLM_READ_COMMAND, periph + 0x0F0, v1, d1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(direct(tlm::TLM_READ_COMMAND, periph + NPU_UART_TX, v1, d1), tlm::TLM_COMMAND_ERROR_RESPONSE);
        EXPECT_EQ(direct(tlm::TLM_WRITE_COMMAND, periph + NPU_UART_STATUS, v1, d1), tlm::TLM_COMMAND_ERROR_RESPONSE);
        const std::string before = E->soc.uart_output();
        std::uint32_t ch = 'Z';
        EXPECT_EQ(direct(tlm::TLM_WRITE_COMMAND, periph + NPU_UART_TX, ch, d1), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->soc.uart_output(), before + "Z") << "the write's side effect";
        // A memory's window is a route too, but not a peripheral's.
        base::burst_route l2;
        m.resolve_burst_route(0x1C000000, l2);
        EXPECT_EQ(dynamic_cast<base::peripheral*>(l2.target), nullptr);
    });
}

TEST(Peripheral, CycleCounterFollowsLocalTime) {
    E->h.run_job([] {
        wait(sc_time(1000, SC_NS));
        sc_time d(50, SC_NS);  // the initiator is 50 cycles ahead (temporal decoupling)
        std::uint32_t lo = 0, hi = 1;
        ASSERT_EQ(read32(CORE, 0x1A100000 + NPU_PERF_CYCLES_LO, lo, d), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(read32(CORE, 0x1A100000 + NPU_PERF_CYCLES_HI, hi, d), tlm::TLM_OK_RESPONSE);
        const auto now = static_cast<std::uint32_t>(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5);
        EXPECT_EQ(lo, now + 50 + 2) << "local time = SystemC time + offset + hop";
        EXPECT_EQ(hi, 0u);
    });
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    env e;
    E = &e;
    return RUN_ALL_TESTS();
}
