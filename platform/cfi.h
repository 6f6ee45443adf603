// Call-frame information: how to step from a frame to its caller at an
// address, read from a firmware ELF's .debug_frame.
//
// Why a reader of our own: a DMA push captures its pusher's call stack
// (fault_context.h, call_chain_capture), and the first capture used to parse
// the section with LLVM's DWARFDebugFrame and build an UnwindTable per
// address. That is a few kilobytes of CFI, yet a visible part of a short
// network simulation (LLVM's code paged in, its tables built;
// docs/compiler.md, Simulation speed). This reader
// indexes the FDEs once and runs the CFA program of one FDE up to the
// address asked. It follows the instructions RISC-V
// compilers emit; anything else (64-bit DWARF, augmentations, DWARF
// expressions, unknown opcodes, malformed bytes) is `unsupported`, and the
// caller asks LLVM instead (rule_of_fde), so the two always agree
// (tests/loader/cfi_test.cpp compares them at every address of the tree's
// firmware).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace llvm::dwarf {
class FDE;
}

namespace npu::platform {

// The step from one frame to its caller at one address: CFA = x[cfa_reg] +
// cfa_offset (DW_CFA_def_cfa*, the only CFA rule RISC-V code uses), and the
// registers 1..31 saved at CFA + offset (or equal to it).
struct unwind_rule {
    bool ok = false;  // false: no FDE, or a rule the unwinder does not follow
    std::uint8_t cfa_reg = 0;
    std::int32_t cfa_offset = 0;
    struct saved_reg {
        std::uint8_t reg;
        bool is_value;  // the register's value is CFA + offset (not stored there)
        std::int32_t offset;
        bool operator==(const saved_reg& o) const {
            return reg == o.reg && is_value == o.is_value && offset == o.offset;
        }
    };
    std::vector<saved_reg> saved;  // ascending register numbers
    bool operator==(const unwind_rule& o) const {
        return ok == o.ok && (!ok || (cfa_reg == o.cfa_reg && cfa_offset == o.cfa_offset && saved == o.saved));
    }
};

// The .debug_frame section of a 32-bit little-endian image.
class debug_frame_reader {
public:
    // `section` must outlive the reader. Reads the CIE and FDE headers;
    // entries it cannot read make the addresses they cover unsupported.
    explicit debug_frame_reader(std::string_view section);

    enum class result { found, no_fde, unsupported };
    // The rule at `lookup` (a pc, or a return address - 1) from the first
    // FDE, in section order, that covers it.
    result rule_at(std::uint32_t lookup, unwind_rule& out) const;

    // Address ranges [begin, end) of the FDEs read (tests walk them).
    struct range {
        std::uint32_t begin, end;
    };
    std::vector<range> ranges() const;
    // Every entry of the section was read: an address no_fde has no FDE in
    // .debug_frame for LLVM either.
    bool indexes_all() const { return whole_; }

private:
    struct cie {
        bool ok = false;
        std::uint64_t code_align = 1;
        std::int64_t data_align = 1;
        std::size_t insns = 0, insns_end = 0;
    };
    struct fde {
        std::uint32_t begin = 0, end = 0;
        std::size_t insns = 0, insns_end = 0;
        int cie = -1;  // index into cies_, -1: unsupported
    };
    std::string_view data_;
    std::vector<cie> cies_;
    std::vector<fde> fdes_;
    bool whole_ = false;
};

// LLVM's reading of one FDE's rule at `lookup` (the fallback, and the
// reference the reader is tested against).
unwind_rule rule_of_fde(const llvm::dwarf::FDE& fde, std::uint32_t lookup);

}  // namespace npu::platform
