// RV32IMAFC disassembly with LLVM's MC disassembler (the RISC-V target of the
// LLVM npusim already links): fault reports and the instruction trace.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace npu::platform {

class disassembler {
public:
    // Throws std::runtime_error when LLVM has no RISC-V target.
    disassembler();
    ~disassembler();
    disassembler(const disassembler&) = delete;
    disassembler& operator=(const disassembler&) = delete;

    // "sw a1, 64(a0)" for the instruction `raw` at `pc`: 32-bit, or 16-bit
    // (C) in the low half when its low two bits are not 11, shown as the
    // instruction it expands to (branch targets as absolute addresses);
    // "<unknown 0x...>" when it is no instruction.
    std::string text(std::uint32_t raw, std::uint32_t pc) const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace npu::platform
