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

// One frame of a call stack, inlined frames included.
struct frame_info {
    std::uint32_t pc = 0;
    bool shows_pc = true;    // false: an inlined caller, at the previous frame's pc
    std::string function;    // DWARF name, else the ELF symbol ("name+0x1c"), else ""
    std::string file;        // "" when DWARF does not know
    unsigned line = 0;
    bool inlined = false;    // inlined into the next frame
};

// The call stack at `h`, innermost first (frame 0 is h.pc); unwinds with the
// ELF's call-frame information.
std::vector<frame_info> backtrace_frames(const cpu::hart_state& h, const elf_image& img, const target_reader& read,
                                         unsigned max_frames = 32);

// "func (file.c:12)" per frame, innermost first: backtrace_frames formatted.
std::vector<std::string> backtrace(const cpu::hart_state& h, const elf_image& img, const target_reader& read,
                                   unsigned max_frames = 32);

// Where user code called into the runtime: the first frame, from the
// innermost, outside the runtime (firmware/runtime, its installed headers)
// and the C library; `api` is the outermost runtime function it called
// (e.g. npu_l1_malloc). False when every frame is runtime code.
bool user_call_site(const std::vector<frame_info>& frames, frame_info& site, std::string& api);

}  // namespace npu::platform
