// Builds small ELF32 files byte by byte so the loader tests control every
// field: good images, and each kind of broken one.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace npu::test {

struct elf_writer {
    struct seg {
        std::uint32_t addr;
        std::vector<unsigned char> data;
        std::uint32_t mem_size;  // >= data.size()
        std::uint32_t flags = 5;  // R+X
    };
    struct sym {
        std::string name;
        std::uint32_t addr, size;
        bool func;
    };
    std::uint16_t machine = 243;  // EM_RISCV
    std::uint8_t cls = 1;         // ELFCLASS32
    std::uint16_t type = 2;       // ET_EXEC
    std::uint32_t entry = 0;
    std::vector<seg> segs;
    std::vector<sym> syms;
    int shstrndx = 4;  // the .shstrtab this writer emits; another value makes a broken ELF

    std::vector<unsigned char> bytes() const {
        std::vector<unsigned char> out(52 + 32 * segs.size(), 0);
        auto put16 = [&](std::size_t o, std::uint16_t v) { std::memcpy(&out[o], &v, 2); };
        auto put32 = [&](std::size_t o, std::uint32_t v) { std::memcpy(&out[o], &v, 4); };
        const unsigned char ident[] = {0x7f, 'E', 'L', 'F', cls, 1, 1, 0};
        std::memcpy(out.data(), ident, sizeof ident);
        put16(16, type);
        put16(18, machine);
        put32(20, 1);
        put32(24, entry);
        put32(28, 52);  // phoff
        put16(40, 52);  // ehsize
        put16(42, 32);  // phentsize
        put16(44, static_cast<std::uint16_t>(segs.size()));
        put16(46, 40);  // shentsize
        std::vector<std::uint32_t> offs;
        for (const auto& s : segs) {
            offs.push_back(static_cast<std::uint32_t>(out.size()));
            out.insert(out.end(), s.data.begin(), s.data.end());
        }
        for (std::size_t i = 0; i < segs.size(); ++i) {
            const std::size_t p = 52 + 32 * i;
            put32(p + 0, 1);  // PT_LOAD
            put32(p + 4, offs[i]);
            put32(p + 8, segs[i].addr);
            put32(p + 12, segs[i].addr);
            put32(p + 16, static_cast<std::uint32_t>(segs[i].data.size()));
            put32(p + 20, segs[i].mem_size);
            put32(p + 24, segs[i].flags);
            put32(p + 28, 4);
        }
        if (!syms.empty()) append_symbols(out);
        return out;
    }

    std::string write(const std::string& name) const {
        std::string path = name;
        auto b = bytes();
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
        return path;
    }

private:
    // Sections: null, .text (covering segment 0, so symbols have a section),
    // .symtab, .strtab, .shstrtab.
    void append_symbols(std::vector<unsigned char>& out) const {
        auto put16 = [&](std::size_t o, std::uint16_t v) { std::memcpy(&out[o], &v, 2); };
        auto put32 = [&](std::size_t o, std::uint32_t v) { std::memcpy(&out[o], &v, 4); };
        std::string strtab(1, '\0');
        std::vector<unsigned char> symtab(16, 0);
        for (const auto& s : syms) {
            std::vector<unsigned char> e(16, 0);
            std::uint32_t name = static_cast<std::uint32_t>(strtab.size());
            strtab += s.name + '\0';
            std::memcpy(&e[0], &name, 4);
            std::memcpy(&e[4], &s.addr, 4);
            std::memcpy(&e[8], &s.size, 4);
            e[12] = static_cast<unsigned char>((1 << 4) | (s.func ? 2 : 1));  // GLOBAL, FUNC/OBJECT
            std::uint16_t shndx = 1;
            std::memcpy(&e[14], &shndx, 2);
            symtab.insert(symtab.end(), e.begin(), e.end());
        }
        const std::string shstr = std::string("\0.text\0.symtab\0.strtab\0.shstrtab\0", 33);
        auto align4 = [&] {
            while (out.size() % 4) out.push_back(0);
        };
        align4();
        const auto symoff = static_cast<std::uint32_t>(out.size());
        out.insert(out.end(), symtab.begin(), symtab.end());
        const auto stroff = static_cast<std::uint32_t>(out.size());
        out.insert(out.end(), strtab.begin(), strtab.end());
        const auto shstroff = static_cast<std::uint32_t>(out.size());
        out.insert(out.end(), shstr.begin(), shstr.end());
        align4();
        const auto shoff = static_cast<std::uint32_t>(out.size());
        out.resize(out.size() + 5 * 40, 0);
        auto sh = [&](int i, std::uint32_t name, std::uint32_t type, std::uint32_t flags, std::uint32_t addr,
                      std::uint32_t off, std::uint32_t size, std::uint32_t link, std::uint32_t info,
                      std::uint32_t entsize) {
            const std::size_t p = shoff + 40 * static_cast<std::size_t>(i);
            put32(p, name);
            put32(p + 4, type);
            put32(p + 8, flags);
            put32(p + 12, addr);
            put32(p + 16, off);
            put32(p + 20, size);
            put32(p + 24, link);
            put32(p + 28, info);
            put32(p + 32, 4);
            put32(p + 36, entsize);
        };
        const seg& s0 = segs.at(0);
        sh(1, 1, 1 /*PROGBITS*/, 6 /*AX*/, s0.addr, 52 + 32 * static_cast<std::uint32_t>(segs.size()),
           static_cast<std::uint32_t>(s0.data.size()), 0, 0, 0);
        sh(2, 7, 2 /*SYMTAB*/, 0, 0, symoff, static_cast<std::uint32_t>(symtab.size()), 3, 1, 16);
        sh(3, 15, 3 /*STRTAB*/, 0, 0, stroff, static_cast<std::uint32_t>(strtab.size()), 0, 0, 0);
        sh(4, 23, 3, 0, 0, shstroff, static_cast<std::uint32_t>(shstr.size()), 0, 0, 0);
        put32(32, shoff);
        put16(48, 5);  // shnum
        put16(50, static_cast<std::uint16_t>(shstrndx));
    }
};

}  // namespace npu::test
