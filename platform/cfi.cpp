#include "cfi.h"

#include <llvm/DebugInfo/DWARF/DWARFDebugFrame.h>

#include <algorithm>
#include <array>
#include <optional>

namespace npu::platform {

namespace {

// Bounds-checked little-endian reads over the section: a read past `end`
// fails (the entry is then unsupported), never reads outside.
struct cursor {
    std::string_view d;
    std::size_t at, end;
    bool ok = true;

    std::uint64_t fixed(unsigned n) {
        if (!ok || at > end || end - at < n) return ok = false, 0;
        std::uint64_t v = 0;
        for (unsigned i = 0; i < n; ++i) v |= std::uint64_t{static_cast<unsigned char>(d[at + i])} << (8 * i);
        at += n;
        return v;
    }
    std::uint64_t uleb() {
        std::uint64_t v = 0;
        for (unsigned shift = 0;; shift += 7) {
            if (!ok || at >= end || shift > 63) return ok = false, 0;
            const auto b = static_cast<unsigned char>(d[at++]);
            v |= std::uint64_t{b & 0x7fu} << shift;
            if (!(b & 0x80u)) return v;
        }
    }
    std::int64_t sleb() {
        std::uint64_t v = 0;
        for (unsigned shift = 0;; shift += 7) {
            if (!ok || at >= end || shift > 63) return ok = false, 0;
            const auto b = static_cast<unsigned char>(d[at++]);
            v |= std::uint64_t{b & 0x7fu} << shift;
            if (!(b & 0x80u)) {
                if (shift + 7 < 64 && (b & 0x40u)) v |= ~std::uint64_t{0} << (shift + 7);
                return static_cast<std::int64_t>(v);
            }
        }
    }
};

// A register's rule while the CFA program runs.
struct reg_rule {
    enum kind_t : std::uint8_t { unspecified, at_cfa, is_cfa, other } kind = unspecified;
    std::int64_t offset = 0;
};

// Registers tracked: x0..x31 and f0..f31 (DWARF 0..63); the rule reports 1..31.
constexpr unsigned tracked = 64;

struct frame_state {
    bool cfa_defined = false;
    std::uint64_t cfa_reg = 0;
    std::int64_t cfa_offset = 0;
    std::array<reg_rule, tracked> regs{};
};

}  // namespace

debug_frame_reader::debug_frame_reader(std::string_view section) : data_(section) {
    std::vector<std::pair<std::size_t, int>> cie_at;  // section offset -> cies_ index
    std::size_t at = 0;
    while (data_.size() - at >= 4) {
        cursor c{data_, at, data_.size()};
        const std::uint64_t length = c.fixed(4);
        // 64-bit DWARF (0xffffffff) or a length past the section: stop
        // reading; the addresses not indexed fall back to LLVM.
        if (length >= 0xfffffff0u || length > data_.size() - at - 4) break;
        const std::size_t entry_end = at + 4 + length;
        c.end = entry_end;
        const std::uint64_t id = c.fixed(4);
        if (id == 0xffffffffu) {
            cie e;
            const std::uint64_t version = c.fixed(1);
            const std::size_t aug = c.at;
            while (c.ok && c.at < c.end && data_[c.at] != '\0') ++c.at;
            const bool no_augmentation = c.at == aug;
            c.fixed(1);  // the augmentation's NUL
            if (version == 4) {
                const std::uint64_t address_size = c.fixed(1), segment_size = c.fixed(1);
                if (address_size != 4 || segment_size != 0) c.ok = false;
            }
            e.code_align = c.uleb();
            e.data_align = c.sleb();
            if (version == 1)
                c.fixed(1);
            else
                c.uleb();  // the return address register
            e.insns = c.at;
            e.insns_end = entry_end;
            e.ok = c.ok && no_augmentation && (version == 1 || version == 3 || version == 4);
            cie_at.emplace_back(at, static_cast<int>(cies_.size()));
            cies_.push_back(e);
        } else {
            fde f;
            f.begin = static_cast<std::uint32_t>(c.fixed(4));
            const std::uint64_t range = c.fixed(4);
            f.end = static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{f.begin} + range, 0xffffffffu));
            f.insns = c.at;
            f.insns_end = entry_end;
            if (c.ok) {
                for (const auto& [off, i] : cie_at)
                    if (off == id && cies_[static_cast<std::size_t>(i)].ok) f.cie = i;
                fdes_.push_back(f);
            } else {
                return;  // an FDE header cut short: not every entry read
            }
        }
        at = entry_end;
    }
    whole_ = at == data_.size();
}

std::vector<debug_frame_reader::range> debug_frame_reader::ranges() const {
    std::vector<range> out;
    for (const fde& f : fdes_) out.push_back({f.begin, f.end});
    return out;
}

debug_frame_reader::result debug_frame_reader::rule_at(std::uint32_t lookup, unwind_rule& out) const {
    const fde* f = nullptr;
    for (const fde& e : fdes_)
        if (lookup >= e.begin && lookup < e.end) {
            f = &e;
            break;
        }
    if (!f) return result::no_fde;
    if (f->cie < 0) return result::unsupported;
    const cie& ci = cies_[static_cast<std::size_t>(f->cie)];

    frame_state st, initial;
    std::vector<frame_state> remembered;
    std::uint64_t loc = f->begin;
    // Runs one program (the CIE's initial instructions, then the FDE's) up
    // to the first advance past `lookup`; false: unsupported.
    bool passed = false;
    const auto run = [&](std::size_t from, std::size_t to) {
        cursor c{data_, from, to};
        while (c.ok && c.at < c.end && !passed) {
            const auto op = static_cast<unsigned>(c.fixed(1));
            std::uint64_t reg = 0;
            std::optional<std::uint64_t> advance;
            reg_rule rr;
            bool set_reg = false;
            // Register `r`'s rule becomes `x` (applied after the switch).
            const auto set = [&](std::uint64_t r, reg_rule x) {
                reg = r;
                rr = x;
                set_reg = true;
            };
            const auto restored = [&](std::uint64_t r) { return r < tracked ? initial.regs[r] : reg_rule{}; };
            switch (op >> 6) {
            case 1:
                advance = (op & 0x3fu) * ci.code_align;
                break;
            case 2:
                set(op & 0x3fu, {reg_rule::at_cfa, static_cast<std::int64_t>(c.uleb()) * ci.data_align});
                break;
            case 3:
                set(op & 0x3fu, restored(op & 0x3fu));
                break;
            default:
                switch (op) {
                case 0x00:  // nop
                    break;
                case 0x01: {  // set_loc
                    const std::uint64_t to_loc = c.fixed(4);
                    if (to_loc > lookup) passed = true;
                    else loc = to_loc;
                    break;
                }
                case 0x02: advance = c.fixed(1) * ci.code_align; break;
                case 0x03: advance = c.fixed(2) * ci.code_align; break;
                case 0x04: advance = c.fixed(4) * ci.code_align; break;
                case 0x05: {  // offset_extended
                    const std::uint64_t r = c.uleb();
                    set(r, {reg_rule::at_cfa, static_cast<std::int64_t>(c.uleb()) * ci.data_align});
                    break;
                }
                case 0x06: {  // restore_extended
                    const std::uint64_t r = c.uleb();
                    set(r, restored(r));
                    break;
                }
                case 0x07:  // undefined
                case 0x08:  // same_value: no saved location, skipped as LLVM's
                    set(c.uleb(), {reg_rule::other, 0});
                    break;
                case 0x09:  // register (held in another): skipped as LLVM's
                    set(c.uleb(), {reg_rule::other, 0});
                    c.uleb();
                    break;
                case 0x0a:
                    remembered.push_back(st);
                    break;
                case 0x0b:
                    if (remembered.empty()) return false;
                    st = remembered.back();
                    remembered.pop_back();
                    break;
                case 0x0c:  // def_cfa
                    st.cfa_reg = c.uleb();
                    st.cfa_offset = static_cast<std::int64_t>(c.uleb());
                    st.cfa_defined = true;
                    break;
                case 0x0d:  // def_cfa_register (GCC's CIEs open with it: the offset is then 0)
                    st.cfa_reg = c.uleb();
                    if (!st.cfa_defined) st.cfa_offset = 0;
                    st.cfa_defined = true;
                    break;
                case 0x0e:  // def_cfa_offset
                    if (!st.cfa_defined) return false;
                    st.cfa_offset = static_cast<std::int64_t>(c.uleb());
                    break;
                case 0x11: {  // offset_extended_sf
                    const std::uint64_t r = c.uleb();
                    set(r, {reg_rule::at_cfa, c.sleb() * ci.data_align});
                    break;
                }
                case 0x12:  // def_cfa_sf
                    st.cfa_reg = c.uleb();
                    st.cfa_offset = c.sleb() * ci.data_align;
                    st.cfa_defined = true;
                    break;
                case 0x13:  // def_cfa_offset_sf
                    if (!st.cfa_defined) return false;
                    st.cfa_offset = c.sleb() * ci.data_align;
                    break;
                case 0x14: {  // val_offset
                    const std::uint64_t r = c.uleb();
                    set(r, {reg_rule::is_cfa, static_cast<std::int64_t>(c.uleb()) * ci.data_align});
                    break;
                }
                case 0x15: {  // val_offset_sf
                    const std::uint64_t r = c.uleb();
                    set(r, {reg_rule::is_cfa, c.sleb() * ci.data_align});
                    break;
                }
                case 0x2e:  // GNU_args_size
                    c.uleb();
                    break;
                default:  // expressions, vendor opcodes: LLVM's reading instead
                    return false;
                }
            }
            if (advance) {
                if (loc + *advance > lookup) passed = true;
                else loc += *advance;
            }
            if (set_reg && reg < tracked) st.regs[reg] = rr;
        }
        return c.ok;
    };
    if (!run(ci.insns, ci.insns_end)) return result::unsupported;
    initial = st;
    if (!passed && !run(f->insns, f->insns_end)) return result::unsupported;

    unwind_rule r;
    if (st.cfa_defined && st.cfa_reg < 32 && st.cfa_offset >= INT32_MIN && st.cfa_offset <= INT32_MAX) {
        r.cfa_reg = static_cast<std::uint8_t>(st.cfa_reg);
        r.cfa_offset = static_cast<std::int32_t>(st.cfa_offset);
        for (unsigned reg = 1; reg < 32; ++reg) {
            const reg_rule& x = st.regs[reg];
            if (x.kind != reg_rule::at_cfa && x.kind != reg_rule::is_cfa) continue;
            r.saved.push_back({static_cast<std::uint8_t>(reg), x.kind == reg_rule::is_cfa,
                               static_cast<std::int32_t>(x.offset)});
        }
        r.ok = true;
    }
    out = std::move(r);
    return result::found;
}

unwind_rule rule_of_fde(const llvm::dwarf::FDE& fde, std::uint32_t lookup) {
    unwind_rule r;
    auto table = llvm::dwarf::UnwindTable::create(&fde);
    if (!table) {
        llvm::consumeError(table.takeError());
        return r;
    }
    const llvm::dwarf::UnwindRow* row = nullptr;
    for (const llvm::dwarf::UnwindRow& u : *table)
        if (u.hasAddress() && u.getAddress() <= lookup) row = &u;
    if (!row) return r;
    const llvm::dwarf::UnwindLocation& cfa_rule = row->getCFAValue();
    using loc_t = llvm::dwarf::UnwindLocation;
    if (cfa_rule.getLocation() != loc_t::RegPlusOffset || cfa_rule.getRegister() >= 32 ||
        !(cfa_rule == loc_t::createIsRegisterPlusOffset(cfa_rule.getRegister(), cfa_rule.getOffset())))
        return r;
    r.cfa_reg = static_cast<std::uint8_t>(cfa_rule.getRegister());
    r.cfa_offset = cfa_rule.getOffset();
    for (unsigned reg = 1; reg < 32; ++reg) {
        const auto loc = row->getRegisterLocations().getRegisterLocation(reg);
        if (!loc || loc->getLocation() != loc_t::CFAPlusOffset) continue;
        r.saved.push_back({static_cast<std::uint8_t>(reg), *loc == loc_t::createIsCFAPlusOffset(loc->getOffset()),
                           loc->getOffset()});
    }
    r.ok = true;
    return r;
}

}  // namespace npu::platform
