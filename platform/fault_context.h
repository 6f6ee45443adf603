// The context of a fatal fault on a hart, appended to the fault report:
// its registers at the faulting instruction, a disassembly around the PC,
// a backtrace (DWARF call-frame information, file:line per frame including
// inlined frames) and the last taken branches (the hart's branch ring).
#pragma once

#include "disasm.h"
#include "elf_image.h"

#include "cpu/hart.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npu::platform {

// Reads target memory without side effects; returns the bytes read.
using target_reader = std::function<unsigned(std::uint64_t addr, void* data, unsigned size)>;

// `who`: "hart 8 (cluster controller)". `img` may be null (no symbols).
std::string fault_context(const std::string& who, const cpu::hart_state& h, const elf_image* img,
                          const target_reader& read, const disassembler& dis);

// "func (file.c:12)" per frame, innermost first, for the call stack at `h`
// (frame 0 is h.pc); unwinds with the ELF's call-frame information.
std::vector<std::string> backtrace(const cpu::hart_state& h, const elf_image& img, const target_reader& read,
                                   unsigned max_frames = 32);

}  // namespace npu::platform
