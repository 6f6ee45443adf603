// Loading ELF segments into the SoC: segments land in the memory they fall
// in (L1, L2, L3), zero-filled tails count as written for memcheck, and a
// segment in a peripheral, outside every memory, or running past the end of
// a memory is refused with a message naming the segment and the region.
#include "elf_writer.h"
#include "soc.h"

#include "memory/memory.h"
#include "util/temp_path.h"

#include <gtest/gtest.h>

#include <unistd.h>

using npu::platform::elf_error;
using npu::platform::elf_image;
using npu::test::elf_writer;

namespace {

npu::cfg::config* C;
npu::platform::soc* S;

std::string tmp(const std::string& n) { return npu::test::temp_path(n); }

void expect_load_error(elf_writer w, const std::string& name, const std::vector<std::string>& fragments) {
    // A code segment with the entry point, so only the segment under test is wrong.
    w.entry = 0x1C000000;
    w.segs.push_back({0x1C000000, {0x13, 0, 0, 0}, 4});
    auto img = elf_image::load(w.write(tmp(name)));
    try {
        S->load(img);
        ADD_FAILURE() << name << " loaded";
    } catch (const elf_error& e) {
        std::string m = e.what();
        for (const auto& f : fragments) EXPECT_NE(m.find(f), std::string::npos) << "'" << f << "' not in: " << m;
    }
}

}  // namespace

TEST(SocLoad, SegmentsLandInL1L2AndL3) {
    elf_writer w;
    w.entry = 0x1C000000;
    w.segs.push_back({0x1C000000, {0x13, 0, 0, 0, 0x6f, 0, 0, 0}, 8});
    w.segs.push_back({0x10000100, {0xAA, 0xBB}, 16, 6});
    w.segs.push_back({0x80000000, {1, 2, 3, 4}, 4, 6});
    auto img = elf_image::load(w.write(tmp("good.elf")));
    S->load(img);
    unsigned char b[8] = {};
    ASSERT_EQ(S->debug_read(0x1C000004, b, 4), 4u);
    EXPECT_EQ(b[0], 0x6f);
    ASSERT_EQ(S->debug_read(0x10000100, b, 4), 4u);
    EXPECT_EQ(b[0], 0xAA);
    EXPECT_EQ(b[2], 0x00);  // zero-filled tail
    ASSERT_EQ(S->debug_read(0x80000000, b, 4), 4u);
    EXPECT_EQ(b[3], 4);
    // The zero-filled tail counts as written: memcheck must not flag .bss.
    EXPECT_TRUE(S->memory_of("l1")->initialized(0x100, 16));
    EXPECT_FALSE(S->memory_of("l1")->initialized(0x110, 4));
}

TEST(SocLoad, SegmentInPeripheralIsRefused) {
    elf_writer w;
    w.segs.push_back({0x1A100000, {1, 2, 3, 4}, 4, 6});
    expect_load_error(w, "periph.elf", {"segment 0", "0x1a100000", "soc_periph", "cannot write", "peripheral"});
}

TEST(SocLoad, SegmentOutsideEveryMemoryIsRefused) {
    elf_writer w;
    w.segs.push_back({0x00000100, {1, 2, 3, 4}, 4, 6});
    expect_load_error(w, "null.elf", {"segment 0", "outside every memory", "unmapped", "below l1"});
}

TEST(SocLoad, SegmentRunningPastTheEndIsRefused) {
    elf_writer w;
    // Starts 16 bytes before the end of the 128 KiB L1 and needs 64.
    w.segs.push_back({0x10000000 + 128 * 1024 - 16, std::vector<unsigned char>(8, 1), 64, 6});
    expect_load_error(w, "past.elf", {"segment 0", "48 bytes past the end of l1", "128 KiB"});
}

// The edge: a segment ending exactly at the end of L1 loads, one byte more is refused.
TEST(SocLoad, SegmentEndingAtTheEndLoadsOneMoreByteIsRefused) {
    elf_writer w;
    w.entry = 0x1C000000;
    w.segs.push_back({0x1C000000, {0x13, 0, 0, 0}, 4});
    w.segs.push_back({0x10000000 + 128 * 1024 - 16, std::vector<unsigned char>(8, 1), 16, 6});
    EXPECT_NO_THROW(S->load(elf_image::load(w.write(tmp("edge.elf")))));
    elf_writer past;
    past.segs.push_back({0x10000000 + 128 * 1024 - 16, std::vector<unsigned char>(8, 1), 17, 6});
    expect_load_error(past, "edge1.elf", {"segment 0", "1 bytes past the end of l1"});
}

// Regression (issue 14): code linked into L3 (which the cores cannot fetch
// from) loaded, then failed at the first fetch.
TEST(SocLoad, CodeTheCoresCannotFetchIsRefused) {
    elf_writer w;
    w.entry = 0x80000000;
    w.segs.push_back({0x80000000, {0x13, 0, 0, 0}, 4});
    auto img = elf_image::load(w.write(tmp("l3code.elf")));
    try {
        S->load(img);
        ADD_FAILURE() << "code in L3 loaded";
    } catch (const elf_error& e) {
        EXPECT_NE(std::string(e.what()).find("not fetchable by the cores"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("l3"), std::string::npos) << e.what();
    }
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    auto cfg = npu::cfg::config::load("", {"soc.memcheck=warn"});
    C = &cfg;
    npu::platform::soc soc("soc", cfg);
    S = &soc;
    return RUN_ALL_TESTS();
}
