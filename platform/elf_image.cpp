#include "elf_image.h"

#include "config/input_file.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/RISCVAttributeParser.h>
#include <llvm/Support/RISCVAttributes.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstdio>

namespace npu::platform {

namespace obj = llvm::object;

struct elf_image::dwarf {
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    std::unique_ptr<obj::ObjectFile> object;
    std::unique_ptr<llvm::DWARFContext> context;
};

elf_image::elf_image() = default;
elf_image::elf_image(elf_image&&) noexcept = default;
elf_image& elf_image::operator=(elf_image&&) noexcept = default;
elf_image::~elf_image() = default;

static std::string hex(std::uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%08llx", static_cast<unsigned long long>(v));
    return b;
}

elf_image elf_image::load(const std::string& path) {
    auto fail = [&](const std::string& msg) -> elf_error { return elf_error(path + ": " + msg); };
    if (auto why = cfg::check_input_file(path, cfg::max_elf_file_bytes, "an ELF file"); !why.empty()) throw fail(why);
    auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buf) throw fail("cannot read file: " + buf.getError().message());
    llvm::StringRef data = (*buf)->getBuffer();

    if (data.size() < 4 || data.substr(0, 4) !=
                               "\x7f"
                               "ELF")
        throw fail("not an ELF file");
    // The ELF header is 52 bytes (ELF32): a shorter file is cut, whatever
    // its identification bytes say.
    if (data.size() < sizeof(llvm::ELF::Elf32_Ehdr))
        throw fail("truncated ELF: " + std::to_string(data.size()) + " bytes, less than the " +
                   std::to_string(sizeof(llvm::ELF::Elf32_Ehdr)) + "-byte ELF header");
    if (data[4] != llvm::ELF::ELFCLASS32)
        throw fail(data[4] == llvm::ELF::ELFCLASS64 ? "a 64-bit ELF (ELFCLASS64): npusim runs RV32 firmware"
                                                     : "not a 32-bit ELF (EI_CLASS " + std::to_string(int(data[4])) +
                                                           "): npusim runs RV32 firmware");
    if (data[5] != llvm::ELF::ELFDATA2LSB) throw fail("not a little-endian ELF");

    auto parsed = obj::ELF32LEObjectFile::create(**buf);
    if (!parsed) throw fail("malformed ELF: " + llvm::toString(parsed.takeError()));
    const auto& file = parsed->getELFFile();
    const auto& hdr = file.getHeader();
    if (hdr.e_machine != llvm::ELF::EM_RISCV)
        throw fail("ELF machine is " + std::to_string(hdr.e_machine) + ", not RISC-V (243)");
    if (hdr.e_type != llvm::ELF::ET_EXEC)
        throw fail("not an executable ELF (e_type " + std::to_string(hdr.e_type) + ")");

    // A bad section-name index would leave every section nameless (no
    // symbols for reports, no noinit): refuse it rather than load silently.
    if (hdr.e_shnum && hdr.e_shstrndx != llvm::ELF::SHN_XINDEX && hdr.e_shstrndx >= hdr.e_shnum)
        throw fail("e_shstrndx " + std::to_string(hdr.e_shstrndx) + " is not a section (the ELF has " +
                   std::to_string(hdr.e_shnum) + ")");
    if (hdr.e_shnum && hdr.e_shstrndx == llvm::ELF::SHN_UNDEF)
        throw fail("e_shstrndx is 0: the section names are missing");

    elf_image img;
    img.path_ = path;
    img.entry_ = hdr.e_entry;

    auto phdrs = file.program_headers();
    if (!phdrs) throw fail("malformed program headers: " + llvm::toString(phdrs.takeError()));
    int idx = -1;
    for (const auto& ph : *phdrs) {
        ++idx;
        if (ph.p_type != llvm::ELF::PT_LOAD) continue;
        if (ph.p_filesz > ph.p_memsz)
            throw fail("segment " + std::to_string(idx) + ": file size " + std::to_string(ph.p_filesz) +
                       " exceeds memory size " + std::to_string(ph.p_memsz) + " (p_filesz > p_memsz)");
        if (ph.p_memsz == 0) continue;
        if (static_cast<std::uint64_t>(ph.p_offset) + ph.p_filesz > data.size())
            throw fail("segment " + std::to_string(idx) + " [" + hex(ph.p_paddr) + ", +" + std::to_string(ph.p_filesz) +
                       " B) reaches past the end of the file (truncated ELF?)");
        if (static_cast<std::uint64_t>(ph.p_paddr) + ph.p_memsz > 0x100000000ull)
            throw fail("segment " + std::to_string(idx) + " extends past the 32-bit address space");
        elf_segment s;
        s.index = idx;
        s.address = ph.p_paddr;
        s.mem_size = ph.p_memsz;
        s.bytes.assign(data.bytes_begin() + ph.p_offset, data.bytes_begin() + ph.p_offset + ph.p_filesz);
        s.executable = ph.p_flags & llvm::ELF::PF_X;
        img.segments_.push_back(std::move(s));
    }
    if (img.segments_.empty()) throw fail("no loadable segment");
    {
        const elf_segment* at = nullptr;
        for (const auto& s : img.segments_)
            if (img.entry_ >= s.address && img.entry_ - s.address < s.bytes.size()) at = &s;
        if (!at) throw fail("entry point " + hex(img.entry_) + " is not in the file bytes of any loadable segment");
        if (!at->executable)
            throw fail("entry point " + hex(img.entry_) + " is in segment " + std::to_string(at->index) +
                       ", which is not executable (no PF_X)");
    }
    // Sorted by address without their bytes: a copy of the segments copied
    // every loaded byte (a megabyte of weights, and its host page faults).
    struct span {
        int index;
        std::uint32_t address, mem_size;
    };
    std::vector<span> segs;
    segs.reserve(img.segments_.size());
    for (const auto& s : img.segments_) segs.push_back({s.index, s.address, s.mem_size});
    std::sort(segs.begin(), segs.end(), [](const span& a, const span& b) { return a.address < b.address; });
    for (std::size_t i = 1; i < segs.size(); ++i)
        if (static_cast<std::uint64_t>(segs[i - 1].address) + segs[i - 1].mem_size > segs[i].address)
            throw fail("segments " + std::to_string(segs[i - 1].index) + " [" + hex(segs[i - 1].address) + ", " +
                       hex(static_cast<std::uint64_t>(segs[i - 1].address) + segs[i - 1].mem_size) + ") and " +
                       std::to_string(segs[i].index) + " [" + hex(segs[i].address) + ", ...) overlap");

    // Every section's bytes inside the file (SHT_NOBITS has none): a symbol
    // table claiming 100 MB in a 512-byte file was iterated entry by entry
    // (found by fuzz_elf; regression test ElfImage.SectionPastTheEndOfTheFile).
    if (auto shdrs = file.sections()) {
        int si = -1;
        for (const auto& sh : *shdrs) {
            ++si;
            if (sh.sh_type == llvm::ELF::SHT_NOBITS || sh.sh_type == llvm::ELF::SHT_NULL) continue;
            if (static_cast<std::uint64_t>(sh.sh_offset) + sh.sh_size > data.size())
                throw fail("section " + std::to_string(si) + " [offset " + std::to_string(sh.sh_offset) + ", +" +
                           std::to_string(sh.sh_size) + " B) reaches past the end of the file (" +
                           std::to_string(data.size()) + " B)");
        }
    } else {
        throw fail("malformed section headers: " + llvm::toString(shdrs.takeError()));
    }

    for (const auto& sec : parsed->sections()) {
        auto name = sec.getName();
        if (!name) {
            llvm::consumeError(name.takeError());
            continue;
        }
        if (*name == ".riscv.attributes") {
            // Read for a check against core.isa_extensions (soc::isa_mismatch); a
            // malformed section only loses that check.
            if (auto contents = sec.getContents()) {
                llvm::RISCVAttributeParser attrs;
                const auto* bytes = reinterpret_cast<const std::uint8_t*>(contents->data());
                if (auto e = attrs.parse(llvm::ArrayRef<std::uint8_t>(bytes, contents->size()),
                                         llvm::endianness::little))
                    llvm::consumeError(std::move(e));
                else if (auto arch = attrs.getAttributeString(llvm::RISCVAttrs::ARCH))
                    img.arch_ = arch->str();
            } else {
                llvm::consumeError(contents.takeError());
            }
        }
        if (sec.isBSS() && name->contains("noinit") && sec.getSize())
            img.noinit_.push_back(
                {static_cast<std::uint32_t>(sec.getAddress()), static_cast<std::uint32_t>(sec.getSize())});
    }

    for (const auto& sym : parsed->symbols()) {
        auto name = sym.getName();
        auto addr = sym.getAddress();
        auto type = sym.getType();
        if (!name || !addr || !type) {
            llvm::consumeError(name.takeError());
            llvm::consumeError(addr.takeError());
            llvm::consumeError(type.takeError());
            continue;
        }
        if (name->empty() || (*type != obj::SymbolRef::ST_Function && *type != obj::SymbolRef::ST_Data &&
                              *type != obj::SymbolRef::ST_Unknown))
            continue;
        // Section-less and absolute helper symbols (e.g. linker-script
        // constants) would make report names misleading.
        auto sec = sym.getSection();
        if (!sec) {
            llvm::consumeError(sec.takeError());
            continue;
        }
        if (*sec == parsed->section_end()) {
            img.absolute_.emplace_back(name->str(), static_cast<std::uint32_t>(*addr));
            continue;
        }
        // Mapping symbols ($x, $d, $x.rv32...) mark code/data, they are not names;
        // symbols of non-loaded sections (debug info at address 0) are not addresses.
        if ((*name)[0] == '$' || !((*sec)->isText() || (*sec)->isData() || (*sec)->isBSS() ||
                                   (obj::ELFSectionRef(**sec).getFlags() & llvm::ELF::SHF_ALLOC)))
            continue;
        obj::ELFSymbolRef esym(sym);
        img.symbols_.push_back(elf_symbol{name->str(), static_cast<std::uint32_t>(*addr),
                                          static_cast<std::uint32_t>(esym.getSize()),
                                          *type == obj::SymbolRef::ST_Function});
    }
    std::sort(img.symbols_.begin(), img.symbols_.end(), [](const elf_symbol& a, const elf_symbol& b) {
        return a.address != b.address ? a.address < b.address : a.size > b.size;
    });

    img.dwarf_ = std::make_unique<dwarf>();
    img.dwarf_->buffer = std::move(*buf);
    auto objfile = obj::ObjectFile::createObjectFile(img.dwarf_->buffer->getMemBufferRef());
    if (objfile) {
        img.dwarf_->object = std::move(*objfile);
        img.dwarf_->context = llvm::DWARFContext::create(*img.dwarf_->object);
        for (const obj::SectionRef& sec : img.dwarf_->object->sections()) {
            auto name = sec.getName();
            auto contents = sec.getContents();
            if (name && *name == ".eh_frame") img.has_eh_frame_ = true;
            if (name && contents && *name == ".debug_frame") {
                img.debug_frame_ = std::string_view(contents->data(), contents->size());
            } else {
                if (!name) llvm::consumeError(name.takeError());
                if (!contents) llvm::consumeError(contents.takeError());
            }
        }
    } else {
        llvm::consumeError(objfile.takeError());
    }
    return img;
}

std::optional<std::uint32_t> elf_image::symbol_address(const std::string& name) const {
    for (const auto& s : symbols_)
        if (s.name == name) return s.address;
    return std::nullopt;
}

std::optional<std::uint32_t> elf_image::absolute_symbol(const std::string& name) const {
    for (const auto& [n, v] : absolute_)
        if (n == name) return v;
    return std::nullopt;
}

std::string elf_image::symbolize(std::uint32_t addr) const {
    // Last symbol starting at or below addr; prefer one whose size covers it.
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), addr,
                               [](std::uint32_t a, const elf_symbol& s) { return a < s.address; });
    const elf_symbol* best = nullptr;
    for (auto i = it; i != symbols_.begin();) {
        --i;
        if (addr - i->address > 0x10000) break;
        if (i->size && addr < i->address + i->size) {
            best = &*i;
            break;
        }
        if (!best) best = &*i;
    }
    if (!best) return "";
    // Past an object's end the nearest symbol is often a linker marker of
    // no size (__l1_bss_end, __bss_end): the object the access ran off is
    // what the reader wants, said as such.
    if (!best->size && best->name.rfind("__", 0) == 0)
        for (auto i = it; i != symbols_.begin();) {
            --i;
            if (addr - i->address > 0x10000) break;
            if (!i->size || i->function) continue;
            if (i->address + i->size <= addr) {
                char b[96];
                const std::uint32_t over = addr - (i->address + i->size);
                if (over == 0)
                    std::snprintf(b, sizeof b, "+0x%x, just past its %u B", addr - i->address, i->size);
                else
                    std::snprintf(b, sizeof b, "+0x%x, %u B past its %u B", addr - i->address, over, i->size);
                return i->name + b;
            }
            break;
        }
    if (addr == best->address) return best->name;
    char b[32];
    std::snprintf(b, sizeof b, "+0x%x", addr - best->address);
    return best->name + b;
}

std::string elf_image::source_line(std::uint32_t addr) const {
    if (!dwarf_ || !dwarf_->context) return "";
    llvm::DILineInfoSpecifier spec(llvm::DILineInfoSpecifier::FileLineInfoKind::RelativeFilePath,
                                   llvm::DILineInfoSpecifier::FunctionNameKind::ShortName);
    const obj::SectionedAddress a{addr, obj::SectionedAddress::UndefSection};
    const llvm::DIInliningInfo inl = dwarf_->context->getInliningInfoForAddress(a, spec);
    const auto known = [](const llvm::DILineInfo& f) { return f.Line && f.FileName != llvm::DILineInfo::BadString; };
    const std::uint32_t n = inl.getNumberOfFrames();
    if (n > 1 && known(inl.getFrame(n - 1))) {
        // Inside inlined code (a runtime helper such as npu_dma_copy_1d):
        // the outermost frame's line is the caller's, the one the user wrote.
        const llvm::DILineInfo& outer = inl.getFrame(n - 1);
        std::string s = outer.FileName + ":" + std::to_string(outer.Line);
        for (std::uint32_t i = n - 1; i-- > 0;) {
            const llvm::DILineInfo& f = inl.getFrame(i);
            if (!known(f)) continue;
            s += ", in inlined " + (f.FunctionName == llvm::DILineInfo::BadString ? std::string("?") : f.FunctionName) +
                 " at " + f.FileName + ":" + std::to_string(f.Line);
        }
        return s;
    }
    auto info = dwarf_->context->getLineInfoForAddress(a, spec);
    if (!known(info)) return "";
    return info.FileName + ":" + std::to_string(info.Line);
}

llvm::DWARFContext* elf_image::dwarf_context() const { return dwarf_ ? dwarf_->context.get() : nullptr; }

}  // namespace npu::platform
