// The DMA channels' FIFO of bursts in flight (base/reuse_fifo.h): first in,
// first out across wrap-arounds and growth, and a slot handed back holds
// the object it held before (a burst's buffer keeps its capacity).
#include "base/reuse_fifo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <random>
#include <vector>

namespace {

TEST(ReuseFifo, StaysFirstInFirstOutAcrossWrapsAndGrowth) {
    npu::base::reuse_fifo<int> fifo;
    std::deque<int> ref;
    std::mt19937 rng(1);
    int next = 0;
    std::size_t most = 0;
    for (int step = 0; step < 200000; ++step) {
        // Mostly a few entries (a channel's depth), now and then up to 100
        // (dma.outstanding is at most 64).
        const std::size_t cap = step % 20000 < 2000 ? 100 : 6;
        if (!ref.empty() && (ref.size() >= cap || rng() % 2)) {
            ASSERT_EQ(fifo.front(), ref.front()) << step;
            fifo.pop();
            ref.pop_front();
        } else {
            fifo.push() = next;
            ref.push_back(next++);
        }
        ASSERT_EQ(fifo.size(), ref.size());
        ASSERT_EQ(fifo.empty(), ref.empty());
        for (std::size_t i = 0; i < ref.size(); i += 7) ASSERT_EQ(fifo[i], ref[i]) << step;
        most = std::max(most, ref.size());
    }
    EXPECT_GE(most, 64u) << "the FIFO never grew past a few doublings";
}

TEST(ReuseFifo, APushHandsBackTheSlotsEarlierObject) {
    npu::base::reuse_fifo<std::vector<unsigned char>> fifo;
    // Two or three bursts in flight at a time, long enough for every slot
    // of the ring to have held one.
    for (int i = 0; i < 40; ++i) {
        fifo.push().assign(256, 1);
        if (fifo.size() == 3) fifo.pop();
    }
    // From then on every push gets a buffer that is still allocated.
    for (int i = 0; i < 40; ++i) {
        std::vector<unsigned char>& b = fifo.push();
        EXPECT_GE(b.capacity(), 256u) << i;
        b.assign(8, 0);
        if (fifo.size() == 3) fifo.pop();
    }
    // clear() keeps the objects too.
    fifo.clear();
    EXPECT_TRUE(fifo.empty());
    EXPECT_GE(fifo.push().capacity(), 256u);
    // Growing moves the live entries in order, their buffers with them.
    fifo.clear();
    for (int i = 0; i < 20; ++i) fifo.push().assign(static_cast<std::size_t>(i + 1), static_cast<unsigned char>(i));
    for (int i = 0; i < 20; ++i) {
        ASSERT_EQ(fifo.front().size(), static_cast<std::size_t>(i + 1));
        EXPECT_EQ(fifo.front()[0], static_cast<unsigned char>(i));
        fifo.pop();
    }
}

}  // namespace

// npu_base links SystemC, whose main() calls sc_main (see slot_calendar_test.cpp).
extern "C" int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
