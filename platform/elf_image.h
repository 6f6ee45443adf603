// A firmware ELF as npusim needs it: validated loadable segments, symbols
// for reports, and DWARF line tables for file:line. Parsed with LLVM's
// Object library; every problem is an elf_error naming the file and what is
// wrong, which npusim maps to the bad-input exit code.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class DWARFContext;
}

namespace npu::platform {

class elf_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct elf_segment {
    int index;                   // program header index, for messages
    std::uint32_t address;       // load address (p_paddr)
    std::uint32_t mem_size;
    std::vector<unsigned char> bytes;  // file contents (file_size bytes); the rest is zero-filled
    bool executable;
};

struct elf_symbol {
    std::string name;
    std::uint32_t address;
    std::uint32_t size;
    bool function;
};

class elf_image {
public:
    static elf_image load(const std::string& path);  // throws elf_error
    elf_image(elf_image&&) noexcept;
    elf_image& operator=(elf_image&&) noexcept;
    ~elf_image();

    const std::string& path() const { return path_; }
    std::uint32_t entry() const { return entry_; }
    const std::vector<elf_segment>& segments() const { return segments_; }
    const std::vector<elf_symbol>& symbols() const { return symbols_; }  // sorted by address
    std::optional<std::uint32_t> symbol_address(const std::string& name) const;
    // Address ranges of `*noinit*` NOBITS sections: inside a segment's
    // zero-filled tail, but left untouched by the loader so that memcheck
    // still sees them as never written (buffers a DMA fills at run time).
    struct range {
        std::uint32_t address, size;
    };
    const std::vector<range>& noinit() const { return noinit_; }

    // Absolute (section-less) symbols, e.g. the platform layout constants
    // the linker script defines (__npu_l1_size, __npu_nb_workers, ...).
    std::optional<std::uint32_t> absolute_symbol(const std::string& name) const;

    // "name+0x1c" for the symbol covering `addr` (or the nearest one below
    // it within 64 KiB), "" when none.
    std::string symbolize(std::uint32_t addr) const;
    // "file.c:12" from DWARF, "" when the ELF has no line info for addr.
    // Inside inlined code the caller's line comes first, then the inlined
    // frames outermost first: "main.c:33, in inlined npu_dma_copy_1d at
    // npu_dma.h:58" (the line the user wrote, then where in the helper).
    std::string source_line(std::uint32_t addr) const;
    // The ELF's DWARF (line tables, inlining, call-frame information), or
    // null without debug information: fault reports unwind and symbolize with it.
    llvm::DWARFContext* dwarf_context() const;
    // The bytes of the .debug_frame section ("" without one): call-frame
    // information read without LLVM (cfi.h).
    std::string_view debug_frame() const { return debug_frame_; }
    // Whether the ELF has an .eh_frame section (call-frame information
    // only LLVM's DWARF reads).
    bool has_eh_frame() const { return has_eh_frame_; }
    // The ISA the ELF was built for: its .riscv.attributes' Tag_RISCV_arch
    // ("rv32i2p1_m2p0_..._xcvalu1p0"); empty if it has none.
    const std::string& arch() const { return arch_; }

private:
    elf_image();
    struct dwarf;
    std::string path_;
    std::uint32_t entry_ = 0;
    std::vector<elf_segment> segments_;
    std::vector<elf_symbol> symbols_;
    std::vector<range> noinit_;
    std::vector<std::pair<std::string, std::uint32_t>> absolute_;
    std::unique_ptr<dwarf> dwarf_;
    std::string_view debug_frame_;  // inside dwarf_'s buffer
    bool has_eh_frame_ = false;
    std::string arch_;
};

}  // namespace npu::platform
