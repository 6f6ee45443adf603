#include "soc.h"

#include <cmath>

#include "blocks.h"
#include "fault_context.h"

#include "accel/systolic_array.h"
#include "cluster/event_unit.h"
#include "cluster/event_unit_regs.h"
#include "cpu/core.h"
#include "dma/dma.h"
#include "interconnect/router.h"
#include "memory/memory.h"
#include "periph/cluster_ctrl.h"
#include "periph/soc_periph.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

namespace npu::platform {

using base::exit_code;
using cfg::initiator_class;

soc::soc(sc_core::sc_module_name nm, const cfg::config& cfg, base::log_level level)
    : base::context_module(nm), cfg_(cfg), map_(cfg::memory_map::build(cfg)) {
    context().configure(cfg);
    context().level = level;

    router_ = std::make_unique<interconnect::router>("router", cfg, map_);
    for (const auto& r : map_.regions()) {
        if (r.kind != cfg::region_kind::memory) continue;
        memories_.push_back(std::make_unique<memory::memory>(r.name.c_str(), cfg, r.name));
        router_->bind_target(memories_.back()->socket, r.name);
    }
    soc_periph_ = std::make_unique<periph::soc_periph>("soc_periph", cfg);
    router_->bind_target(soc_periph_->socket, "soc_periph");
    cluster_ctrl_ = std::make_unique<periph::cluster_ctrl>("cluster_ctrl", cfg);
    router_->bind_target(cluster_ctrl_->socket, "cluster_periph");

    // --- event unit (models/cluster) ---
    event_unit_ = std::make_unique<cluster::event_unit>("event_unit", cfg);
    router_->bind_target(event_unit_->socket, "event_unit");
    // --- DMA engine (models/dma) ---
    dma_ = std::make_unique<dma::dma>("dma", cfg);
    router_->bind_target(dma_->socket, "dma_ctrl");
    for (unsigned c = 0; c < dma_->channels(); ++c)
        router_->bind_initiator(dma_->master(c).socket, initiator_class::dma);
    // --- systolic array (models/accel), through its factory (sa.model) ---
    // Registers on the core-visible sa_ctrl window; its master reaches only
    // what visibility.sa allows (L1), so an L2/L3/NULL operand is a bus error.
    sa_ = make_systolic_array("sa", cfg);
    router_->bind_target(sa_->socket, "sa_ctrl");
    router_->bind_initiator(sa_->bus.socket, initiator_class::sa);

    const unsigned workers = static_cast<unsigned>(cfg.count("cluster.workers"));
    for (unsigned h = 0; h <= workers; ++h) {
        const bool cc = h == workers;
        std::string name = cc ? "cc" : fmt::format("core{}", h);
        cores_.push_back(std::make_unique<cpu::core>(name.c_str(), cfg, h, cc));
        router_->bind_initiator(cores_.back()->bus.socket, initiator_class::core);
    }

    // --- side-band lines ---
    // A transfer's or job's end or abort is an event in every hart's buffer
    // at its time; each hart's event mask decides whether it sleeps on it.
    dma_->done.bind(event_unit_->event_in[NPU_EVT_DMA_DONE]);
    dma_->error.bind(event_unit_->event_in[NPU_EVT_DMA_ERROR]);
    sa_->done.bind(event_unit_->event_in[NPU_EVT_SA_DONE]);
    sa_->error.bind(event_unit_->event_in[NPU_EVT_SA_ERROR]);
    // Hart h (the CC is hart `workers`): an event ends its WFI, its event
    // unit interrupt lines set mip bits; cluster control starts it (fetch
    // enable), sets its boot address and reads whether it is awake.
    for (unsigned h = 0; h <= workers; ++h) {
        cpu::core& c = *cores_[h];
        event_unit_->wake_hart[h].bind(c.event_wake);
        event_unit_->irq[h].bind(c.irq);
        cluster_ctrl_->fetch_enable[h].bind(c.fetch_enable);
        cluster_ctrl_->awake[h].bind(c.awake);
        cluster_ctrl_->boot_address.bind(c.boot_address);
    }

    loader_id_ = base::initiator_id{std::string(name()) + ".loader", static_cast<int>(initiator_class::loader), -1,
                                    "ELF loader"};
    loader_ = std::make_unique<base::bus_initiator>("loader", loader_id_);
    router_->bind_initiator(loader_->socket, initiator_class::loader);

    soc_periph_->read_string = [this](std::uint32_t addr) {
        char buf[64] = {};
        const unsigned n = loader_->debug_read(addr, buf, sizeof buf - 1);
        std::string s(buf, std::min<std::size_t>(n, std::strlen(buf)));
        return s.empty() ? fmt::format("0x{:08x}", addr) : s;
    };

    auto& svc = context().services;
    svc.describe_in_flight = [this](std::uint64_t a) {
        std::string t = dma_->in_flight_transfer_at(a);
        return t.empty() ? sa_->running_job_at(a) : t;
    };
    svc.describe_address = [this](int cls, std::uint64_t a) {
        return map_.lookup(static_cast<initiator_class>(cls), a).describe();
    };
    svc.describe_register = [this](int cls, std::uint64_t a, bool write) -> std::string {
        const auto info = map_.lookup(static_cast<initiator_class>(cls), a);
        if (info.what != cfg::address_info::status::mapped) return {};
        const base::peripheral* blocks[] = {soc_periph_.get(), cluster_ctrl_.get(), event_unit_.get(), dma_.get(),
                                            sa_.get()};
        for (const base::peripheral* p : blocks)
            if (p && p->section() == info.target->name) return p->access_problem(info.offset, write, static_cast<initiator_class>(cls) == initiator_class::core);
        return {};
    };
    svc.in_flight_ended = [this](std::uint64_t a) { return sa_->release_ended_results(a); };
    svc.engine_caller = [this](const base::initiator_id* w) { return dma_->caller_of(w); };
    svc.buffers_in_use = [this](const sc_core::sc_time& at) {
        std::vector<base::buffer_use> uses;
        dma_->in_flight_uses(uses, at);
        sa_->running_job_use(at, uses);
        return uses;
    };
    svc.mark_unwritten = [this](std::uint64_t a, std::uint64_t n) {
        // An allocation: its bytes never-written, and not freed up to the
        // allocators' 8-byte alignment (docs/firmware.md): a store into the
        // padding after the requested size is no "store into a freed heap
        // block" because the memory was freed before (it is not one in a
        // block whose memory never was).
        const std::uint64_t padded = ((a + n + 7) & ~std::uint64_t{7}) - a;
        if (memory::memory* m = memory_at(a, n)) {
            const std::uint64_t off = map_.lookup(initiator_class::loader, a).offset;
            m->mark_unwritten(off, n);
            if (padded > n && memory_at(a, padded) == m) m->clear_freed(off + n, padded - n);
        }
        // An L1 heap block (alloc.c: payloads 4 bytes past an 8-byte
        // aligned header, blocks a multiple of 8): its header and the bytes
        // after the requested size up to and including the next block's
        // header are the allocator's, not the program's (a store there is a
        // heap overflow). The allocator's own stores there keep the mark.
        if (a >= l1_heap_lo_ + 4 && a + n <= l1_heap_hi_) {
            // The block's end from the header the allocator just wrote: a
            // block that took a free one whole (its remainder too small to
            // split off) ends up to 8 bytes after the padding, and those
            // bytes are not the program's either.
            std::uint64_t end = a + padded;
            std::uint32_t header = 0;
            if (loader_->debug_read(a - 4, &header, 4) == 4) {
                const std::uint64_t size = header & ~std::uint32_t{7};
                if (a - 4 + size >= end && a - 4 + size <= l1_heap_hi_) end = a - 4 + size;
            }
            const std::uint64_t lo = a - 4, hi = std::min(end + 4, l1_heap_hi_);
            if (memory::memory* m = memory_at(lo, hi - lo)) {
                const std::uint64_t off = map_.lookup(initiator_class::loader, lo).offset;
                m->mark_redzone(off, 4);
                m->mark_redzone(off + 4 + n, hi - a - n);
                for (auto r = redzone_ranges_.lower_bound(a); r != redzone_ranges_.end() && r->first < a + n;)
                    r = r->second <= a + n ? redzone_ranges_.erase(r) : std::next(r);
                redzone_ranges_[lo] = a;
                if (a + n < hi) redzone_ranges_[a + n] = hi;
            }
        }
        n = padded;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> kept;
        for (const auto& r : freed_ranges_) {
            if (r.second <= a || a + n <= r.first) {
                kept.push_back(r);
                continue;
            }
            if (r.first < a) kept.emplace_back(r.first, a);
            if (a + n < r.second) kept.emplace_back(a + n, r.second);
        }
        freed_ranges_.swap(kept);
    };
    svc.mark_freed = [this](std::uint64_t a, std::uint64_t n) {
        if (memory::memory* m = memory_at(a, n)) m->mark_freed(map_.lookup(initiator_class::loader, a).offset, n);
        if (n) freed_ranges_.emplace_back(a, a + n);
    };
    svc.first_redzone = [this](std::uint64_t lo, std::uint64_t hi) -> std::optional<std::uint64_t> {
        // Ranges are a header and a block's padding: at most 20 bytes long.
        for (auto r = redzone_ranges_.lower_bound(lo >= 32 ? lo - 32 : 0); r != redzone_ranges_.end() && r->first < hi;
             ++r)
            if (const auto f = first_marked(std::max(lo, r->first), std::min(hi, r->second), base::shadow_redzone))
                return f;
        return std::nullopt;
    };
    // The shadow is scanned only where a freed range meets [lo, hi): a DMA
    // push asks for each destination row, and most programs free nothing.
    svc.first_freed = [this](std::uint64_t lo, std::uint64_t hi) -> std::optional<std::uint64_t> {
        std::optional<std::uint64_t> first;
        for (const auto& r : freed_ranges_) {
            const std::uint64_t a = std::max(lo, r.first);
            if (first && *first <= a) continue;
            if (const auto f = first_marked(a, std::min(hi, r.second), base::shadow_freed)) first = f;
        }
        return first;
    };
    svc.startup_zeroed = [this]() {
        if (!image_ || context().services.memcheck() != base::memcheck_mode::strict) return;
        auto symbol = [this](const std::string& name) {
            auto a = image_->symbol_address(name);
            return a ? a : image_->absolute_symbol(name);
        };
        for (const char* section : {"bss", "l1_bss"}) {
            const auto start = symbol(fmt::format("__{}_start", section));
            const auto end = symbol(fmt::format("__{}_end", section));
            if (!start || !end || *end <= *start) continue;
            if (memory::memory* m = memory_at(*start, *end - *start))
                m->mark_zeroed(map_.lookup(initiator_class::loader, *start).offset, *end - *start);
        }
    };
}

memory::memory* soc::memory_at(std::uint64_t addr, std::uint64_t len) const {
    const auto info = map_.lookup(initiator_class::loader, addr);
    if (info.what != cfg::address_info::status::mapped || info.target->kind != cfg::region_kind::memory ||
        info.offset + len > info.target->size)
        return nullptr;
    for (const auto& m : memories_)
        if (m->section() == info.target->name) return m.get();
    return nullptr;
}

struct soc::call_site {
    bool found = false;
    frame_info site;
    std::string api;
};

soc::~soc() = default;

std::vector<const base::bus_initiator*> soc::initiators() const {
    // Every bus master whose traffic the report breaks down per level.
    std::vector<const base::bus_initiator*> v;
    for (const auto& c : cores_) v.push_back(&c->bus);
    for (unsigned c = 0; c < dma_->channels(); ++c) v.push_back(&dma_->master(c));
    v.push_back(&sa_->bus);
    return v;
}

const memory::memory* soc::memory_of(const std::string& region) const {
    for (const auto& m : memories_)
        if (m->section() == region) return m.get();
    return nullptr;
}

bool soc::written_mask(std::uint64_t addr, unsigned char* mask, std::uint64_t size) {
    sa_->release_ended_results();  // C of an ended job is written
    const auto info = map_.lookup(initiator_class::loader, addr);
    if (info.what != cfg::address_info::status::mapped || info.target->kind != cfg::region_kind::memory) return false;
    const memory::memory* m = memory_of(info.target->name);
    return m && m->written_mask(info.offset, size, mask);
}

void soc::load(const elf_image& image) {
    // Multi-socket bindings are completed at the end of elaboration: finish
    // it (running no simulated time; every hart is still parked) before the
    // loader's debug transactions go through the router.
    if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (const auto& s : image.segments()) {
        const std::uint64_t first = s.address, last = static_cast<std::uint64_t>(s.address) + s.mem_size - 1;
        const std::string seg = fmt::format("{}: segment {} [0x{:08x}, 0x{:08x}]", image.path(), s.index, first, last);
        const auto info = map_.lookup(initiator_class::loader, first);
        if (info.what == cfg::address_info::status::not_visible)
            throw elf_error(seg + " falls in " + info.target->name + ", which the loader cannot write" +
                            (info.target->kind == cfg::region_kind::peripheral ? " (a peripheral)" : ""));
        if (info.what == cfg::address_info::status::unmapped)
            throw elf_error(seg + " is outside every memory: " + info.describe());
        // Measured from the segment's offset in its target, not its address:
        // through the alias window the address is the window's, not the
        // target's, and the window may be shorter than the target.
        const std::uint64_t room =
            info.via_alias && map_.alias().size != 0 ? std::min(map_.alias().size, info.target->size) : info.target->size;
        if (info.offset + s.mem_size > room)
            throw elf_error(seg + " runs " + std::to_string(info.offset + s.mem_size - room) + " bytes past the end of " +
                            (info.via_alias ? "the alias window onto " : "") + info.target->name + " (" +
                            cfg::format_size(room) + ")");
        if (!s.bytes.empty() &&
            loader_->debug_write(first, s.bytes.data(), static_cast<unsigned>(s.bytes.size())) != s.bytes.size())
            throw elf_error(seg + ": the memory refused the write");
        // .bss-like tail: zero-filled, and for memcheck that counts as
        // written — except `noinit` sections, which stay never-written.
        std::uint64_t a = first + s.bytes.size();
        const std::uint64_t end = last + 1;
        while (a < end) {
            std::uint64_t stop = end, next = end;
            for (const auto& r : image.noinit())
                if (r.address + static_cast<std::uint64_t>(r.size) > a && r.address < stop) {
                    stop = std::max<std::uint64_t>(a, r.address);
                    next = r.address + static_cast<std::uint64_t>(r.size);
                }
            if (stop > a) {
                const std::vector<unsigned char> zeros(stop - a, 0);
                if (loader_->debug_write(a, zeros.data(), static_cast<unsigned>(zeros.size())) != zeros.size())
                    throw elf_error(seg + ": the memory refused the zero fill");
            }
            a = std::max(stop, next);
        }
    }
    // The cores fetch code: an entry point or executable segment they cannot
    // see is a bus error at the first fetch, so it is refused at load.
    const auto fetchable = [&](std::uint64_t a) {
        const auto info = map_.lookup(initiator_class::core, a);
        return info.what == cfg::address_info::status::mapped && info.target->kind == cfg::region_kind::memory;
    };
    auto& code = context().code;
    code.clear();
    for (const auto& s : image.segments())
        if (s.executable) code.emplace_back(s.address, std::uint64_t{s.address} + s.mem_size);
    for (const auto& s : image.segments())
        if (s.executable && !fetchable(s.address))
            throw elf_error(fmt::format("{}: executable segment {} at 0x{:08x} is not fetchable by the cores: {}",
                                        image.path(), s.index, s.address,
                                        map_.lookup(initiator_class::core, s.address).describe()));
    if (!fetchable(image.entry()))
        throw elf_error(fmt::format("{}: entry point 0x{:08x} is not fetchable by the cores: {}", image.path(),
                                    image.entry(), map_.lookup(initiator_class::core, image.entry()).describe()));
    image_ = &image;
    install_stack_guards(image);
    for (auto& c : cores_) c->set_boot_address(image.entry());
    cluster_ctrl_->set_reset_boot_address(image.entry());
    if (auto tohost = image.symbol_address("tohost"))
        for (auto& c : cores_) c->set_tohost(*tohost);
    heap_blocks_.clear();
    freed_ranges_.clear();
    redzone_ranges_.clear();
    pending_heap_blocks_.clear();
    call_sites_.clear();
    auto& services = context().services;
    // The L1 allocator's functions (and its helpers, where the compiler
    // kept them out of line): their stores into freed memory and headers
    // are its own.
    services.heap_code.clear();
    for (const auto& sym : image.symbols())
        if (sym.function && sym.size &&
            (sym.name == "npu_l1_malloc" || sym.name == "npu_l1_free" || sym.name == "npu_l1_free_bytes" ||
             sym.name == "l1_init" || sym.name == "next_block"))
            services.heap_code.emplace_back(sym.address, sym.address + sym.size);
    {
        const auto lo = linker_symbol(image, "__l1_noinit_end"), hi = linker_symbol(image, "__stacks_bottom");
        l1_heap_lo_ = l1_heap_hi_ = 0;
        if (lo && hi && (*lo + 7) / 8 * 8 < (*hi & ~std::uint64_t{7})) {
            l1_heap_lo_ = (*lo + 7) / 8 * 8;
            l1_heap_hi_ = *hi & ~std::uint64_t{7};
        }
    }
    services.heap_redzone = [this](std::uint64_t a) { return heap_redzone_text(static_cast<std::uint32_t>(a)); };
    chain_capture_ = std::make_unique<call_chain_capture>(image);
    services.capture_call_chain = [this](int hart, base::call_chain& out) {
        if (hart < 0 || static_cast<std::size_t>(hart) >= cores_.size()) return;
        // The hart is inside a bus access: its registers and pc are current.
        const target_reader read = stack_reader();
        out.frames = chain_capture_->capture(cores_[static_cast<std::size_t>(hart)]->state(), read, out.pc,
                                             base::call_chain::max_frames);
        out.region = soc_periph_->innermost_region(hart);
    };
    services.describe_call_chain = [this](const base::call_chain& c) {
        std::string s = call_chain_text(call_chain_frames(*image_, c.pc, c.frames));
        const auto& regions = soc_periph_->regions();
        if (!s.empty() && c.region >= 0 && static_cast<std::size_t>(c.region) < regions.size())
            s += ", in region " + regions[static_cast<std::size_t>(c.region)].name;
        return s;
    };
    services.runtime_caller = [this](int hart) -> base::deferred_text {
        runtime_stack stack;
        if (!capture_runtime_stack(hart, stack)) return nullptr;
        // Owns what it symbolises: the stack, and the image it belongs to
        // (call_sites_ is emptied by the next load()).
        return [this, stack, img = image_]() -> std::string {
            const call_site c = runtime_call_site(stack, *img);
            if (!c.found) return "";
            return fmt::format("{}, called from {}{}", c.api, c.site.function,
                               c.site.file.empty() ? "" : fmt::format(" ({}:{})", c.site.file, c.site.line));
        };
    };
    const auto heap_event = [this](std::uint64_t a, std::uint64_t n, int hart, bool freed) {
        pending_heap_block b;
        if (!n || !capture_runtime_stack(hart, b.stack)) return;
        b.lo = static_cast<std::uint32_t>(a);
        b.hi = static_cast<std::uint32_t>(a + n);
        b.freed = freed;
        pending_heap_blocks_.push_back(b);
        if (pending_heap_blocks_.size() >= max_pending_heap_blocks) add_pending_heap_blocks();
    };
    services.heap_block = [heap_event](std::uint64_t a, std::uint64_t n, int hart) { heap_event(a, n, hart, false); };
    services.heap_freed = [heap_event](std::uint64_t a, std::uint64_t n, int hart) { heap_event(a, n, hart, true); };
    context().services.symbolize = [this, &image](std::uint64_t a) {
        if (std::string h = heap_block_at(static_cast<std::uint32_t>(a)); !h.empty()) return h;
        std::string s = image.symbolize(static_cast<std::uint32_t>(a));
        std::string line = image.source_line(static_cast<std::uint32_t>(a));
        if (!line.empty()) s += (s.empty() ? "" : " ") + std::string("(") + line + ")";
        return s;
    };
}

target_reader soc::stack_reader() {
    // A hart's stack words, read from the dense memory that holds them (the
    // bytes the loader's debug read would return) without a debug
    // transaction through the router per word: a DMA push, an SA start and
    // every npu_l1_malloc/npu_l1_free capture a chain.
    return [this](std::uint64_t a, void* d, unsigned n) -> unsigned {
        const auto in_window = [&] {
            return a >= stack_window_.base && a < stack_window_.end && n <= stack_window_.end - a;
        };
        if (!in_window()) {
            // Another memory than the last word's: its window, if dense.
            const auto info = map_.lookup(cfg::initiator_class::loader, a);
            if (info.what == cfg::address_info::status::mapped && !info.via_alias &&
                info.target->kind == cfg::region_kind::memory)
                if (const memory::memory* m = memory_of(info.target->name); m && m->dense_bytes())
                    stack_window_ = {a - info.offset, a - info.offset + m->size(), m->dense_bytes()};
        }
        if (!in_window()) return loader_->debug_read(a, d, n);
        std::memcpy(d, stack_window_.host + (a - stack_window_.base), n);
        return n;
    };
}

bool soc::capture_runtime_stack(int hart, runtime_stack& out) {
    if (!image_ || hart < 0 || static_cast<std::size_t>(hart) >= cores_.size()) return false;
    // The hart is inside a bus access: its registers and pc (the access's)
    // are current.
    const target_reader read = stack_reader();
    out.frames = chain_capture_->capture(cores_[static_cast<std::size_t>(hart)]->state(), read, out.pc,
                                         runtime_stack::max_frames);
    return true;
}

soc::call_site soc::runtime_call_site(const runtime_stack& s, const elf_image& image) {
    const auto symbolise = [&](const std::vector<std::uint32_t>& pcs) {
        call_site c;
        c.found = user_call_site(call_chain_frames(image, pcs.data(), static_cast<unsigned>(pcs.size())), c.site, c.api);
        return c;
    };
    std::vector<std::uint32_t> pcs(s.pc, s.pc + s.frames);
    // A stack of an image loaded before this one: not cached with this one's.
    if (&image != image_) return symbolise(pcs);
    auto [it, inserted] = call_sites_.try_emplace(std::move(pcs));
    if (inserted) it->second = std::make_unique<call_site>(symbolise(it->first));
    return *it->second;
}

void soc::add_pending_heap_blocks() {
    for (const pending_heap_block& p : pending_heap_blocks_) {
        const call_site c = runtime_call_site(p.stack, *image_);
        if (!c.found) continue;
        const std::string site =
            c.site.file.empty() ? c.site.function : fmt::format("{}:{}", c.site.file, c.site.line);
        if (p.freed) {
            // The newest block that starts there (its length is the block's
            // capacity, at least what was asked for).
            for (auto b = heap_blocks_.rbegin(); b != heap_blocks_.rend(); ++b)
                if (b->lo == p.lo) {
                    b->freed_at = site;
                    break;
                }
            continue;
        }
        // A block reuses the memory of freed ones (npu_l2_free does not say
        // when it frees): what it covers of them is its own now. A freed
        // block it covers in part still names the rest (a store into the
        // freed tail of a partly reused block names that block).
        std::vector<heap_block> kept;
        for (heap_block& b : heap_blocks_) {
            if (!(b.named_lo < p.hi && p.lo < b.named_hi)) {
                kept.push_back(std::move(b));
                continue;
            }
            if (b.freed_at.empty()) continue;
            if (b.named_lo < p.lo) {
                kept.push_back(b);
                kept.back().named_hi = p.lo;
            }
            if (p.hi < b.named_hi) {
                kept.push_back(b);
                kept.back().named_lo = p.hi;
            }
        }
        heap_blocks_.swap(kept);
        heap_blocks_.push_back({p.lo, p.hi, c.api, site, {}, p.lo, p.hi});
    }
    pending_heap_blocks_.clear();
}

std::string soc::heap_block_at(std::uint32_t a) {
    add_pending_heap_blocks();
    for (auto b = heap_blocks_.rbegin(); b != heap_blocks_.rend(); ++b)
        if (a >= b->named_lo && a < b->named_hi)
            return fmt::format("{}{} block{}, {} B, allocated at {}{}", b->freed_at.empty() ? "" : "freed ",
                               b->allocator, a == b->lo ? std::string() : fmt::format("+0x{:x}", a - b->lo),
                               b->hi - b->lo, b->site, b->freed_at.empty() ? "" : ", freed at " + b->freed_at);
    return "";
}

std::string soc::heap_redzone_text(std::uint32_t a) {
    add_pending_heap_blocks();
    // The live block it follows (a store past its end: the usual overflow,
    // by a count or an index one too large) within its padding and the next
    // header, else the block whose header it is (a store before its start).
    const heap_block *before = nullptr, *after = nullptr;
    for (auto b = heap_blocks_.rbegin(); b != heap_blocks_.rend(); ++b) {
        if (!b->freed_at.empty()) continue;
        // (its padding, up to 8 bytes it took whole with the free block it
        // came from, and the next header)
        if (b->hi <= a && a < ((b->hi + 7u) & ~7u) + 12u && (!before || b->hi > before->hi)) before = &*b;
        if (a < b->lo && b->lo - a <= 4 && (!after || b->lo < after->lo)) after = &*b;
    }
    const auto name = [](const heap_block& b) {
        return fmt::format("the {} B {} block at 0x{:08x}, allocated at {}", b.hi - b.lo, b.allocator, b.lo, b.site);
    };
    if (before) {
        // Both: the header between two live blocks, which an overflow of
        // the first and an underflow of the second both reach.
        const std::uint32_t d = a - before->hi;
        return fmt::format("{} byte{} past the end of {}{}", d, d == 1 ? "" : "s", name(*before),
                           after ? "; the header of " + name(*after) : std::string());
    }
    if (after) {
        const std::uint32_t d = after->lo - a;
        return fmt::format("{} byte{} before the start of {} (its header)", d, d == 1 ? "" : "s", name(*after));
    }
    return "";
}

std::optional<std::uint64_t> soc::first_marked(std::uint64_t lo, std::uint64_t hi, unsigned char bit) {
    if (lo >= hi) return std::nullopt;
    memory::memory* m = memory_at(lo, hi - lo);
    if (!m) return std::nullopt;
    const std::uint64_t off = map_.lookup(initiator_class::loader, lo).offset;
    const std::uint64_t f = m->first_marked(off, hi - lo, bit);
    if (f == UINT64_MAX) return std::nullopt;
    return lo + (f - off);
}

std::optional<std::uint64_t> soc::linker_symbol(const elf_image& image, const char* name) {
    auto v = image.absolute_symbol(name);
    if (v) return v;
    return image.symbol_address(name);
}

void soc::install_stack_guards(const elf_image& image) {
    const auto sym = [&image](const char* name) { return linker_symbol(image, name); };
    const auto top = sym("__stack_top"), size = sym("__npu_stack_size"), bottom = sym("__stacks_bottom");
    stacks_.clear();
    if (!top || !size || !bottom || !*size || *bottom >= *top) return;
    const std::uint64_t l1_base = cfg_.address("l1.base"), l1_end = l1_base + cfg_.size("l1.size");
    if (*bottom < l1_base || *top > l1_end) return;  // not the generator's layout: no guard
    // Hart h's stack is [top - (h + 1) * size, top - h * size) (crt0.S).
    for (const auto& c : cores_) {
        const std::uint64_t hi = *top - std::uint64_t(c->hart_id()) * *size;
        if (hi < *bottom + *size) continue;  // more harts than the firmware has stacks for
        stacks_.push_back({c->hart_id(), static_cast<std::uint32_t>(hi - *size), static_cast<std::uint32_t>(hi)});
    }
    auto& svc = context().services;
    if (svc.memcheck() != base::memcheck_mode::off)
        for (const auto& st : stacks_)
            cores_[st.hart]->set_stack_guard(static_cast<std::uint32_t>(l1_base), st.lo, st.hi);
    // A bound that is also L1's end (the top hart's stack top) has no memory
    // beyond it: running past it is the bus error the burst gets there, not a
    // crossing into something else.
    svc.stack_crossed = [this, l1_base, l1_end](std::uint64_t lo, std::uint64_t hi, std::uint64_t& s_lo,
                                                std::uint64_t& s_hi) -> std::string {
        for (const auto& st : stacks_)
            if (lo < st.hi && st.lo < hi && ((lo < st.lo && st.lo > l1_base) || (hi > st.hi && st.hi < l1_end))) {
                s_lo = st.lo;
                s_hi = st.hi;
                return fmt::format("the stack of hart {}{} [0x{:08x}, 0x{:08x})", st.hart,
                                   cores_[st.hart]->is_cluster_controller() ? " (cluster controller)" : "", st.lo,
                                   st.hi);
            }
        return std::string();
    };
    // Hart `hart`'s stack, or null (no core, or more harts than stacks).
    const auto stack_of = [this](int hart) -> const hart_stack* {
        for (const auto& st : stacks_)
            if (static_cast<int>(st.hart) == hart) return &st;
        return nullptr;
    };
    svc.stack_overflowed_into = [this, stack_of](int hart, std::uint64_t lo, std::uint64_t hi, std::uint64_t& sp,
                                                 std::uint64_t& s_lo, std::uint64_t& s_hi) {
        const hart_stack* st = stack_of(hart);
        if (!st) return false;
        sp = cores_[st->hart]->state().x[2];
        s_lo = st->lo;
        s_hi = st->hi;
        return sp < st->lo && lo < st->lo && sp < hi;
    };
    svc.stack_overflow_note = [this, stack_of](int hart) -> std::string {
        const hart_stack* st = stack_of(hart);
        if (!st) return std::string();
        const std::uint32_t sp = cores_[st->hart]->state().x[2];
        if (sp >= st->lo) return std::string();
        return fmt::format("sp 0x{:08x} is {} bytes below the limit of its stack [0x{:08x}, 0x{:08x}): the "
                           "stack overflowed (a large local array, deep calls; firmware.stack_size)",
                           sp, st->lo - sp, st->lo, st->hi);
    };
    // Below the stacks: npu_l1_malloc's heap (alloc.c), up to __stacks_bottom.
    const auto l1_heap = sym("__l1_noinit_end");
    svc.describe_stack = [this, heap_lo = l1_heap ? *l1_heap : *bottom, heap_hi = *bottom](std::uint64_t a) {
        for (const auto& st : stacks_)
            if (a >= st.lo && a < st.hi)
                return fmt::format("the stack of hart {}{} [0x{:08x}, 0x{:08x})", st.hart,
                                   cores_[st.hart]->is_cluster_controller() ? " (cluster controller)" : "", st.lo,
                                   st.hi);
        if (a >= heap_lo && a < heap_hi)
            return fmt::format("the L1 heap of npu_l1_malloc [0x{:08x}, 0x{:08x}), right below the stacks", heap_lo,
                               heap_hi);
        return std::string();
    };
}

std::vector<std::string> soc::isa_mismatch(const elf_image& image) const {
    std::vector<std::string> missing;
    const std::string& arch = image.arch();
    if (arch.rfind("rv32", 0) != 0) return missing;
    const std::vector<std::string> have = cfg_.names("core.isa_extensions");
    auto has = [&have](const std::string& n) { return std::find(have.begin(), have.end(), n) != have.end(); };
    // "rv32i2p1_m2p0_a2p1_f2p2_c2p0_zicsr2p0_..._xcvalu1p0": a name, then its version.
    std::size_t at = 0;
    while (at < arch.size()) {
        const std::size_t end = std::min(arch.find('_', at), arch.size());
        std::string ext = arch.substr(at, end - at);
        at = end + 1;
        if (ext.rfind("rv32", 0) == 0) ext = ext.substr(4);
        while (!ext.empty() && (std::isdigit(static_cast<unsigned char>(ext.back())) || ext.back() == 'p'))
            ext.pop_back();
        // Compressed: c, or its Zc* parts (zca, zcf); the cores have `c` with Zcf.
        const std::string need = ext == "zca" || ext == "zcf" ? "c" : ext;
        const bool optional = need == "c" || need.rfind("xcv", 0) == 0;
        if ((optional && !has(need)) || need == "d" || need == "zcd")
            if (std::find(missing.begin(), missing.end(), need) == missing.end()) missing.push_back(need);
    }
    return missing;
}

std::vector<std::string> soc::layout_mismatches(const elf_image& image) const {
    std::vector<std::string> out;
    auto check = [&](const std::string& sym, std::uint64_t actual, const std::string& key, bool size) {
        auto v = image.absolute_symbol(sym);
        if (!v || *v == actual) return;
        out.push_back(fmt::format("linked for {} = {}, this platform has {}", key,
                                  size ? cfg::format_size(*v) : fmt::format("0x{:x}", *v),
                                  size ? cfg::format_size(actual) : fmt::format("0x{:x}", actual)));
    };
    for (const auto& r : map_.regions()) {
        check("__npu_" + r.name + "_base", r.base, r.name + ".base", false);
        check("__npu_" + r.name + "_size", r.size, r.name + ".size", true);
    }
    if (auto w = image.absolute_symbol("__npu_nb_workers"); w && *w != cfg_.count("cluster.workers"))
        out.push_back(
            fmt::format("linked for cluster.workers = {}, this platform has {}", *w, cfg_.count("cluster.workers")));
    check("__npu_stack_size", cfg_.size("firmware.stack_size"), "firmware.stack_size", true);
    return out;
}

void soc::start_run() {
    cores_.back()->start();  // the cluster controller boots; workers stay parked
}

run_result soc::run() { return run_together({this}).front(); }

std::vector<run_result> soc::run_together(const std::vector<soc*>& socs) {
    // One SoC stops the kernel itself; several stop it once all have stopped.
    if (socs.size() > 1) {
        auto group = std::make_shared<base::stop_group>();
        for (soc* s : socs) s->context().services.join_stop_group(group);
    }
    std::uint64_t limit_ps = 0;  // 0: no watchdog
    bool unlimited = false;
    for (soc* s : socs) {
        const std::uint64_t max_cycles = s->cfg_.cycles("soc.max_cycles");
        const sc_core::sc_time period(1.0 / static_cast<double>(s->cfg_.frequency_hz("soc.cluster_clock")),
                                      sc_core::SC_SEC);
        // A limit beyond SystemC's time range (e.g. --max-cycles=UINT64_MAX) is no limit.
        const long double ps = static_cast<long double>(period.value()) * static_cast<long double>(max_cycles);
        if (!max_cycles || ps >= static_cast<long double>(sc_core::sc_max_time().value()))
            unlimited = true;
        else
            limit_ps = std::max<std::uint64_t>(limit_ps, (period * static_cast<double>(max_cycles)).value());
        s->start_run();
    }

    const auto t0 = std::chrono::steady_clock::now();
    // Up to the watchdog's limit, or until nothing is left to run: a
    // deadlock (every hart asleep, nothing that could wake one) ends the run
    // when it happens, with or without a limit (run to the limit, it used
    // to idle there and be reported as the watchdog).
    if (!unlimited)
        sc_core::sc_start(sc_core::sc_time::from_value(limit_ps), sc_core::SC_EXIT_ON_STARVATION);
    else
        sc_core::sc_start();
    const auto t1 = std::chrono::steady_clock::now();
    // A hart left blocked in a register access still stamps log lines with
    // its access's offset: the run is over, and its stack with it.
    base::set_log_time_offset(nullptr);

    std::vector<run_result> results;
    for (soc* s : socs) results.push_back(s->finish_run(std::chrono::duration<double>(t1 - t0).count()));
    return results;
}

run_result soc::finish_run(double host_seconds) {
    auto& svc = context().services;
    const std::uint64_t max_cycles = cfg_.cycles("soc.max_cycles");
    const sc_core::sc_time period(1.0 / static_cast<double>(cfg_.frequency_hz("soc.cluster_clock")), sc_core::SC_SEC);
    if (!svc.stop_requested()) {
        std::string harts;
        for (std::size_t h = 0; h < cores_.size(); ++h) {
            if (cores_[h]->parked()) {  // its pc means nothing: it never ran
                harts += fmt::format("\n  hart {} ({}): parked (never woken)", h,
                                     h + 1 == cores_.size() ? "cluster controller" : "worker");
                continue;
            }
            const auto pc = cores_[h]->pc();
            std::string sym = svc.symbol_of(pc);
            harts += fmt::format("\n  hart {} ({}): {} pc 0x{:08x}{}", h,
                                 h + 1 == cores_.size() ? "cluster controller" : "worker",
                                 !cores_[h]->running()        ? "asleep"
                                 : cores_[h]->in_bus_access() ? "asleep in a blocking register"
                                                              : "running",
                                 pc, sym.empty() ? "" : " <" + sym + ">");
        }
        // Divide rather than multiply: period * UINT64_MAX is past sc_time's range.
        // The harts that reached the limit stopped there ahead of SystemC
        // time, and the kernel then ran out of work before the limit: the
        // furthest hart's cycle says whether the limit was reached.
        std::uint64_t reached = static_cast<std::uint64_t>(std::llround(sc_core::sc_time_stamp() / period));
        for (const auto& c : cores_) reached = std::max(reached, c->state().cycle);
        if (max_cycles && reached >= max_cycles)
            svc.request_stop(
                exit_code::watchdog,
                fmt::format("watchdog: --max-cycles={} reached without the firmware exiting", max_cycles) + harts);
        else
            svc.request_stop(exit_code::watchdog,
                             "deadlock: every hart is asleep and nothing is left that could wake one" + harts);
    }
    run_result r;
    r.code = svc.stop_code();
    r.reason = svc.stop_reason();
    r.firmware_code = svc.firmware_code();
    // The SoC's end: when it stopped, or (watchdog, deadlock) when the kernel did.
    const sc_core::sc_time end = svc.stopped_while_running() ? svc.stop_time() : sc_core::sc_time_stamp();
    std::uint64_t cyc = static_cast<std::uint64_t>(end / period);
    // Cores run ahead of SystemC time by up to a quantum: the run lasted as
    // long as the furthest of them got.
    for (const auto& c : cores_) cyc = std::max(cyc, c->state().cycle);
    r.cycles = cyc;
    soc_periph_->close_open_regions(cyc);
    r.host_seconds = host_seconds;
    return r;
}

void soc::on_region_end(std::function<void(const std::string&)> fn) { soc_periph_->on_region_end = std::move(fn); }

void soc::sample_in_regions(std::function<std::vector<std::uint64_t>()> fn) {
    soc_periph_->region_counters = std::move(fn);
}

}  // namespace npu::platform
