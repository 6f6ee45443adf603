// The memory model through a real TLM socket: data, latency, bandwidth and
// port contention, DMI (window, latency annotation, memcheck through the
// shadow), sparse page-on-touch storage, debug transport, memcheck modes.
#include "memory/memory.h"
#include "util/harness.h"

#include "base/sim_services.h"
#include "interconnect/router.h"

using namespace npu;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

struct env {
    cfg::config cfg =
        cfg::config::load("", {"soc.cluster_clock=1GHz", "l2.latency=6", "l2.bandwidth=8B", "l1.latency=1",
                               "interconnect.hop_latency=0", "l1.banks=4", "l1.bank_width=4B", "l1.bandwidth=8B",
                               "l3.size=1GiB", "l3.latency=100", "l3.storage=sparse", "l3.interface=port",
                               "soc.memcheck=warn"});
    test::test_context ctx{"ctx", cfg};
    test::harness h{"h", {{"cpu_l2", 0, 0}, {"dma_l3", 1}, {"a_l1", 1}, {"b_l1", 2}}};
    base::bus_initiator* l2_port;
    base::bus_initiator* l3_port;
    std::unique_ptr<memory::memory> l1, l2, l3;
    std::unique_ptr<tlm_utils::simple_target_socket<env>> dummy;
    int findings = 0;
    base::memcheck_info last{};

    env() {
        ctx.services().on_memcheck = [this](const base::memcheck_info& m) {
            ++findings;
            last = m;
            return false;
        };
        l1 = std::make_unique<memory::memory>("l1", cfg, "l1");
        l2 = std::make_unique<memory::memory>("l2", cfg, "l2");
        l3 = std::make_unique<memory::memory>("l3", cfg, "l3");
        l2_port = &h.master(0);
        l3_port = &h.master(1);
        l2_port->socket.bind(l2->socket);
        l3_port->socket.bind(l3->socket);
        // Two masters on the banked L1 through a router (hop latency 0).
        router = std::make_unique<interconnect::router>("router", cfg, map);
        router->bind_initiator(h.master(2).socket, cfg::initiator_class::dma);
        router->bind_initiator(h.master(3).socket, cfg::initiator_class::dma);
        router->bind_target(l1->socket, "l1");
    }
    cfg::memory_map map = cfg::memory_map::build(cfg);
    std::unique_ptr<interconnect::router> router;
};
env* E;

}  // namespace

// The dense memories' host storage (host::zeroed_block): zeros, whole,
// writable; a block of half a huge page or more mapped on its own at a
// huge-page boundary, a smaller one from the heap.
TEST(ZeroedBlock, ZerosAtEverySizeAndHugePageAlignedWhenLarge) {
    for (const std::size_t n : {std::size_t{16}, std::size_t{4096}, std::size_t{1} << 20, std::size_t{1536} << 10,
                                std::size_t{5} << 20}) {
        npu::host::zeroed_block b(n);
        ASSERT_NE(b.data(), nullptr);
        std::size_t nonzero = 0;
        for (std::size_t i = 0; i < n; i += 512) nonzero += b.data()[i] != 0;
        nonzero += b.data()[n - 1] != 0;
        EXPECT_EQ(nonzero, 0u) << n << " B";
        b.data()[0] = 1, b.data()[n - 1] = 2;
        EXPECT_EQ(b.data()[0] + b.data()[n - 1], 3) << n << " B";
        if (n >= npu::host::zeroed_block::huge_page / 2) {
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % npu::host::zeroed_block::huge_page, 0u) << n << " B";
        }
    }
    npu::host::zeroed_block moved(std::size_t{1} << 20);
    moved.data()[7] = 7;
    npu::host::zeroed_block to;
    to = std::move(moved);
    EXPECT_EQ(moved.data(), nullptr);
    EXPECT_EQ(to.data()[7], 7);
}

TEST(Memory, ReadBackWhatWasWritten) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0xCAFEF00D, r = 0;
        ASSERT_EQ(E->l2_port->write(0x100, v, d), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(E->l2_port->read(0x100, r, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r, 0xCAFEF00Du);
        std::uint8_t b = 0;
        ASSERT_EQ(E->l2_port->read(0x101, b, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(b, 0xF0);  // little endian
    });
}

TEST(Memory, OutOfRangeIsAddressError) {
    E->h.run_job([] {
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0;
        // The memory sees offsets: its size is the first invalid one.
        EXPECT_EQ(E->l2_port->read(E->l2->size(), v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(E->l2_port->read(E->l2->size() - 2, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // straddles the end
        // The exact edges: the last word and the last byte are in, one byte more is not.
        EXPECT_EQ(E->l2_port->write(E->l2->size() - 4, v, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->l2_port->read(E->l2->size() - 4, v, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->l2_port->read(E->l2->size() - 3, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        std::uint8_t b = 0;
        EXPECT_EQ(E->l2_port->read(E->l2->size() - 1, b, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->l2_port->read(E->l2->size(), b, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    });
}

TEST(Memory, LatencyAndBandwidthOnBTransport) {
    E->h.run_job([] {
        wait(sc_time(1, sc_core::SC_US));  // earlier tests' bursts have drained
        // 64 bytes at 8 B/cycle: 6 cycles latency + 7 more beats = 13 ns at 1 GHz.
        std::vector<unsigned char> buf(64, 1);
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(0x2000);
        t.set_data_ptr(buf.data());
        t.set_data_length(64);
        t.set_streaming_width(64);
        sc_time d = SC_ZERO_TIME;
        E->l2_port->socket->b_transport(t, d);
        ASSERT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(d, sc_time(13, SC_NS));
        // A second burst issued at the same local time waits for the port
        // (busy for 8 beats): contention adds 8 cycles.
        sc_time d2 = SC_ZERO_TIME;
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        E->l2_port->socket->b_transport(t, d2);
        EXPECT_EQ(d2, sc_time(8 + 13, SC_NS));
        wait(sc_time(100, SC_NS));  // let the port drain for the next test
    });
}

TEST(Memory, DmiWindowWithLatencyAndMemcheckShadow) {
    E->h.run_job([] {
        const base::dmi_window* w = E->l2_port->dmi_for(0x400, 4, true);
        ASSERT_NE(w, nullptr);
        EXPECT_EQ(w->start, 0u);
        EXPECT_EQ(w->end, E->l2->size() - 1);
        EXPECT_EQ(w->read_latency, sc_time(6, SC_NS));
        ASSERT_NE(w->shadow, nullptr) << "memcheck is on: DMI must come with shadow bytes";
        EXPECT_EQ(w->traffic_id, E->l2->traffic_id());
        // A DMI write through the wrapper marks the shadow; b_transport sees it.
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 7;
        ASSERT_EQ(E->l2_port->write(0x400, v, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(d, sc_time(6, SC_NS));
        EXPECT_TRUE(E->l2->initialized(0x400, 4));
        EXPECT_FALSE(E->l2->initialized(0x404, 4));
        const int before = E->findings;
        std::uint32_t r;
        ASSERT_EQ(E->l2_port->read(0x404, r, d), tlm::TLM_OK_RESPONSE);  // never written
        EXPECT_EQ(E->findings, before + 1);
        EXPECT_EQ(E->last.address, 0x404u);
        ASSERT_NE(E->last.who, nullptr);
        EXPECT_EQ(E->last.who->name, "cpu_l2");
        // Reported once per byte range, not on every re-read.
        ASSERT_EQ(E->l2_port->read(0x404, r, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->findings, before + 1);
    });
}

TEST(Memory, SparseStorageCostsOnlyWhatIsTouched) {
    E->h.run_job([] {
        EXPECT_EQ(E->l3->size(), 1ull << 30);
        EXPECT_EQ(E->l3->allocated_bytes(), 0u);
        sc_time d = SC_ZERO_TIME;
        std::uint32_t v = 0x12345678, r = 0;
        // b_transport path (no DMI request yet): far apart addresses.
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(0x3FFFF000);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        t.set_data_length(4);
        t.set_streaming_width(4);
        E->l3_port->socket->b_transport(t, d);
        ASSERT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->l3->allocated_bytes(), memory::memory::page_size);
        ASSERT_EQ(E->l3_port->read(0x3FFFF000, r, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r, 0x12345678u);
        // A debug read of an untouched page reads zeros and allocates nothing.
        std::uint32_t z = 1;
        EXPECT_EQ(E->l3_port->debug_read(0x20000000, &z, 4), 4u);
        EXPECT_EQ(z, 0u);
        EXPECT_EQ(E->l3->allocated_bytes(), memory::memory::page_size);
        // DMI on a sparse memory is one page wide.
        const base::dmi_window* w = E->l3_port->dmi_for(0x1000, 4, false);
        ASSERT_NE(w, nullptr);
        EXPECT_EQ(w->start, 0x1000u);
        EXPECT_EQ(w->end, 0x1FFFu);
        EXPECT_EQ(w->read_latency, sc_time(100, SC_NS));
    });
}

TEST(Memory, DebugWriteInitialisesForMemcheck) {
    E->h.run_job([] {
        const unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        EXPECT_EQ(E->l2_port->debug_write(0x800, data, 8), 8u);
        EXPECT_TRUE(E->l2->initialized(0x800, 8));
        unsigned char back[8] = {};
        EXPECT_EQ(E->l2_port->debug_read(0x800, back, 8), 8u);
        EXPECT_EQ(0, std::memcmp(data, back, 8));
        // Debug access past the end is clipped, not an overflow.
        unsigned char big[16];
        EXPECT_EQ(E->l2_port->debug_read(E->l2->size() - 4, big, 16), 4u);
    });
}

// A stream (a DMA burst straight to the memory) reads a block whose shadow
// is all written without scanning it (memory.h, clean_): whatever then marks
// one of its bytes otherwise -- freed, a DMA in flight, zeroed at startup --
// must still make the read fail, and a write of the byte make it pass again.
// Dense storage (L2) and sparse (L3: a block lies in one page; a page never
// touched has nothing written).
TEST(Memory, StreamReadsSeeEveryChangeOfABlockWrittenWhole) {
    for (const bool sparse : {false, true}) E->h.run_job([sparse] {
        SCOPED_TRACE(sparse ? "sparse L3" : "dense L2");
        auto& m = sparse ? *E->l3 : *E->l2;
        auto& port = sparse ? *E->l3_port : *E->l2_port;
        const std::uint64_t base = sparse ? 0x4000000 : 0x10000;
        const std::vector<unsigned char> data(4096, 0x5A);
        EXPECT_EQ(port.debug_write(base, const_cast<unsigned char*>(data.data()), 4096), 4096u);
        base::traffic_counters traffic;
        unsigned char buf[256];
        auto stream_ok = [&](std::uint64_t at) {
            sc_time d = SC_ZERO_TIME;
            return m.stream(false, at, buf, sizeof buf, d, SC_ZERO_TIME, 0, traffic);
        };
        ASSERT_TRUE(stream_ok(base + 1024));
        ASSERT_TRUE(stream_ok(base + 1024));  // the second from the block's summary
        if (sparse) {
            EXPECT_FALSE(stream_ok(base + 4096)) << "the next page was never written";
        }
        m.mark_unwritten(base + 1100, 4);      // a heap block freed
        EXPECT_FALSE(stream_ok(base + 1024));
        EXPECT_TRUE(stream_ok(base + 2048)) << "another block is untouched";
        EXPECT_EQ(port.debug_write(base + 1100, buf, 4), 4u);
        EXPECT_TRUE(stream_ok(base + 1024));
        // A DMA's destination in flight.
        EXPECT_EQ(port.memcheck_in_flight(base + 2100, 8, true), 8u);
        EXPECT_FALSE(stream_ok(base + 2048));
        // Zeroed at startup only (memcheck=strict's distinction).
        ASSERT_TRUE(stream_ok(base + 3072));
        m.mark_zeroed(base + 3300, 1);
        EXPECT_FALSE(stream_ok(base + 3072));
        // A write covering a block whole makes it clean again at once.
        sc_time d = SC_ZERO_TIME;
        std::vector<unsigned char> whole(1024, 1);
        ASSERT_TRUE(m.stream(true, base + 2048, whole.data(), 1024, d, SC_ZERO_TIME, 0, traffic));
        EXPECT_TRUE(stream_ok(base + 2048));
    });
}

TEST(Memory, BTransportReadOfUnwrittenIsReportedWithInitiator) {
    E->h.run_job([] {
        std::uint32_t r;
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(0x5000);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&r));
        t.set_data_length(4);
        t.set_streaming_width(4);
        sc_time d = SC_ZERO_TIME;
        const int before = E->findings;
        E->l3_port->socket->b_transport(t, d);
        EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->findings, before + 1);
    });
}

TEST(Memory, ByteEnablesAndShortStreamingAreRefused) {
    E->h.run_job([] {
        unsigned char buf[8] = {};
        unsigned char be[8] = {0xFF};
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(0);
        t.set_data_ptr(buf);
        t.set_data_length(8);
        t.set_streaming_width(8);
        t.set_byte_enable_ptr(be);
        t.set_byte_enable_length(8);
        sc_time d = SC_ZERO_TIME;
        E->l2_port->socket->b_transport(t, d);
        EXPECT_EQ(t.get_response_status(), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        t.set_byte_enable_ptr(nullptr);
        t.set_streaming_width(4);
        E->l2_port->socket->b_transport(t, d);
        EXPECT_EQ(t.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
    });
}

TEST(BusInitiator, QuantumKeeperAdvancesAndSyncs) {
    E->h.run_job([] {
        tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(20, SC_NS));
        tlm_utils::tlm_quantumkeeper qk;
        qk.reset();
        const sc_time t0 = sc_core::sc_time_stamp();
        std::uint32_t v = 5;
        // DMI writes into L2 cost 6 cycles each: local time grows, SystemC time stays...
        ASSERT_EQ(E->l2_port->write(0x40, v, qk), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(E->l2_port->write(0x44, v, qk), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(E->l2_port->write(0x48, v, qk), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(sc_core::sc_time_stamp(), t0);
        EXPECT_GE(qk.get_local_time(), sc_time(18, SC_NS));
        // ... until the quantum (20 ns) is used up: then the keeper yields.
        ASSERT_EQ(E->l2_port->write(0x4C, v, qk), tlm::TLM_OK_RESPONSE);
        EXPECT_GE(sc_core::sc_time_stamp(), t0 + sc_time(20, SC_NS));
        EXPECT_EQ(qk.get_local_time(), SC_ZERO_TIME);
    });
}

namespace {
sc_time burst(int master, std::uint64_t addr, unsigned len, bool write) {
    static std::vector<unsigned char> buf(4096, 1);
    tlm::tlm_generic_payload t;
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(addr);
    t.set_data_ptr(buf.data());
    t.set_data_length(len);
    t.set_streaming_width(len);
    sc_time d = SC_ZERO_TIME;
    E->h.master(static_cast<std::size_t>(master)).socket->b_transport(t, d);
    EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
    return d;
}
}  // namespace

TEST(BankedL1, BurstStreamsAtPortWidthAcrossBanks) {
    E->h.run_job([] {
        wait(sc_time(1, sc_core::SC_US));
        // 64 B = 16 words over 4 banks, 2 words per cycle issued: 8 cycles, no conflict.
        EXPECT_EQ(burst(2, 0x10000000, 64, true), sc_time(8, SC_NS));
    });
}

TEST(BankedL1, SameBankAtOnceSerialises) {
    E->h.run_job([] {
        wait(sc_time(1, sc_core::SC_US));
        EXPECT_EQ(burst(2, 0x10000100, 4, false), sc_time(1, SC_NS));
        // Master b hits the same bank (0x100 + 4 banks * 4 B) in the same cycle: waits one cycle.
        EXPECT_EQ(burst(3, 0x10000110, 4, false), sc_time(2, SC_NS));
        // A different bank in the same cycle is free.
        EXPECT_EQ(burst(3, 0x10000104, 4, false), sc_time(1, SC_NS));
        std::uint64_t conflicts = 0;
        for (const auto& g : E->ctx.stats().groups())
            if (g.owner == "l1")
                for (const auto& v : g.values)
                    if (v.name == "bank_conflicts") conflicts = *v.value;
        EXPECT_EQ(conflicts, 1u);
    });
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    env e;
    E = &e;
    return RUN_ALL_TESTS();
}
