// The ELF reader: a good image (entry, segments, zero-fill size, symbols),
// and every malformed input gives an elf_error naming what is wrong.
#include "elf_image.h"
#include "elf_writer.h"
#include "util/temp_path.h"

#include <gtest/gtest.h>

#include <cstring>
#include <unistd.h>

using npu::platform::elf_error;
using npu::platform::elf_image;
using npu::test::elf_writer;

namespace {

std::string tmp(const std::string& name) { return npu::test::temp_path(name); }

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

TEST(ElfImage, MissingFile) { expect_error(tmp("does_not_exist.elf"), "cannot open ELF file"); }

// Regression (issue 14): /dev/zero was read without limit; a directory or a
// device is refused before any byte is read.
TEST(ElfImage, NotARegularFile) {
    expect_error("/dev/zero", "not a regular file");
    expect_error(::testing::TempDir(), "is a directory");
}

// Regression (issue 14): p_memsz = 0 with file bytes skipped the p_filesz
// check and loaded nothing; the run then hit an illegal instruction.
TEST(ElfImage, FileBytesInZeroMemSize) {
    auto w = good();
    w.segs[1].mem_size = 0;
    expect_error(w.write(tmp("memsz0.elf")), "file size 4 exceeds memory size 0");
}

// Regression (issue 14): an entry point outside the loaded bytes, or in a
// segment without PF_X, failed only at the first fetch.
TEST(ElfImage, EntryPointChecked) {
    auto w = good();
    w.entry = 0;
    expect_error(w.write(tmp("entry0.elf")), "entry point 0x00000000 is not in the file bytes");
    w.entry = 0x1C000040;  // one byte past segment 0's last byte
    expect_error(w.write(tmp("entry_end.elf")), "entry point 0x1c000040 is not in the file bytes");
    w.entry = 0x1C001000;
    expect_error(w.write(tmp("entry_data.elf")), "not executable");
    w.entry = 0x1C00003C;  // the last instruction of segment 0
    EXPECT_NO_THROW(elf_image::load(w.write(tmp("entry_last.elf"))));
}

// Regression (issue 14): a bad e_shstrndx was accepted silently.
TEST(ElfImage, BadSectionNameIndex) {
    auto w = good();
    w.shstrndx = 9;
    expect_error(w.write(tmp("shstrndx.elf")), "e_shstrndx 9 is not a section");
    w.shstrndx = 0;
    expect_error(w.write(tmp("shstrndx0.elf")), "e_shstrndx is 0");
}

// Found by fuzz_elf: a 512-byte ELF whose symbol table claims 100 MB took
// 15 s (its entries iterated one by one) before the run even started.
TEST(ElfImage, SectionPastTheEndOfTheFile) {
    auto w = good();
    auto b = w.bytes();
    std::uint32_t shoff;
    std::memcpy(&shoff, &b[32], 4);
    const std::uint32_t huge = 0x6000040;
    std::memcpy(&b[shoff + 2 * 40 + 20], &huge, 4);  // section 2 (.symtab): sh_size
    std::string p = tmp("symtab_huge.elf");
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    expect_error(p, "section 2 [offset");
}

// The segment-bytes check at its edge: one byte short of the last segment's
// bytes is refused, the exact size is accepted.
TEST(ElfImage, SegmentEndsExactlyAtFileEnd) {
    auto w = good();
    w.syms.clear();
    auto b = w.bytes();
    std::string p = tmp("exact.elf");
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    EXPECT_NO_THROW(elf_image::load(p));
    std::string p1 = tmp("short1.elf");
    std::ofstream(p1, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size() - 1));
    expect_error(p1, "past the end of the file");
}

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
    expect_error(p2, "truncated ELF: 30 bytes, less than the 52-byte ELF header");
    // The identification alone ("\x7fELF") was called a 64-bit ELF.
    std::string p3 = tmp("trunc3.elf");
    std::ofstream(p3, std::ios::binary).write("\x7f" "ELF", 4);
    expect_error(p3, "truncated ELF: 4 bytes");
}

TEST(ElfImage, WrongMachine) {
    auto w = good();
    w.machine = 62;  // x86-64
    expect_error(w.write(tmp("x86.elf")), "not RISC-V");
}

TEST(ElfImage, WrongClass) {
    auto w = good();
    w.cls = 2;
    expect_error(w.write(tmp("elf64.elf")), "a 64-bit ELF (ELFCLASS64)");
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
    expect_error(w.write(tmp("filesz.elf")), "file size 4 exceeds memory size 2");
}

TEST(ElfImage, NoLoadableSegment) {
    elf_writer w;
    expect_error(w.write(tmp("empty.elf")), "no loadable segment");
}
