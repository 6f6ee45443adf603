// The context of a fatal fault on a hart, appended to the fault report:
// its registers at the faulting instruction, a disassembly around the PC,
// a backtrace (DWARF call-frame information, file:line per frame including
// inlined frames) and the last taken branches (the hart's branch ring).
#pragma once

#include "cfi.h"
#include "disasm.h"
#include "elf_image.h"

#include "cpu/hart.h"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
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
    bool symbol_only = false;  // DWARF does not know the pc: `function` is the ELF symbol
};

// The call stack at `h`, innermost first (frame 0 is h.pc); unwinds with the
// ELF's call-frame information.
std::vector<frame_info> backtrace_frames(const cpu::hart_state& h, const elf_image& img, const target_reader& read,
                                         unsigned max_frames = 32);

// A call stack captured cheaply, as the pc and the return addresses, many
// times over (every DMA push): the unwind rule of each address (from the
// call-frame information) is looked up once and cached, so a capture costs
// a few stack reads per frame and reads no other debug information;
// call_chain_frames() symbolises one when a report needs it. One per
// loaded image.
class call_chain_capture {
public:
    explicit call_chain_capture(const elf_image& img);
    ~call_chain_capture();
    call_chain_capture(const call_chain_capture&) = delete;
    call_chain_capture& operator=(const call_chain_capture&) = delete;

    // pcs[0] = h.pc, then the return addresses, innermost first; returns
    // how many (at most `max`; fewer where the call-frame information ends).
    unsigned capture(const cpu::hart_state& h, const target_reader& read, std::uint32_t* pcs, unsigned max);

private:
    const unwind_rule& rule_at(std::uint32_t lookup);

    const elf_image& img_;
    debug_frame_reader frames_;  // the fast path; LLVM's DWARF where it cannot say
    std::unordered_map<std::uint32_t, unwind_rule> rules_;
};

// The frames (inlined ones included) of a captured chain, innermost first.
std::vector<frame_info> call_chain_frames(const elf_image& img, const std::uint32_t* pcs, unsigned n);

// Where the runtime function that holds frames[0] was called from, up to
// user code: "npurt_copy_start, called from main (main.c:26)", or for npuc
// firmware "npurt_load_tiles, called from npurt_matmul (npurt.c:250),
// called from npu_network_run+0x48". "" when frames[0] is in user code
// (then the pc's own line is the user's). Runtime: firmware/runtime, npuc's
// kernel runtime (compiler/runtime/npurt*), the C library; a frame without
// debug information (npuc's generated code) is the user's.
std::string call_chain_text(const std::vector<frame_info>& frames);

// "func (file.c:12)" per frame, innermost first: backtrace_frames formatted.
std::vector<std::string> backtrace(const cpu::hart_state& h, const elf_image& img, const target_reader& read,
                                   unsigned max_frames = 32);

// Where user code called into the runtime: the first frame, from the
// innermost, outside the runtime (firmware/runtime, its installed headers)
// and the C library; `api` is the outermost runtime function it called
// (e.g. npu_l1_malloc). False when every frame is runtime code.
bool user_call_site(const std::vector<frame_info>& frames, frame_info& site, std::string& api);

}  // namespace npu::platform
