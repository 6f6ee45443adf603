// The DMA's default error policy (dma.on_error=stop) and the route
// permission (dma.allow_l3_l1=false): each error stops the run through
// sim_services::bus_error with a report naming the descriptor, the side that
// faulted, the address and who programmed the transfer. A stopped SystemC run
// cannot resume, so each case needs its own process — ctest runs every case
// separately (gtest_discover_tests); run one case at a time by hand.
#include "dma_env.h"

using namespace npu;

namespace {
test::dma_env* E;

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// Pushes from inside the job and returns without waiting: the run stops in
// the DMA's thread (or in the push itself), which no waiting job survives.
void push_and_run(std::function<void()> push) {
    E->h.run_job(std::move(push));
    EXPECT_TRUE(E->ctx.services().stop_requested());
    EXPECT_EQ(E->ctx.services().stop_code(), base::exit_code::bus_error);
}
}  // namespace

TEST(DmaStop, NullBasedDestinationStopsWithTheDescriptor) {
    push_and_run([] {
        E->fill(E->l2_base() + 0x100, test::pattern(256, 1));
        E->h.master(0).set_pc(0x1c000124);
        // A 2-D tile into NULL + 0x40: 4 rows of 64 B, 128 B apart.
        const std::uint32_t id = E->copy_2d(0x40, E->l2_base() + 0x100, 64, 4, 64, 128);
        EXPECT_LT(id, 4u);
    });
    ASSERT_EQ(E->bus_errors.size(), 1u);
    const auto& e = E->bus_errors[0];
    ASSERT_NE(e.who, nullptr);
    EXPECT_TRUE(contains(e.who->name, "dma.ch"));
    EXPECT_EQ(e.who->cls, static_cast<int>(cfg::initiator_class::dma));
    EXPECT_TRUE(e.is_write);
    EXPECT_EQ(e.address, 0x40u);
    EXPECT_EQ(e.size, 64u);
    EXPECT_TRUE(e.has_pc);
    EXPECT_EQ(e.pc, 0x1c000124u);
    EXPECT_TRUE(contains(E->ctx.services().describe_address(e.who->cls, e.address), "unmapped"));
    EXPECT_TRUE(contains(e.context, "destination (write)")) << e.context;
    EXPECT_TRUE(contains(e.context, "src 0x1c000100 -> dst 0x00000040, 64 B per row")) << e.context;
    EXPECT_TRUE(contains(e.context, "4 rows (src stride 64, dst stride 128)")) << e.context;
    EXPECT_TRUE(contains(e.context, "2-D")) << e.context;
    EXPECT_TRUE(contains(e.context, "hart 8")) << e.context;
    EXPECT_TRUE(contains(e.context, "pc 0x1c000124")) << e.context;
    ASSERT_EQ(E->errors.size(), 1u) << "the error event fires before the run stops";
}

TEST(DmaStop, NotVisibleSourceStopsNamingTheSourceSide) {
    const std::uint32_t src = E->cfg.address("cluster_periph.base") + 8;
    push_and_run([src] { E->copy_1d(E->l1_base(), src, 32); });
    ASSERT_EQ(E->bus_errors.size(), 1u);
    const auto& e = E->bus_errors[0];
    EXPECT_FALSE(e.is_write);
    EXPECT_EQ(e.address, src);
    EXPECT_TRUE(contains(E->ctx.services().describe_address(e.who->cls, e.address), "not visible"));
    EXPECT_TRUE(contains(e.context, "source (read)")) << e.context;
    EXPECT_TRUE(contains(e.context, "1-D")) << e.context;
}

TEST(DmaStop, L3ToL1IsRefusedAtPush) {
    std::uint32_t id = 0;
    push_and_run([&id] {
        E->fill(E->l3_base(), test::pattern(64, 2));
        id = E->copy_1d(E->l1_base(), E->l3_base(), 64);
    });
    EXPECT_EQ(id, NPU_DMA_REFUSED);
    ASSERT_EQ(E->bus_errors.size(), 1u);
    const auto& e = E->bus_errors[0];
    EXPECT_EQ(e.who->name, "dma") << "refused before any channel took it";
    EXPECT_TRUE(contains(e.context, "l3 -> l1 direct transfers are not allowed (dma.allow_l3_l1 = false)"))
        << e.context;
    EXPECT_TRUE(contains(e.context, "stage through l2")) << e.context;
    EXPECT_TRUE(contains(e.context, "hart 8")) << e.context;
    EXPECT_EQ(E->stat("transfers"), 0u);
    EXPECT_EQ(E->stat("refused"), 1u);
    const auto dst = E->peek(E->l1_base(), 64);
    EXPECT_EQ(dst, std::vector<unsigned char>(64, 0)) << "nothing moved";
}

TEST(DmaStop, L1ToL3IsRefusedToo) {
    std::uint32_t id = 0;
    push_and_run([&id] {
        E->fill(E->l1_base(), test::pattern(64, 3));
        id = E->copy_1d(E->l3_base() + 0x100, E->l1_base(), 64);
    });
    EXPECT_EQ(id, NPU_DMA_REFUSED);
    ASSERT_EQ(E->bus_errors.size(), 1u);
    EXPECT_TRUE(contains(E->bus_errors[0].context, "l1 -> l3 direct")) << E->bus_errors[0].context;
}

TEST(DmaStop, StagedThroughL2IsAllowed) {
    // The permission forbids only the direct pair: L3 -> L2 -> L1 runs clean.
    E->h.run_job([] {
        const auto src = test::pattern(300, 4);
        E->fill(E->l3_base() + 0x2000, src);
        E->wr(NPU_DMA_WAIT, E->copy_1d(E->l2_base() + 0x2000, E->l3_base() + 0x2000, 300));
        E->wr(NPU_DMA_WAIT, E->copy_1d(E->l1_base() + 0x2000, E->l2_base() + 0x2000, 300));
        EXPECT_EQ(E->peek(E->l1_base() + 0x2000, 300), src);
        EXPECT_EQ(E->rd(NPU_DMA_ERROR), 0u);
    });
    EXPECT_FALSE(E->ctx.services().stop_requested());
    EXPECT_EQ(E->stat("bytes_l3_to_l2"), 300u);
    EXPECT_EQ(E->stat("bytes_l2_to_l1"), 300u);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    test::dma_env e({"dma.on_error=stop", "dma.allow_l3_l1=false"});
    E = &e;
    return RUN_ALL_TESTS();
}
