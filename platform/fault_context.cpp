#include "fault_context.h"

#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugFrame.h>

#include <fmt/core.h>

#include <cstring>
#include <optional>

namespace npu::platform {

namespace {

const char* const abi_names[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                                   "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                   "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

std::string where(const elf_image* img, std::uint32_t a) {
    if (!img) return "";
    std::string s = img->symbolize(a);
    const std::string line = img->source_line(a);
    if (!line.empty()) s += (s.empty() ? "" : " ") + std::string("(") + line + ")";
    return s.empty() ? "" : " <" + s + ">";
}

// The FDE covering `pc` in .debug_frame or .eh_frame.
const llvm::dwarf::FDE* find_fde(llvm::DWARFContext& ctx, std::uint32_t pc) {
    for (auto get : {&llvm::DWARFContext::getDebugFrame, &llvm::DWARFContext::getEHFrame}) {
        auto frames = (ctx.*get)();
        if (!frames) {
            llvm::consumeError(frames.takeError());
            continue;
        }
        for (const llvm::dwarf::FrameEntry& e : (*frames)->entries()) {
            const auto* fde = llvm::dyn_cast<llvm::dwarf::FDE>(&e);
            if (fde && pc >= fde->getInitialLocation() && pc - fde->getInitialLocation() < fde->getAddressRange())
                return fde;
        }
    }
    return nullptr;
}

// The frames at `pc` (DWARF inlining information; `lookup` is the address
// looked up: the pc, or a return address - 1), innermost first; the ELF
// symbol when DWARF does not know the address.
std::vector<frame_info> frames_at(const elf_image& img, std::uint32_t pc, std::uint32_t lookup) {
    std::vector<frame_info> frames;
    if (llvm::DWARFContext* ctx = img.dwarf_context()) {
        llvm::DILineInfoSpecifier spec(llvm::DILineInfoSpecifier::FileLineInfoKind::RelativeFilePath,
                                       llvm::DILineInfoSpecifier::FunctionNameKind::ShortName);
        const llvm::DIInliningInfo inl =
            ctx->getInliningInfoForAddress({lookup, llvm::object::SectionedAddress::UndefSection}, spec);
        for (std::uint32_t i = 0; i < inl.getNumberOfFrames(); ++i) {
            const llvm::DILineInfo& f = inl.getFrame(i);
            if (f.FunctionName == llvm::DILineInfo::BadString) continue;
            frame_info fi;
            fi.pc = pc;
            fi.shows_pc = i == 0;
            fi.function = f.FunctionName;
            if (f.FileName != llvm::DILineInfo::BadString && f.Line) {
                fi.file = f.FileName;
                fi.line = f.Line;
            }
            fi.inlined = i + 1 < inl.getNumberOfFrames();
            frames.push_back(std::move(fi));
        }
    }
    if (frames.empty()) {
        frame_info fi;
        fi.pc = pc;
        fi.function = img.symbolize(pc);
        fi.symbol_only = true;
        frames.push_back(std::move(fi));
    }
    return frames;
}

// The sources and headers of firmware/runtime (and the SDK's installed
// copy), and the C library (picolibc, built from paths outside the tree).
bool runtime_or_libc_file(const std::string& file) {
    return file.find("firmware/runtime/") != std::string::npos ||
           file.find("include/npusim/firmware/") != std::string::npos || file.find("newlib/") != std::string::npos ||
           file.find("picolibc") != std::string::npos;
}

// User code for a call chain: not the above nor npuc's kernel runtime
// (compiler/runtime/npurt*); code without debug information (npuc's
// generated code) is the user's too. A frame DWARF knows without a line
// (an inlined helper's artificial location) says nothing either way.
bool user_frame(const frame_info& f) {
    if (f.symbol_only) return true;
    return !f.file.empty() && !runtime_or_libc_file(f.file) &&
           f.file.find("compiler/runtime/npurt") == std::string::npos;
}

}  // namespace

call_chain_capture::call_chain_capture(const elf_image& img) : img_(img), frames_(img.debug_frame()) {}
call_chain_capture::~call_chain_capture() = default;

const unwind_rule& call_chain_capture::rule_at(std::uint32_t lookup) {
    auto [it, inserted] = rules_.try_emplace(lookup);
    unwind_rule& r = it->second;
    if (!inserted) return r;
    const auto found = frames_.rule_at(lookup, r);
    if (found == debug_frame_reader::result::found) return r;
    // No FDE anywhere (the outermost frame's caller, code without CFI).
    if (found == debug_frame_reader::result::no_fde && frames_.indexes_all() && !img_.has_eh_frame()) return r;
    // Not in .debug_frame as the reader reads it: LLVM's DWARF (.eh_frame
    // too), whose first use parses the sections.
    llvm::DWARFContext* ctx = img_.dwarf_context();
    if (!ctx) return r;
    if (const llvm::dwarf::FDE* fde = find_fde(*ctx, lookup)) r = rule_of_fde(*fde, lookup);
    return r;
}

unsigned call_chain_capture::capture(const cpu::hart_state& h, const target_reader& read, std::uint32_t* pcs,
                                     unsigned max) {
    // A register a frame saved on the stack is read only when it is needed
    // (the return address, a CFA's base register): a kernel saves a dozen
    // callee-saved registers, and a DMA push captures its chain every time.
    std::uint32_t x[32], saved_at[32];
    std::uint32_t on_stack = 0;  // bit r: x[r] is at saved_at[r]
    std::memcpy(x, h.x, sizeof x);
    x[0] = 0;
    const auto value = [&](unsigned r, std::uint32_t& v) {
        if (on_stack >> r & 1u) {
            if (read(saved_at[r], &x[r], 4) != 4) return false;
            on_stack &= ~(1u << r);
        }
        v = x[r];
        return true;
    };
    std::uint32_t pc = h.pc;
    unsigned n = 0;
    while (n < max) {
        pcs[n] = pc;
        // A return address points past its call: look the call up.
        const std::uint32_t lookup = n++ == 0 ? pc : pc - 1;
        const unwind_rule& r = rule_at(lookup);
        // One frame up; stops where the call-frame information cannot say
        // where the caller is (the outermost frame, or no progress).
        std::uint32_t base = 0, sp = 0;
        if (!r.ok && n == 1) {
            // The innermost function has no call-frame information: an
            // assembly leaf (the C library's memset, memcpy), which keeps
            // its return address in ra and its caller's sp.
            std::uint32_t ra = 0;
            if (!value(1, ra) || ra == 0 || ra == pc) break;
            pc = ra;
            continue;
        }
        if (!r.ok || !value(r.cfa_reg, base) || !value(2, sp)) break;
        const std::uint32_t cfa = base + static_cast<std::uint32_t>(r.cfa_offset);
        for (const auto& s : r.saved) {
            const std::uint32_t at = cfa + static_cast<std::uint32_t>(s.offset);
            if (s.is_value) {
                x[s.reg] = at;
                on_stack &= ~(1u << s.reg);
            } else {
                saved_at[s.reg] = at;
                on_stack |= 1u << s.reg;
            }
        }
        std::uint32_t ra = 0;
        if (!value(1, ra) || ra == 0 || (ra == pc && cfa == sp)) break;
        x[2] = cfa;
        on_stack &= ~(1u << 2);
        pc = ra;
    }
    return n;
}

std::vector<frame_info> backtrace_frames(const cpu::hart_state& h, const elf_image& img, const target_reader& read,
                                         unsigned max_frames) {
    call_chain_capture unwinder(img);
    std::vector<std::uint32_t> pcs(max_frames);
    pcs.resize(unwinder.capture(h, read, pcs.data(), max_frames));
    return call_chain_frames(img, pcs.data(), static_cast<unsigned>(pcs.size()));
}

std::vector<frame_info> call_chain_frames(const elf_image& img, const std::uint32_t* pcs, unsigned n) {
    std::vector<frame_info> frames;
    for (unsigned i = 0; i < n; ++i) {
        std::vector<frame_info> here = frames_at(img, pcs[i], i == 0 ? pcs[i] : pcs[i] - 1);
        frames.insert(frames.end(), std::make_move_iterator(here.begin()), std::make_move_iterator(here.end()));
    }
    return frames;
}

std::string call_chain_text(const std::vector<frame_info>& frames) {
    // frames[0 .. first) are the innermost function and the helpers inlined
    // into it: the pc line of the report already names them.
    std::size_t first = 0;
    while (first < frames.size() && frames[first].inlined) ++first;
    if (first >= frames.size() || user_frame(frames[first])) return "";
    std::string s = frames[first].function;
    for (std::size_t i = first + 1; i < frames.size(); ++i) {
        const frame_info& f = frames[i];
        s += ", called from " + (f.function.empty() ? std::string("??") : f.function);
        if (!f.file.empty()) s += fmt::format(" ({}:{})", f.file, f.line);
        if (user_frame(f)) break;
    }
    return s;
}

std::vector<std::string> backtrace(const cpu::hart_state& h, const elf_image& img, const target_reader& read,
                                   unsigned max_frames) {
    std::vector<std::string> out;
    for (const frame_info& f : backtrace_frames(h, img, read, max_frames)) {
        std::string s = f.function.empty() ? "??" : f.function;
        if (!f.file.empty()) s += fmt::format(" ({}:{})", f.file, f.line);
        if (f.inlined) s += " [inlined]";
        out.push_back(fmt::format("#{:<2} {} {}", out.size(), f.shows_pc ? fmt::format("{:#010x}", f.pc) : "          ",
                                  s));
    }
    return out;
}

bool user_call_site(const std::vector<frame_info>& frames, frame_info& site, std::string& api) {
    const auto runtime_or_libc = [](const frame_info& f) { return f.file.empty() || runtime_or_libc_file(f.file); };
    api.clear();
    for (const frame_info& f : frames) {
        if (!runtime_or_libc(f)) {
            site = f;
            return !api.empty();
        }
        if (f.function.rfind("npu_", 0) == 0 || api.empty()) api = f.function;
    }
    return false;
}

std::string fault_context(const std::string& who, const cpu::hart_state& h, const elf_image* img,
                          const target_reader& read, const disassembler& dis) {
    std::string o = fmt::format("\n=== fault context: {}, pc {:#010x}{} ===\n", who, h.pc, where(img, h.pc));
    o += "registers\n";
    for (unsigned r = 0; r < 32; ++r)
        o += fmt::format("{}{:<4} {:#010x}{}", r % 4 == 0 ? "  " : "  ", abi_names[r], r ? h.x[r] : 0u,
                         r % 4 == 3 ? "\n" : "");
    o += fmt::format("  mstatus {:#010x}  mcause {:#010x}  mepc {:#010x}  mtval {:#010x}\n", h.read_mstatus(),
                     h.mcause, h.mepc, h.mtval);
    if (h.mstatus & cpu::mstatus_bits::fs) {
        // Only the FP registers in use: a line of zeros says nothing.
        std::string fl;
        unsigned shown = 0;
        for (unsigned r = 0; r < 32; ++r) {
            if (!h.f[r]) continue;
            float v;
            std::memcpy(&v, &h.f[r], 4);
            fl += fmt::format("  f{:<3} {:<12.6g}{}", r, v, ++shown % 4 == 0 ? "\n" : "");
        }
        if (shown % 4) fl += "\n";
        o += fmt::format("  fcsr {:#x}; {}\n{}", (h.frm << 5) | h.fflags,
                         shown ? "f registers not listed are 0" : "every f register is 0", fl);
    }

    o += "disassembly\n";
    // 24 bytes before the pc to 12 after, stepping by each instruction's
    // length (C code mixes 2- and 4-byte ones). A walk that steps over the
    // pc started inside an instruction: the lines before the pc are dropped.
    std::string before, after;
    for (std::uint32_t rel = 0; rel <= 36;) {  // rel: bytes from pc - 24
        const std::uint32_t a = h.pc - 24 + rel;
        std::uint32_t raw = 0;
        const bool ok = read(a, &raw, 4) == 4 || read(a, &raw, 2) == 2;
        const std::uint32_t len = ok ? cpu::insn_bytes(raw) : 4;
        if (rel < 24 && rel + len > 24) {
            before.clear();
            rel = 24;
            continue;
        }
        if (ok) {
            const std::string sym = img ? img->symbolize(a) : std::string();
            (rel < 24 ? before : after) +=
                fmt::format(" {} {:#010x} {:<28} {}\n", rel == 24 ? "=>" : "  ", a, sym.empty() ? "" : "<" + sym + ">",
                            dis.text(raw, a));
        }
        rel += len;
    }
    o += before + after;

    if (img) {
        o += "backtrace\n";
        for (const std::string& f : backtrace(h, *img, read)) o += "  " + f + "\n";
    }

    const std::uint64_t n = h.branch_count;
    const unsigned size = cpu::hart_state::branch_ring_size;
    if (n) {
        std::vector<std::uint64_t> taken;
        for (std::uint64_t i = n > size ? n - size : 0; i < n; ++i)
            if (h.branch_ring[i % size]) taken.push_back(h.branch_ring[i % size]);
        o += fmt::format("last {} taken branches and jumps (oldest first)\n", taken.size());
        for (const std::uint64_t e : taken) {
            const auto from = static_cast<std::uint32_t>(e >> 32), to = static_cast<std::uint32_t>(e);
            const std::string fs = img ? img->symbolize(from) : std::string();
            const std::string ts = img ? img->symbolize(to) : std::string();
            o += fmt::format("  {:#010x} {:<28} -> {:#010x} {}\n", from, fs.empty() ? "" : "<" + fs + ">", to,
                             ts.empty() ? "" : "<" + ts + ">");
        }
    }
    return o;
}

}  // namespace npu::platform
