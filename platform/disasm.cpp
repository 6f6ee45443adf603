#include "disasm.h"

#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <fmt/core.h>

#include <mutex>
#include <stdexcept>

extern "C" {
void LLVMInitializeRISCVTargetInfo();
void LLVMInitializeRISCVTargetMC();
void LLVMInitializeRISCVDisassembler();
}

namespace npu::platform {

struct disassembler::impl {
    std::unique_ptr<llvm::MCRegisterInfo> regs;
    std::unique_ptr<llvm::MCAsmInfo> asm_info;
    std::unique_ptr<llvm::MCSubtargetInfo> sti;
    std::unique_ptr<llvm::MCInstrInfo> instrs;
    std::unique_ptr<llvm::MCContext> ctx;
    std::unique_ptr<llvm::MCDisassembler> dis;
    std::unique_ptr<llvm::MCInstPrinter> printer;
};

disassembler::disassembler() : impl_(std::make_unique<impl>()) {
    static std::once_flag once;
    std::call_once(once, [] {
        LLVMInitializeRISCVTargetInfo();
        LLVMInitializeRISCVTargetMC();
        LLVMInitializeRISCVDisassembler();
    });
    const std::string triple_name = "riscv32-unknown-elf";
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple_name, error);
    if (!target) throw std::runtime_error("disassembler: no RISC-V target in LLVM: " + error);
    const llvm::Triple triple(triple_name);
    impl& m = *impl_;
    m.regs.reset(target->createMCRegInfo(triple_name));
    llvm::MCTargetOptions options;
    m.asm_info.reset(target->createMCAsmInfo(*m.regs, triple_name, options));
    m.sti.reset(target->createMCSubtargetInfo(triple_name, "generic-rv32",
                                              "+m,+a,+f,+c,+zicsr,+zifencei,+xcvmem,+xcvmac,+xcvalu,+xcvbi,+xcvelw,"
                                              "+xcvsimd,+xcvbitmanip"));
    m.instrs.reset(target->createMCInstrInfo());
    if (!m.regs || !m.asm_info || !m.sti || !m.instrs)
        throw std::runtime_error("disassembler: cannot set up LLVM's RISC-V MC layer");
    m.ctx = std::make_unique<llvm::MCContext>(triple, m.asm_info.get(), m.regs.get(), m.sti.get());
    m.dis.reset(target->createMCDisassembler(*m.sti, *m.ctx));
    m.printer.reset(target->createMCInstPrinter(triple, 0, *m.asm_info, *m.instrs, *m.regs));
    if (!m.dis || !m.printer) throw std::runtime_error("disassembler: LLVM has no RISC-V disassembler");
    m.printer->setPrintBranchImmAsAddress(true);
}

disassembler::~disassembler() = default;

std::string disassembler::text(std::uint32_t raw, std::uint32_t pc) const {
    const std::uint8_t bytes[4] = {static_cast<std::uint8_t>(raw), static_cast<std::uint8_t>(raw >> 8),
                                   static_cast<std::uint8_t>(raw >> 16), static_cast<std::uint8_t>(raw >> 24)};
    // The low two bits say how long it is: 16-bit ones (C) leave the upper half unused.
    const std::size_t len = (raw & 3) == 3 ? 4 : 2;
    llvm::MCInst inst;
    std::uint64_t size = 0;
    if (impl_->dis->getInstruction(inst, size, llvm::ArrayRef<std::uint8_t>(bytes, len), pc, llvm::nulls()) !=
            llvm::MCDisassembler::Success ||
        size != len)
        return len == 2 ? fmt::format("<unknown {:#06x}>", raw & 0xffff) : fmt::format("<unknown {:#010x}>", raw);
    std::string out;
    llvm::raw_string_ostream os(out);
    impl_->printer->printInst(&inst, pc, "", *impl_->sti, os);
    os.flush();
    // The printer indents with a tab and separates operands with one.
    std::string clean;
    for (char ch : out) clean += ch == '\t' ? ' ' : ch;
    const std::size_t first = clean.find_first_not_of(' ');
    clean = first == std::string::npos ? std::string() : clean.substr(first);
    const std::size_t sp = clean.find(' ');
    if (sp != std::string::npos) {
        const std::size_t rest = clean.find_first_not_of(' ', sp);
        clean = clean.substr(0, sp) + std::string(sp < 8 ? 8 - sp : 1, ' ') + clean.substr(rest);
    }
    return clean;
}

}  // namespace npu::platform
