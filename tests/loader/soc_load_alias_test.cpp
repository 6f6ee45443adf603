// Loading through the alias window (silicon that mirrors L1 at 0, with the
// loader among the initiators that see it): a segment is bounded by the
// window onto its target, measured from its offset in the target — not by
// the target's own end address, which an alias address never reaches.
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

npu::platform::soc* S;
constexpr std::uint32_t kWindow = 64 * 1024;  // alias.size: half of the 128 KiB L1

std::string tmp(const std::string& n) { return npu::test::temp_path(n); }

elf_writer with_code() {
    elf_writer w;
    w.entry = 0x1C000000;
    w.segs.push_back({0x1C000000, {0x13, 0, 0, 0}, 4});
    return w;
}

}  // namespace

TEST(SocLoadAlias, SegmentEndingAtTheWindowsEndLoadsThroughTheAlias) {
    elf_writer w = with_code();
    w.segs.push_back({kWindow - 16, std::vector<unsigned char>(8, 0xA5), 16, 6});
    ASSERT_NO_THROW(S->load(elf_image::load(w.write(tmp("alias_edge.elf")))));
    // It landed in L1 at the same offset.
    unsigned char b[4] = {};
    ASSERT_EQ(S->debug_read(0x10000000 + kWindow - 16, b, 4), 4u);
    EXPECT_EQ(b[0], 0xA5);
}

TEST(SocLoadAlias, OneBytePastTheWindowIsRefusedNamingTheWindow) {
    elf_writer w = with_code();
    w.segs.push_back({kWindow - 16, std::vector<unsigned char>(8, 1), 17, 6});
    try {
        S->load(elf_image::load(w.write(tmp("alias_past.elf"))));
        ADD_FAILURE() << "a segment one byte past the alias window loaded";
    } catch (const elf_error& e) {
        const std::string m = e.what();
        for (const char* f : {"segment 1", "runs 1 bytes past the end of the alias window onto l1", "64 KiB"})
            EXPECT_NE(m.find(f), std::string::npos) << "'" << f << "' not in: " << m;
    }
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    auto cfg = npu::cfg::config::load("", {"soc.memcheck=warn", "alias.enable=true", "alias.base=0x0",
                                           "alias.size=64KiB", "alias.target=l1", "alias.initiators=core,loader"});
    npu::platform::soc soc("soc", cfg);
    S = &soc;
    return RUN_ALL_TESTS();
}
