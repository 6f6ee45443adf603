// The ELF reader: a good image (entry, segments, zero-fill size, symbols),
// and every malformed input gives an elf_error naming what is wrong.
#include "elf_image.h"
#include "elf_writer.h"

#include <gtest/gtest.h>

#include <unistd.h>

using npu::platform::elf_error;
using npu::platform::elf_image;
using npu::test::elf_writer;

namespace {

std::string tmp(const std::string& name) { return ::testing::TempDir() + "/" + std::to_string(getpid()) + "_" + name; }

elf_writer good() {
    elf_writer w;
    w.entry = 0x1C000000;
    w.segs.push_back({0x1C000000, std::vector<unsigned char>(64, 0x13), 64});
    w.segs.push_back({0x1C001000, {1, 2, 3, 4}, 256, 6});
    w.syms.push_back({"main", 0x1C000000, 32, true});
    w.syms.push_back({"helper", 0x1C000020, 32, true});
    w.syms.push_back({"weights", 0x1C001000, 256, false});
    return w;
}

void expect_error(const std::string& path, const std::string& fragment) {
    try {
        elf_image::load(path);
        ADD_FAILURE() << "no error for " << path;
    } catch (const elf_error& e) {
        std::string m = e.what();
        EXPECT_NE(m.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << m;
        EXPECT_NE(m.find(path), std::string::npos) << "path not in: " << m;
    }
}

}  // namespace

TEST(ElfImage, GoodImage) {
    auto img = elf_image::load(good().write(tmp("good.elf")));
    EXPECT_EQ(img.entry(), 0x1C000000u);
    ASSERT_EQ(img.segments().size(), 2u);
    EXPECT_EQ(img.segments()[1].address, 0x1C001000u);
    EXPECT_EQ(img.segments()[1].bytes.size(), 4u);
    EXPECT_EQ(img.segments()[1].mem_size, 256u);
    EXPECT_EQ(img.symbolize(0x1C000024), "helper+0x4");
    EXPECT_EQ(img.symbolize(0x1C000000), "main");
    EXPECT_EQ(img.symbolize(0x1C001010), "weights+0x10");
    EXPECT_EQ(img.symbolize(0x10000000), "");
    ASSERT_TRUE(img.symbol_address("weights").has_value());
    EXPECT_EQ(*img.symbol_address("weights"), 0x1C001000u);
}

TEST(ElfImage, MissingFile) { expect_error(tmp("does_not_exist.elf"), "cannot read"); }

TEST(ElfImage, NotAnElf) {
    std::string p = tmp("text.elf");
    std::ofstream(p) << "hello, I am not an ELF file at all";
    expect_error(p, "not an ELF");
}

TEST(ElfImage, Truncated) {
    auto b = good().bytes();
    std::string p = tmp("trunc.elf");
    // Keep the headers, cut into the first segment's bytes.
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), 52 + 64 + 10);
    expect_error(p, "past the end of the file");
    std::string p2 = tmp("trunc2.elf");
    std::ofstream(p2, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), 30);
    try {
        elf_image::load(p2);
        ADD_FAILURE() << "30-byte ELF accepted";
    } catch (const elf_error&) {
    }
}

TEST(ElfImage, WrongMachine) {
    auto w = good();
    w.machine = 62;  // x86-64
    expect_error(w.write(tmp("x86.elf")), "not RISC-V");
}

TEST(ElfImage, WrongClass) {
    auto w = good();
    w.cls = 2;
    expect_error(w.write(tmp("elf64.elf")), "not a 32-bit ELF");
}

TEST(ElfImage, NotExecutable) {
    auto w = good();
    w.type = 1;  // ET_REL: an object file, not linked
    expect_error(w.write(tmp("rel.elf")), "not an executable");
}

TEST(ElfImage, OverlappingSegments) {
    auto w = good();
    w.segs.push_back({0x1C000020, {9, 9, 9, 9}, 4});
    expect_error(w.write(tmp("overlap.elf")), "overlap");
}

TEST(ElfImage, FileSizeBeyondMemSize) {
    auto w = good();
    w.segs[1].mem_size = 2;
    expect_error(w.write(tmp("filesz.elf")), "file size exceeds memory size");
}

TEST(ElfImage, NoLoadableSegment) {
    elf_writer w;
    expect_error(w.write(tmp("empty.elf")), "no loadable segment");
}
