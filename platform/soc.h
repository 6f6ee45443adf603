// The SoC built from a config: memories, peripherals, the router with its
// per-initiator views, the cores, and the ELF loader; the side-band lines
// between them bound port to port. Owns its simulation context (models
// reach it through component::context(); several SoCs can live in one
// process), simulation control (watchdog, deadlock detection) and feeds the
// end-of-run report.
#pragma once

#include "elf_image.h"

#include "base/bus_initiator.h"
#include "base/context.h"
#include "base/peripheral.h"
#include "config/memory_map.h"

#include <systemc>

#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace npu::memory {
class memory;
}
namespace npu::interconnect {
class router;
}
namespace npu::periph {
class soc_periph;
class cluster_ctrl;
}  // namespace npu::periph
namespace npu::cpu {
class core;
}
namespace npu::dma {
class dma;
}
namespace npu::cluster {
class event_unit;
}
namespace npu::accel {
class systolic_array;
}

namespace npu::platform {

struct run_result {
    base::exit_code code = base::exit_code::success;
    std::string reason;
    int firmware_code = 0;
    std::uint64_t cycles = 0;     // cluster cycles of simulated time
    double host_seconds = 0;
};

struct frame_info;  // fault_context.h
class call_chain_capture;

class soc : public base::context_module {
public:
    // `level`: the log level of every model of this SoC (npusim --log-level).
    soc(sc_core::sc_module_name nm, const cfg::config& cfg, base::log_level level = base::log_level::warn);
    ~soc() override;

    // Loads the ELF's segments through the loader's debug port; throws
    // elf_error for segments the loader may not or cannot write.
    void load(const elf_image& image);
    // Where the ELF's linker script recorded a different platform layout
    // (npu_fwgen's __npu_* constants) than this config: one line each.
    std::vector<std::string> layout_mismatches(const elf_image& image) const;
    // The extensions `image`'s ISA (elf_image::arch) uses that the cores
    // lack (core.isa_extensions; `d`, which no core has): empty if none, or
    // if the ELF does not say.
    std::vector<std::string> isa_mismatch(const elf_image& image) const;
    // Runs until the firmware exits, a fault stops it, the watchdog fires or
    // every hart sleeps with nothing left to wake it.
    run_result run();
    // Runs several SoCs in the one SystemC kernel until each has stopped
    // (the kernel stops at the last). Each result is what run() gives for
    // that SoC alone; with different --max-cycles the watchdog fires at
    // the largest, and a deadlock shows once every SoC is idle.
    static std::vector<run_result> run_together(const std::vector<soc*>& socs);

    // Reads memory as the loader sees it (no timing, no memcheck): reports,
    // result checks and tests.
    unsigned debug_read(std::uint64_t addr, void* data, unsigned size) { return loader_->debug_read(addr, data, size); }
    // Writes memory the same way (a debugger's memory writes).
    unsigned debug_write(std::uint64_t addr, const void* data, unsigned size) {
        return loader_->debug_write(addr, data, size);
    }

    // Memcheck: which bytes of [addr, addr + size) some initiator (or the
    // loader) wrote, 1 per byte in `mask`. False when that is unknown: the
    // range is not inside one memory, or memcheck is off (no shadow).
    bool written_mask(std::uint64_t addr, unsigned char* mask, std::uint64_t size);

    const cfg::memory_map& map() const { return map_; }
    const std::vector<std::unique_ptr<cpu::core>>& cores() const { return cores_; }
    std::vector<const base::bus_initiator*> initiators() const;
    const memory::memory* memory_of(const std::string& region) const;
    const periph::soc_periph& soc_periph() const { return *soc_periph_; }
    // Called at every trace-marker region end with the region's name.
    void on_region_end(std::function<void(const std::string&)> fn);
    // Counters summed per region between its begin and end markers (the
    // report's per-layer figures).
    void sample_in_regions(std::function<std::vector<std::uint64_t>()> fn);
    // Channel masters, busy cycles.
    dma::dma& dma_engine() { return *dma_; }
    cluster::event_unit& event_unit() { return *event_unit_; }
    const elf_image* image() const { return image_; }

private:
    const cfg::config& cfg_;
    cfg::memory_map map_;
    // The dense memory window a call chain's stack words were last read from.
    struct host_window {
        std::uint64_t base = 0, end = 0;
        const unsigned char* host = nullptr;
    } stack_window_;
    std::unique_ptr<interconnect::router> router_;
    std::vector<std::unique_ptr<memory::memory>> memories_;
    std::unique_ptr<periph::soc_periph> soc_periph_;
    std::unique_ptr<periph::cluster_ctrl> cluster_ctrl_;
    std::unique_ptr<dma::dma> dma_;
    std::unique_ptr<cluster::event_unit> event_unit_;
    std::unique_ptr<accel::systolic_array> sa_;
    // Register windows whose model is not built yet answer every access with
    // an address error (bound, never left dangling).
    std::vector<std::unique_ptr<base::peripheral>> stubs_;
    std::vector<std::unique_ptr<cpu::core>> cores_;
    base::initiator_id loader_id_;
    std::unique_ptr<base::bus_initiator> loader_;
    const elf_image* image_ = nullptr;
    // The hart stacks the firmware's linker script lays out (npu_fwgen:
    // __stack_top, __npu_stack_size, __stacks_bottom), for memcheck's stack
    // guards and reports; empty when the ELF does not define them.
    struct hart_stack {
        unsigned hart;
        std::uint32_t lo, hi;  // [lo, hi)
    };
    std::vector<hart_stack> stacks_;
    // Heap blocks the allocators returned (memcheck hints), newest last:
    // reports name an address in one by allocator, size and allocation site.
    struct heap_block {
        std::uint32_t lo, hi;   // [lo, hi)
        std::string allocator;  // the runtime function the user called
        std::string site;       // "main (main.c:42)"
        std::string freed_at;   // where npu_l1_free took it back, "" while live
        // The part of [lo, hi) it still names: a freed block whose memory a
        // later allocation took in part keeps naming the rest (as itself,
        // block+offset of its whole extent).
        std::uint32_t named_lo, named_hi;
    };
    std::vector<heap_block> heap_blocks_;
    // Heap ranges freed and not allocated again, [lo, hi) (memcheck's
    // mark_freed and mark_unwritten keep it; sim_services::first_freed).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> freed_ranges_;
    // npu_l1_malloc's heap as its allocator walks it (alloc.c: first_block()
    // to heap_end()), [lo, hi); empty when the ELF does not say. Its blocks'
    // headers and padding are memcheck redzones (base::shadow_redzone).
    std::uint64_t l1_heap_lo_ = 0, l1_heap_hi_ = 0;
    // Where redzones were marked, [lo, hi) by lo: an index for DMA pushes
    // and SA starts (sim_services::first_redzone), the shadow says what is
    // marked now. Ranges a later block's payload covers are dropped; one
    // per place, so bounded by the heap's size.
    std::map<std::uint64_t, std::uint64_t> redzone_ranges_;
    // The heap block a redzone byte at `a` guards, as a report line's text
    // ("4 bytes past the end of the npu_l1_malloc block ..."), "" if none.
    std::string heap_redzone_text(std::uint32_t a);
    // The first address of [lo, hi) whose memcheck shadow has `bit`, if any
    // (the freed and redzone indexes' scan of the memory behind them).
    std::optional<std::uint64_t> first_marked(std::uint64_t lo, std::uint64_t hi, unsigned char bit);
    // A linker-script symbol's value: absolute, or a section symbol's address.
    static std::optional<std::uint64_t> linker_symbol(const elf_image& image, const char* name);
    // A hart's call stack at a call into the runtime, unwound with
    // chain_capture_ while it is live and symbolised only when a report
    // needs it: symbolising a new call chain reads the ELF's DWARF, and
    // most runs never report one.
    struct runtime_stack {
        static constexpr unsigned max_frames = 16;
        std::uint32_t pc[max_frames] = {};
        unsigned frames = 0;
    };
    // False (out untouched) when no image is loaded or `hart` is no core.
    bool capture_runtime_stack(int hart, runtime_stack& out);
    // Reads a hart's stack words for the call-chain captures.
    std::function<unsigned(std::uint64_t, void*, unsigned)> stack_reader();  // a target_reader (fault_context.h)
    // Where the stack called into the runtime, as user_call_site, with
    // `image`'s debug information. Each distinct call chain of the loaded
    // image is symbolised once: the runtime is called from a few sites many
    // times (every SA job's START, every heap block).
    struct call_site;  // soc.cpp
    call_site runtime_call_site(const runtime_stack& s, const elf_image& image);
    std::map<std::vector<std::uint32_t>, std::unique_ptr<call_site>> call_sites_;  // by the chain's pcs
    // Heap blocks reported but not symbolised yet, oldest first. They become
    // heap_blocks_ (in order: a block found at no call site leaves the
    // blocks it overlaps, as it always did) before an address is
    // symbolised, or when this many are waiting (bounded memory).
    struct pending_heap_block {
        std::uint32_t lo, hi;  // [lo, hi)
        runtime_stack stack;
        bool freed = false;  // a free of the block at lo, not an allocation
    };
    static constexpr std::size_t max_pending_heap_blocks = 4096;
    std::vector<pending_heap_block> pending_heap_blocks_;
    void add_pending_heap_blocks();
    // The DMA's pushes capture their pusher's call stack through it (unwind
    // rules cached per PC); one per loaded image.
    std::unique_ptr<call_chain_capture> chain_capture_;
    std::string heap_block_at(std::uint32_t a);
    void install_stack_guards(const elf_image& image);

    void start_run();
    // The memory holding all of [addr, addr + len) as the loader sees it, or null.
    memory::memory* memory_at(std::uint64_t addr, std::uint64_t len) const;
    run_result finish_run(double host_seconds);
};

}  // namespace npu::platform
