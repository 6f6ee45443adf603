// The DMA engine through its registers, on a small SoC (dma_env.h), with
// dma.on_error=report so error paths can be checked from the status
// registers without ending the run: every dimension byte for byte, several
// outstanding transfers with per-id wait, exact timing and contention,
// statistics, every error path, memcheck of an unwritten source.
#include "dma_env.h"

using namespace npu;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
test::dma_env* E;

sc_time now() { return sc_core::sc_time_stamp(); }

void expect_bytes(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && bad++ < 5)
            ADD_FAILURE() << what << ": byte " << i << " is " << int(got[i]) << ", want " << int(want[i]);
    EXPECT_EQ(bad, 0u) << what;
}
}  // namespace

TEST(Dma, Copy1DMovesEveryByte) {
    E->h.run_job([] {
        E->clear();
        // 1000 B: 15 full 64 B bursts and a 40 B tail.
        const auto src = test::pattern(1000, 1);
        E->fill(E->l2_base() + 0x1000, src);
        E->fill(E->l1_base() + 0x200, std::vector<unsigned char>(1008, 0xEE));
        const std::uint32_t id = E->copy_1d(E->l1_base() + 0x200, E->l2_base() + 0x1000, 1000);
        ASSERT_LT(id, 4u);
        EXPECT_EQ(E->rd(NPU_DMA_STATUS), 1u << id) << "busy right after the push";
        E->wr(NPU_DMA_WAIT, id);
        EXPECT_EQ(E->rd(NPU_DMA_STATUS), 0u);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 0u);
        auto got = E->peek(E->l1_base() + 0x200, 1008);
        expect_bytes({got.begin(), got.begin() + 1000}, src, "1-D copy");
        for (unsigned i = 1000; i < 1008; ++i) EXPECT_EQ(got[i], 0xEE) << "written past the end at " << i;
        ASSERT_EQ(E->done.size(), 1u);
        EXPECT_EQ(E->done[0].first, id);
    });
}

TEST(Dma, Copy2DHonoursBothStrides) {
    E->h.run_job([] {
        E->clear();
        // 5 rows of 100 B: source rows 300 B apart in L3, destination rows 128 B apart in L2.
        const unsigned rows = 5, len = 100, ss = 300, ds = 128;
        const auto src = test::pattern(rows * ss, 2);
        E->fill(E->l3_base() + 0x4000, src);
        E->fill(E->l2_base() + 0x8000, std::vector<unsigned char>(rows * ds, 0xEE));
        const std::uint32_t id = E->copy_2d(E->l2_base() + 0x8000, E->l3_base() + 0x4000, len, rows, ss, ds);
        ASSERT_LT(id, 4u);
        E->wr(NPU_DMA_WAIT, id);
        const auto got = E->peek(E->l2_base() + 0x8000, rows * ds);
        std::vector<unsigned char> want(rows * ds, 0xEE);
        for (unsigned r = 0; r < rows; ++r)
            for (unsigned i = 0; i < len; ++i) want[r * ds + i] = src[r * ss + i];
        expect_bytes(got, want, "2-D copy (gaps between rows untouched)");
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 0u);
    });
}

TEST(Dma, Copy3DHonoursEveryStride) {
    E->h.run_job([] {
        E->clear();
        // 3 planes x 4 rows x 20 B; source planes 1000 B apart, rows 50 B;
        // destination planes 96 B apart, rows 24 B (a packed-with-padding tile).
        const unsigned planes = 3, rows = 4, len = 20, ss2 = 50, ss3 = 1000, ds2 = 24, ds3 = 96;
        const auto src = test::pattern(planes * ss3, 3);
        E->fill(E->l2_base() + 0x10000, src);
        E->fill(E->l1_base() + 0x1000, std::vector<unsigned char>(planes * ds3, 0xEE));
        E->wr(NPU_DMA_SRC_STRIDE_3D, ss3);
        E->wr(NPU_DMA_DST_STRIDE_3D, ds3);
        E->wr(NPU_DMA_COUNT_3D, planes);
        E->wr(NPU_DMA_SRC_STRIDE_2D, ss2);
        E->wr(NPU_DMA_DST_STRIDE_2D, ds2);
        E->wr(NPU_DMA_COUNT_2D, rows);
        E->wr(NPU_DMA_SRC, E->l2_base() + 0x10000);
        E->wr(NPU_DMA_DST, E->l1_base() + 0x1000);
        E->wr(NPU_DMA_LEN, len);
        const std::uint32_t id = E->rd(NPU_DMA_PUSH_3D);
        ASSERT_LT(id, 4u);
        E->wr(NPU_DMA_WAIT, id);
        std::vector<unsigned char> want(planes * ds3, 0xEE);
        for (unsigned p = 0; p < planes; ++p)
            for (unsigned r = 0; r < rows; ++r)
                for (unsigned i = 0; i < len; ++i) want[p * ds3 + r * ds2 + i] = src[p * ss3 + r * ss2 + i];
        expect_bytes(E->peek(E->l1_base() + 0x1000, planes * ds3), want, "3-D copy");
        // A 1-D push ignores the 2-D/3-D registers still programmed.
        const auto one = test::pattern(64, 4);
        E->fill(E->l2_base() + 0x20000, one);
        E->wr(NPU_DMA_WAIT, E->copy_1d(E->l1_base() + 0x3000, E->l2_base() + 0x20000, 64));
        expect_bytes(E->peek(E->l1_base() + 0x3000, 64), one, "1-D after 3-D");
    });
}

TEST(Dma, SeveralOutstandingTransfersWithPerIdWait) {
    E->h.run_job([] {
        E->clear();
        // Four transfers in flight at once, of very different lengths.
        const unsigned len[4] = {4096, 64, 1024, 200};
        std::uint32_t id[4];
        std::vector<unsigned char> src[4];
        for (unsigned k = 0; k < 4; ++k) {
            src[k] = test::pattern(len[k], 10 + k);
            E->fill(E->l2_base() + 0x40000 + k * 0x2000, src[k]);
        }
        for (unsigned k = 0; k < 4; ++k)
            id[k] = E->copy_1d(E->l1_base() + 0x8000 + k * 0x2000, E->l2_base() + 0x40000 + k * 0x2000, len[k]);
        for (unsigned k = 0; k < 4; ++k)
            for (unsigned j = 0; j < k; ++j) EXPECT_NE(id[k], id[j]) << "ids must be distinct while in flight";
        EXPECT_EQ(E->rd(NPU_DMA_STATUS), (1u << id[0]) | (1u << id[1]) | (1u << id[2]) | (1u << id[3]));
        // Waiting for the short one returns while the 4 KiB one is still moving.
        E->wr(NPU_DMA_WAIT, id[1]);
        const std::uint32_t st = E->rd(NPU_DMA_STATUS);
        EXPECT_EQ(st & (1u << id[1]), 0u);
        EXPECT_NE(st & (1u << id[0]), 0u) << "the 4 KiB transfer cannot be done yet";
        expect_bytes(E->peek(E->l1_base() + 0x8000 + 0x2000, 64), src[1], "short transfer");
        // Every channel busy: a fifth push waits for a channel and reuses its id.
        const auto extra = test::pattern(128, 20);
        E->fill(E->l2_base() + 0x50000, extra);
        const std::uint32_t id5 = E->copy_1d(E->l1_base() + 0x10000, E->l2_base() + 0x50000, 128);
        ASSERT_LT(id5, 4u);
        for (unsigned k = 0; k < 4; ++k) E->wr(NPU_DMA_WAIT, id[k]);
        E->wr(NPU_DMA_WAIT, id5);
        EXPECT_EQ(E->rd(NPU_DMA_STATUS), 0u);
        for (unsigned k = 0; k < 4; ++k)
            expect_bytes(E->peek(E->l1_base() + 0x8000 + k * 0x2000, len[k]), src[k], "outstanding transfer");
        expect_bytes(E->peek(E->l1_base() + 0x10000, 128), extra, "fifth transfer");
        EXPECT_EQ(E->done.size(), 5u);
    });
}

// Closed-form timing (dma_env.h: 1 ns cycles, no hop, L3 4 B/cycle, L2 8 B/cycle,
// latency 1, 64 B bursts, burst latency 2, no startup latency, 4 bursts
// outstanding). One burst: read from L3 = 64/4 = 16 cycles, write to L2 =
// 64/8 = 8 cycles. The reads are issued 2 cycles apart and the L3 port
// serves them back to back, so a transfer of n bursts alone takes
// n * 16 + 8 (the burst latency hides behind the port).
TEST(Dma, TimingOfOneTransferIsExact) {
    E->h.run_job([] {
        E->clear();
        E->fill(E->l3_base(), test::pattern(256, 5));
        const std::uint64_t busy0 = E->stat("busy_cycles");
        const std::uint64_t bytes0 = E->stat("bytes_l3_to_l2");
        const sc_time t0 = now();
        const std::uint32_t id = E->copy_1d(E->l2_base(), E->l3_base(), 256);
        E->wr(NPU_DMA_WAIT, id);
        EXPECT_EQ(now() - t0, sc_time(4 * 16 + 8, SC_NS));
        ASSERT_EQ(E->done.size(), 1u);
        EXPECT_EQ(E->done[0].second - t0, sc_time(72, SC_NS));
        EXPECT_EQ(E->stat("busy_cycles") - busy0, 72u);
        EXPECT_EQ(E->stat("bytes_l3_to_l2") - bytes0, 256u);
    });
}

// An initiator running ahead of SystemC time (temporal decoupling): the
// transfer starts at the pusher's local time, and WAIT first synchronises
// the waiter, then returns when the transfer ended.
TEST(Dma, PushStartsAtThePushersLocalTime) {
    E->h.run_job([] {
        E->clear();
        E->fill(E->l3_base() + 0x800, test::pattern(256, 9));
        E->wr(NPU_DMA_SRC, E->l3_base() + 0x800);
        E->wr(NPU_DMA_DST, E->l2_base() + 0x800);
        E->wr(NPU_DMA_LEN, 256);
        const sc_time t0 = now();
        sc_time ahead(100, SC_NS);
        std::uint32_t id = 0;
        ASSERT_EQ(E->h.master(0).read(E->base + NPU_DMA_PUSH_1D, id, ahead), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(now(), t0) << "a push does not block";
        sc_time d(150, SC_NS);
        ASSERT_EQ(E->h.master(0).write(E->base + NPU_DMA_WAIT, id, d), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(E->done.size(), 1u);
        EXPECT_EQ(E->done[0].second - t0, sc_time(100 + 72, SC_NS));
        EXPECT_EQ(now() - t0, sc_time(172, SC_NS));
        EXPECT_EQ(d, sc_core::SC_ZERO_TIME) << "the waiter's offset was consumed by the synchronisation";
    });
}

// Two channels, both L3 -> L2, pushed together: the L3 port serialises their
// 8 reads back to back (16 cycles each, from cycle 0: both channels issue
// their reads at once), writes to L2 never collide. The last read ends at
// 8 * 16 = 128, its write at 136; the other channel's last read one read
// earlier, so it ends at 120. Alone, each would take 72 (test above).
TEST(Dma, TwoChannelsOnOnePortContend) {
    E->h.run_job([] {
        E->clear();
        E->fill(E->l3_base(), test::pattern(512, 6));
        const std::uint64_t busy0 = E->stat("busy_cycles");
        const sc_time t0 = now();
        const std::uint32_t a = E->copy_1d(E->l2_base(), E->l3_base(), 256);
        const std::uint32_t b = E->copy_1d(E->l2_base() + 0x1000, E->l3_base() + 256, 256);
        E->wr(NPU_DMA_WAIT, a);
        E->wr(NPU_DMA_WAIT, b);
        ASSERT_EQ(E->done.size(), 2u);
        const sc_time first = std::min(E->done[0].second, E->done[1].second) - t0;
        const sc_time last = std::max(E->done[0].second, E->done[1].second) - t0;
        EXPECT_EQ(first, sc_time(120, SC_NS));
        EXPECT_EQ(last, sc_time(136, SC_NS));
        EXPECT_EQ(E->stat("busy_cycles") - busy0, 136u);
        const auto src = test::pattern(512, 6);
        expect_bytes(E->peek(E->l2_base(), 256), {src.begin(), src.begin() + 256}, "channel a");
        expect_bytes(E->peek(E->l2_base() + 0x1000, 256), {src.begin() + 256, src.end()}, "channel b");
    });
}

TEST(Dma, UnmappedDestinationAbortsWithErrorStatus) {
    E->h.run_job([] {
        E->clear();
        // The failed-L1-allocation bug: a tile base of NULL plus an offset.
        E->fill(E->l2_base(), test::pattern(128, 7));
        const std::uint64_t errors0 = E->stat("errors");
        const std::uint32_t id = E->copy_1d(0x40, E->l2_base(), 128);
        ASSERT_LT(id, 4u);
        E->wr(NPU_DMA_WAIT, id);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 1u << id);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR_ADDR), 0x40u);
        const std::uint32_t info = E->rd(NPU_DMA_ERROR_INFO);
        EXPECT_EQ(NPU_DMA_ERR_ID(info), id);
        EXPECT_EQ(NPU_DMA_ERR_SIDE(info), NPU_DMA_SIDE_DST);
        EXPECT_EQ(NPU_DMA_ERR_CAUSE(info), NPU_DMA_CAUSE_BUS);
        ASSERT_EQ(E->errors.size(), 1u);
        EXPECT_EQ(E->errors[0].first, id);
        EXPECT_TRUE(E->done.empty()) << "a failed transfer is not 'done'";
        EXPECT_EQ(E->stat("errors") - errors0, 1u);
        EXPECT_EQ(E->rd(NPU_DMA_STATUS), 0u);
        // Write-1-to-clear.
        E->wr(NPU_DMA_ERROR, 1u << id);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 0u);
        EXPECT_TRUE(E->bus_errors.empty()) << "on_error=report must not stop the run";
    });
}

TEST(Dma, ErrorInTheMiddleNamesTheExactAddress) {
    E->h.run_job([] {
        E->clear();
        // Rows 256 B apart at the destination; row 2 starts 16 B before the
        // end of L2, so its first burst straddles the end: rows 0 and 1 land.
        const std::uint32_t l2_end = E->l2_base() + static_cast<std::uint32_t>(E->l2->size());
        const std::uint32_t dst = l2_end - 16 - 2 * 256;
        const auto src = test::pattern(3 * 32, 8);
        E->fill(E->l1_base() + 0x400, src);
        const std::uint32_t id = E->copy_2d(dst, E->l1_base() + 0x400, 32, 3, 32, 256);
        E->wr(NPU_DMA_WAIT, id);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 1u << id);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR_ADDR), l2_end - 16);
        EXPECT_EQ(NPU_DMA_ERR_SIDE(E->rd(NPU_DMA_ERROR_INFO)), NPU_DMA_SIDE_DST);
        expect_bytes(E->peek(dst, 32), {src.begin(), src.begin() + 32}, "row 0 before the fault");
        expect_bytes(E->peek(dst + 256, 32), {src.begin() + 32, src.begin() + 64}, "row 1 before the fault");
    });
}

TEST(Dma, NotVisibleSourceAbortsOnTheSourceSide) {
    E->h.run_job([] {
        E->clear();
        // The DMA's masters may not read cluster_periph (visibility.dma).
        const std::uint32_t src = E->cfg.address("cluster_periph.base");
        ASSERT_NE(E->map.lookup(cfg::initiator_class::dma, src).describe().find("not visible"), std::string::npos);
        const std::uint32_t id = E->copy_1d(E->l1_base(), src, 16);
        E->wr(NPU_DMA_WAIT, id);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 1u << id);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR_ADDR), src);
        EXPECT_EQ(NPU_DMA_ERR_SIDE(E->rd(NPU_DMA_ERROR_INFO)), NPU_DMA_SIDE_SRC);
        ASSERT_EQ(E->errors.size(), 1u);
    });
}

TEST(Dma, ZeroCountIsRefusedAtPush) {
    E->h.run_job([] {
        E->clear();
        const std::uint64_t refused0 = E->stat("refused"), transfers0 = E->stat("transfers");
        E->wr(NPU_DMA_SRC, E->l2_base());
        E->wr(NPU_DMA_DST, E->l1_base());
        E->wr(NPU_DMA_LEN, 16);
        E->wr(NPU_DMA_COUNT_2D, 0);
        EXPECT_EQ(E->rd(NPU_DMA_PUSH_2D), NPU_DMA_REFUSED);
        EXPECT_EQ(NPU_DMA_ERR_CAUSE(E->rd(NPU_DMA_ERROR_INFO)), NPU_DMA_CAUSE_DESC);
        EXPECT_EQ(E->rd(NPU_DMA_STATUS), 0u);
        EXPECT_EQ(E->stat("refused") - refused0, 1u);
        EXPECT_EQ(E->stat("transfers") - transfers0, 0u);
    });
}

// The 3-D count's own zero check (issue 14: only the 2-D one was tried), and
// that a refused push leaves the destination untouched.
TEST(Dma, ZeroCount3DIsRefusedAtPush) {
    E->h.run_job([] {
        E->clear();
        const std::uint64_t refused0 = E->stat("refused"), transfers0 = E->stat("transfers");
        E->fill(E->l1_base() + 0x2000, std::vector<unsigned char>(16, 0xEE));
        E->fill(E->l2_base() + 0x2000, test::pattern(16, 5));
        E->wr(NPU_DMA_SRC, E->l2_base() + 0x2000);
        E->wr(NPU_DMA_DST, E->l1_base() + 0x2000);
        E->wr(NPU_DMA_LEN, 16);
        E->wr(NPU_DMA_COUNT_2D, 1);
        E->wr(NPU_DMA_COUNT_3D, 0);
        EXPECT_EQ(E->rd(NPU_DMA_PUSH_3D), NPU_DMA_REFUSED);
        EXPECT_EQ(NPU_DMA_ERR_CAUSE(E->rd(NPU_DMA_ERROR_INFO)), NPU_DMA_CAUSE_DESC);
        EXPECT_EQ(E->stat("refused") - refused0, 1u);
        EXPECT_EQ(E->stat("transfers") - transfers0, 0u);
        expect_bytes(E->peek(E->l1_base() + 0x2000, 16), std::vector<unsigned char>(16, 0xEE), "refused push");
        E->wr(NPU_DMA_COUNT_3D, 1);
    });
}

TEST(Dma, ZeroLengthCompletesAtOnce) {
    E->h.run_job([] {
        E->clear();
        const std::uint64_t bytes0 = E->stat("bytes");
        const sc_time t0 = now();
        const std::uint32_t id = E->copy_1d(E->l1_base(), E->l2_base(), 0);
        ASSERT_LT(id, 4u);
        E->wr(NPU_DMA_WAIT, id);
        EXPECT_EQ(now(), t0);
        ASSERT_EQ(E->done.size(), 1u);
        EXPECT_EQ(E->stat("bytes") - bytes0, 0u);
    });
}

TEST(Dma, BadRegisterAccessesAreBusErrors) {
    E->h.run_job([] {
        E->clear();
        const std::uint64_t transfers0 = E->stat("transfers");
        sc_time d = sc_core::SC_ZERO_TIME;
        std::uint32_t v = 0;
        std::uint8_t b = 0;
        auto& m = E->h.master(0);
        EXPECT_EQ(m.read(E->base + 0x800, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE) << "unclaimed offset";
        EXPECT_EQ(m.read(E->base + NPU_DMA_STATUS, b, d), tlm::TLM_COMMAND_ERROR_RESPONSE) << "byte access";
        EXPECT_EQ(E->wr_status(NPU_DMA_PUSH_1D, 1), tlm::TLM_COMMAND_ERROR_RESPONSE) << "write to a read-only PUSH";
        EXPECT_EQ(m.read(E->base + NPU_DMA_WAIT, v, d), tlm::TLM_COMMAND_ERROR_RESPONSE) << "read of write-only WAIT";
        EXPECT_EQ(E->wr_status(NPU_DMA_STATUS, 0), tlm::TLM_COMMAND_ERROR_RESPONSE) << "write to read-only STATUS";
        EXPECT_EQ(E->wr_status(NPU_DMA_WAIT, 4), tlm::TLM_COMMAND_ERROR_RESPONSE) << "WAIT on an id that is no channel";
        EXPECT_EQ(E->rd(NPU_DMA_CHANNELS), 4u);
        EXPECT_EQ(E->stat("transfers") - transfers0, 0u) << "no access above may have pushed";
    });
}

TEST(Dma, MemcheckNamesTheDmaAndThePcThatProgrammedIt) {
    E->h.run_job([] {
        E->clear();
        // "Weights never loaded": an L2 buffer nobody wrote, copied to L1.
        E->h.master(0).set_pc(0x1c000abc);
        const std::uint32_t id = E->copy_1d(E->l1_base(), E->l2_base() + 0x30000, 64);
        E->wr(NPU_DMA_WAIT, id);
        ASSERT_EQ(E->findings.size(), 1u);
        const auto& f = E->findings[0];
        ASSERT_NE(f.who, nullptr);
        EXPECT_EQ(f.who->cls, static_cast<int>(cfg::initiator_class::dma));
        EXPECT_EQ(f.who->name, "dma.ch" + std::to_string(id));
        EXPECT_TRUE(f.has_pc);
        EXPECT_EQ(f.pc, 0x1c000abcu);
        EXPECT_EQ(f.address, E->l2_base() + 0x30000);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 0u) << "memcheck=warn: the copy itself succeeds";
    });
}

// A channel runs ahead of SystemC time between bursts while no hart is
// awake and nothing else is scheduled (dma.cpp, wait_unless_alone): that
// must change no time, byte, status or statistic. The same transfers run
// with a hart counted awake (a wait before every burst, as before the
// run-ahead) and without; every done and error pulse, the error registers,
// the bytes landed and the busy cycles must match.
TEST(Dma, RunningAheadBetweenBurstsChangesNothing) {
    struct outcome {
        std::vector<std::pair<unsigned, sc_time>> done, errors;
        std::uint32_t error_mask = 0, error_addr = 0;
        std::vector<unsigned char> l2, l1;
        std::uint64_t busy = 0, bursts = 0;
    };
    auto scenario = [](unsigned awake) {
        outcome o;
        E->h.run_job([&] {
            E->clear();
            unsigned& harts = E->engine->context().harts_awake;
            const unsigned before = harts;
            harts = awake;
            E->wr(NPU_DMA_ERROR, 0xFu);
            const std::uint64_t busy0 = E->stat("busy_cycles"), bursts0 = E->stat("bursts");
            E->fill(E->l3_base() + 0x4000, test::pattern(1024, 21));
            E->fill(E->l1_base() + 0x2000, test::pattern(3 * 32, 22));
            E->fill(E->l2_base() + 0xC000, test::pattern(1024, 25));
            const sc_time t0 = now();
            // Two channels contending for the L3 port, a 2-D copy from L1,
            // a 2-D copy whose third row runs off the end of L2, and one into
            // L1 (its bursts book the L1 banks) that reads the L1 rows the
            // 2-D copies read.
            const std::uint32_t l2_end = E->l2_base() + static_cast<std::uint32_t>(E->l2->size());
            const std::uint32_t a = E->copy_1d(E->l2_base() + 0x8000, E->l3_base() + 0x4000, 512);
            const std::uint32_t b = E->copy_1d(E->l2_base() + 0x9000, E->l3_base() + 0x4200, 512);
            const std::uint32_t c = E->copy_2d(E->l2_base() + 0xA000, E->l1_base() + 0x2000, 32, 3, 32, 256);
            const std::uint32_t d = E->copy_2d(l2_end - 16 - 2 * 256, E->l1_base() + 0x2000, 32, 3, 32, 256);
            const std::uint32_t e = E->copy_1d(E->l1_base() + 0x2040, E->l2_base() + 0xC000, 1024);
            for (std::uint32_t id : {a, b, c, d, e}) E->wr(NPU_DMA_WAIT, id);
            for (auto [id, at] : E->done) o.done.emplace_back(id, at - t0);
            for (auto [id, at] : E->errors) o.errors.emplace_back(id, at - t0);
            o.error_mask = E->rd(NPU_DMA_ERROR);
            o.error_addr = E->rd(NPU_DMA_ERROR_ADDR);
            o.l2 = E->peek(E->l2_base() + 0x8000, 0x2100);
            o.l1 = E->peek(E->l1_base() + 0x2000, 0x440);
            o.busy = E->stat("busy_cycles") - busy0;
            o.bursts = E->stat("bursts") - bursts0;
            harts = before;
        });
        return o;
    };
    const outcome waiting = scenario(1), ahead = scenario(0);
    ASSERT_EQ(waiting.done.size(), 4u);
    ASSERT_EQ(waiting.errors.size(), 1u);
    EXPECT_EQ(ahead.done, waiting.done);
    EXPECT_EQ(ahead.errors, waiting.errors);
    EXPECT_EQ(ahead.error_mask, waiting.error_mask);
    EXPECT_EQ(ahead.error_addr, waiting.error_addr);
    EXPECT_EQ(ahead.busy, waiting.busy);
    EXPECT_EQ(ahead.bursts, waiting.bursts);
    expect_bytes(ahead.l2, waiting.l2, "L2 after both runs");
    expect_bytes(ahead.l1, waiting.l1, "L1 after both runs");
}

// Memcheck checks every push against the transfers in flight row by row: a
// 2-D transfer in flight lists only its rows' bounds, and its rows are
// looked at only when a write falls inside those bounds. A write between
// its destination rows is no finding; one into a row is, naming the row.
TEST(Dma, PushIntoTheGapsOfA2DTransferInFlightIsNoFinding) {
    E->h.run_job([] {
        E->clear();
        // As platform::soc wires it (there with the SA's job too).
        auto& svc = E->engine->context().services;
        svc.buffers_in_use = [](const sc_time&) {
            std::vector<base::buffer_use> uses;
            E->engine->in_flight_uses(uses);
            return uses;
        };
        E->fill(E->l3_base() + 0x6000, test::pattern(4 * 64, 23));
        E->fill(E->l2_base() + 0x20000, test::pattern(64, 24));
        // Four 64 B rows from L3 (slow: 4 B/cycle), 256 B apart in L2.
        const std::uint32_t rows = E->l2_base() + 0x10000;
        const std::uint32_t slow = E->copy_2d(rows, E->l3_base() + 0x6000, 64, 4, 64, 256);
        const std::uint32_t gap = E->copy_1d(rows + 64, E->l2_base() + 0x20000, 64);
        EXPECT_TRUE(E->findings.empty()) << "a write between the rows in flight";
        const std::uint32_t into = E->copy_1d(rows + 2 * 256 + 8, E->l2_base() + 0x20000, 16);
        for (std::uint32_t id : {slow, gap, into}) E->wr(NPU_DMA_WAIT, id);
        ASSERT_EQ(E->findings.size(), 1u);
        const auto& f = E->findings[0];
        EXPECT_TRUE(f.in_use);
        EXPECT_EQ(f.address, rows + 2 * 256 + 8);
        EXPECT_EQ(f.size, 16u);
        EXPECT_NE(f.context.find("its dst [0x"), std::string::npos) << f.context;
        svc.buffers_in_use = nullptr;
    });
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    test::dma_env e({"dma.on_error=report", "dma.allow_l3_l1=true"});
    E = &e;
    return RUN_ALL_TESTS();
}
