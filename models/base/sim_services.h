// Services the platform provides to every model of one SoC: stopping the run
// with an exit reason, describing addresses and symbols in reports, and the
// memcheck shadow directory. Models call these; the platform installs the
// describers. One per SoC, in its sim_context (context.h).
//
// The describers and report hooks are std::function, not ports: they are
// host-side queries of the report (symbol tables, the memory map), with no
// hardware counterpart an RTL twin would drive.
#pragma once

#include <systemc>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "host_isa.h"

namespace npu::base {

// Process exit codes of npusim. Stable: scripts and CI test them.
enum class exit_code : int {
    success = 0,
    firmware_failure = 1,  // firmware called exit(n != 0) / tohost fail
    bad_input = 2,         // config, ELF, command line
    bus_error = 3,
    memcheck_error = 4,
    watchdog = 5,          // --max-cycles reached, or every hart asleep forever
    golden_mismatch = 6,
    unhandled_trap = 7,    // illegal instruction / fault with no firmware handler
    self_check_failed = 8, // a declared self-check compared nothing, or fewer elements than declared
    debugger_kill = 9,     // npusim --gdb: the debugger killed the run
    internal_error = 70,
};
const char* exit_code_name(exit_code c);

// Who performed an access, for reports. Filled once per initiator.
struct initiator_id {
    std::string name;   // hierarchical SystemC name, e.g. "soc.cluster.core8"
    int cls = 0;        // npu::cfg::initiator_class
    int hart = -1;      // -1: not a core
    std::string role;   // "cluster controller", "worker", "dma", ...
};

struct bus_error_info {
    const initiator_id* who = nullptr;
    std::uint64_t pc = 0;          // core PC (or the PC that programmed a DMA/SA)
    bool has_pc = false;
    std::uint64_t address = 0;
    unsigned size = 0;
    bool is_write = false;
    bool is_fetch = false;
    // A DMA push refused before any access (a route not allowed, a zero
    // count): nothing was read or written; `address`/`size` are the source
    // and row length it would have started with.
    bool refused = false;
    std::string context;           // extra lines, e.g. a DMA descriptor
};

struct memcheck_info {
    const initiator_id* who = nullptr;
    std::uint64_t pc = 0;
    bool has_pc = false;
    std::uint64_t address = 0;     // first never-written byte
    unsigned size = 0;             // access size
    std::uint64_t access = 0;      // first byte of the access
    unsigned unwritten = 0;        // bytes of the access not written
    // The byte is the destination of a DMA transfer still in flight that
    // has not written it yet (rather than memory nothing ever wrote).
    bool in_flight = false;
    // memcheck=strict: the byte was only zeroed at startup (.bss), never
    // loaded with data.
    bool zeroed_only = false;
    // Not a read of unwritten bytes but a hart's stack access past its
    // stack's limit: its sp had dropped below the limit and the access
    // falls between sp and the limit (docs/memory-map.md, "Stack guards").
    bool stack_overflow = false;
    bool is_write = false;
    std::uint64_t sp = 0, stack_lo = 0, stack_hi = 0;  // the hart's sp, its stack [lo, hi)
    // Not a read either: a DMA transfer pushed or an SA job started writes
    // [address, address + size), which another in-flight transfer or running
    // job reads or writes; `context` names both (report lines).
    bool in_use = false;
    // Not a read either: a DMA transfer pushed whose destination runs
    // across a hart stack's bound (from a buffer outside it into the
    // stack, or out of it): `context` says which stack and where.
    bool stack_crossing = false;
    // Not a read either: the firmware freed a pointer that starts no
    // allocated heap block (npu_l1_free twice, or of a pointer npu_l1_malloc
    // did not return): `address` is the pointer.
    bool double_free = false;
    // Not a read either: a core's store into a heap block freed and not
    // allocated again (a stale pointer's write): `address` is its first
    // freed byte, `access`/`size` the store.
    bool freed_store = false;
    // A core's store into an L1 heap block's header or past its requested
    // size (shadow_redzone), a DMA or SA destination row there (is_write),
    // or a read of such bytes: a core's load wholly there, a DMA burst's or
    // an SA operand row's bytes (heap_overflow_read): `address` is the first
    // such byte, `access`/`size` the access or row, `context` names the block.
    bool heap_overflow = false;
    std::string context;

    // What the finding is: the first of its flags set, in this order (the
    // producers set one). `sa_result`: the in-flight writer is a running SA
    // job (sim_services::describe_in_flight), not a DMA transfer.
    enum class kind_t : unsigned char {
        invalid_free,
        heap_overflow,
        freed_store,
        buffer_in_use,
        stack_crossing,
        stack_overflow,
        sa_result_read,
        dma_destination_read,
        zeroed_read,
        unwritten_read,
    };
    kind_t kind(bool sa_result) const {
        return double_free      ? kind_t::invalid_free
               : heap_overflow  ? kind_t::heap_overflow
               : freed_store    ? kind_t::freed_store
               : in_use         ? kind_t::buffer_in_use
               : stack_crossing ? kind_t::stack_crossing
               : stack_overflow ? kind_t::stack_overflow
               : in_flight      ? (sa_result ? kind_t::sa_result_read : kind_t::dma_destination_read)
               : zeroed_only    ? kind_t::zeroed_read
                                : kind_t::unwritten_read;
    }
};

class sim_services;
// One of four texts by the access's initiator and direction: an engine's
// (a DMA channel, the SA: no hart) write or read, a hart's store or load.
const char* by_access(const memcheck_info& m, const char* engine_write, const char* engine_read,
                      const char* core_write, const char* core_read);
// A heap overflow's access in its finding's name: "destination in",
// "source in", "store into" or "load from" (a heap block's header or padding).
const char* heap_overflow_access(const memcheck_info& m);
// A read's first bad byte `shadow` (of m.address) in a heap block's header
// or padding (shadow_redzone): the read runs past a block (an SA operand
// row or a DMA burst longer than its buffer). Makes `m` that finding, with
// the block (sim_services::heap_redzone), instead of a read of memory never
// written; leaves any other `m` as it is.
void heap_overflow_read(memcheck_info& m, unsigned char shadow, const sim_services& svc);

// A hart's call stack as its pc and return addresses, captured during a
// bus access (sim_services::capture_call_chain) and symbolised only when a
// report names it. Fixed size: a DMA channel keeps one per transfer.
struct call_chain {
    static constexpr unsigned max_frames = 8;
    std::uint32_t pc[max_frames] = {};
    unsigned frames = 0;
    int region = -1;  // the trace-marker region the hart was in (soc_periph), -1: none
};

// Report text formatted only if a report uses it (null: none).
using deferred_text = std::function<std::string()>;

// Buffers in use (memcheck): the byte ranges an in-flight DMA transfer or a
// running systolic-array job reads and writes, one span per row.
struct buffer_span {
    std::uint64_t first = 0, end = 0;  // [first, end)
    bool write = false;
    const char* operand = "";          // "src", "dst", "A", "B", "C"
};
struct buffer_use {
    // "DMA transfer id 1 (2-D) ..., pushed by hart 8 ... at pc 0x...",
    // formatted only for a finding (a check looks at every push and START,
    // and finds nothing nearly always). It may refer to its owner's state:
    // a buffer_use is looked at in the call that made it.
    deferred_text describe;
    std::vector<buffer_span> spans;
    // Who programmed it, described in a finding as " (npurt_copy, called
    // from main (main.c:26))" after `what`; null: nothing to add.
    const call_chain* pushed_from = nullptr;
    // Set instead of `spans` by a use with many spans (a 2-D transfer's rows)
    // that knows their bounds: [lo, hi), the non-empty spans' extent. The
    // spans are made only when those bounds meet a write (rarely): every
    // push is checked against every transfer in flight. The write checked
    // (buffer_write_conflict's `mine`) may be given so too, [lo, hi) then
    // the extent of its write spans.
    std::function<void(std::vector<buffer_span>&)> make_spans;
    std::uint64_t lo = UINT64_MAX, hi = 0;
    // With make_spans, optionally: the extents of its parts inside [lo, hi)
    // (a transfer's source and destination rows; a job's A, B and C rows),
    // [first, end) each, every span inside one of them; add_part widens
    // [lo, hi) to hold each. A write that meets [lo, hi) but none of them (a
    // DMA filling one buffer of a pair while the SA reads the other, its A
    // and C elsewhere) cannot conflict: its spans are not made. parts == 0:
    // [lo, hi) alone.
    struct extent {
        std::uint64_t first = 0, end = 0;
    };
    extent part[3];
    unsigned parts = 0;
    void add_part(std::uint64_t first, std::uint64_t end) {
        if (first >= end) return;
        lo = std::min(lo, first), hi = std::max(hi, end);
        if (parts == 3) {  // no room: one part for all (a looser bound)
            part[2].first = std::min(part[2].first, first), part[2].end = std::max(part[2].end, end);
            return;
        }
        part[parts++] = {first, end};
    }
};

// strict: error, and startup zeroing of .bss does not count as loading data
// (docs/memory-map.md, "What memcheck counts as written").
enum class memcheck_mode { off, warn, error, strict };

// Memcheck shadow byte values: bit 0 written, bit 1 a DMA in flight will
// write it; `shadow_zeroed` (memcheck=strict): zeroed at startup, not loaded;
// `shadow_freed`: in a heap block the program freed (npu_l1_free), not
// allocated again: a read is a never-written read, a core's store a finding.
// `shadow_redzone`: an L1 heap block's header, or the bytes after a live
// block's requested size up to and including the next block's header (the
// allocator's metadata and padding, no program data): a core's store there,
// not the allocator's own, is a heap overflow (or underflow) finding. Kept
// alongside bit 0 (the allocator wrote the header): loads ignore it.
constexpr unsigned char shadow_written = 1, shadow_in_flight = 2, shadow_zeroed = 4, shadow_freed = 8,
                        shadow_redzone = 16;

// Index of the first of the n shadow bytes that is not exactly
// `shadow_written` (never written, zeroed only, or in flight), n if none.
// 32 bytes per step, then eight per compare: every DMA burst and SA row read
// is scanned, and a byte loop was a tenth of a network simulation's host
// time. (SSE2 is in every x86-64; -O2 does not vectorise the early exit.)
#if NPU_HOST_AVX512
// first_not_written 64 bytes a step (a DMA burst's or an SA row's shadow).
__attribute__((target("avx512f,avx512bw"))) inline std::size_t first_not_written_avx512(const unsigned char* s,
                                                                                        std::size_t n) {
    const __m512i written = _mm512_set1_epi8(static_cast<char>(shadow_written));
    std::size_t i = 0;
    for (; i + 64 <= n; i += 64)
        if (const std::uint64_t other = _mm512_cmpneq_epi8_mask(_mm512_loadu_si512(s + i), written))
            return i + static_cast<std::size_t>(__builtin_ctzll(other));
    if (i < n) {
        const __mmask64 tail = (std::uint64_t{1} << (n - i)) - 1;
        if (const std::uint64_t other =
                _mm512_mask_cmpneq_epi8_mask(tail, _mm512_maskz_loadu_epi8(tail, s + i), written))
            return i + static_cast<std::size_t>(__builtin_ctzll(other));
    }
    return n;
}
#endif

inline std::size_t first_not_written(const unsigned char* s, std::size_t n) {
#if NPU_HOST_AVX512
    if (n >= 64 && use_avx512bw) return first_not_written_avx512(s, n);
#endif
    constexpr std::uint64_t all_written = 0x0101010101010101ull;
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i written = _mm_set1_epi8(static_cast<char>(shadow_written));
    for (; i + 32 <= n; i += 32) {
        const __m128i lo = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)), written);
        const __m128i hi = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16)), written);
        if (_mm_movemask_epi8(_mm_and_si128(lo, hi)) != 0xFFFF) break;
    }
#endif
    for (; i + 8 <= n; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s + i, 8);
        if (w != all_written) break;
    }
    for (; i < n; ++i)
        if (s[i] != shadow_written) return i;
    return n;
}

// Whether `rows` rows of n shadow bytes, `stride` apart, are all exactly
// `shadow_written`: an SA tile's operand rows (64 bytes each for fp32 on a
// 16-wide array) are checked in one pass, their compares OR-ed, instead of
// a first_not_written call per row; a row that is not (a finding) is then
// found and reported row by row.
#if NPU_HOST_AVX512
__attribute__((target("avx512f,avx512bw"))) inline bool rows_written_avx512(const unsigned char* s, std::size_t stride,
                                                                             std::size_t rows, std::size_t n) {
    const __m512i written = _mm512_set1_epi8(static_cast<char>(shadow_written));
    const std::size_t whole = n & ~std::size_t{63};
    const __mmask64 tail = n - whole == 0 ? 0 : (std::uint64_t{1} << (n - whole)) - 1;
    std::uint64_t other = 0;
    for (std::size_t r = 0; r < rows; ++r, s += stride) {
        for (std::size_t i = 0; i < whole; i += 64)
            other |= _mm512_cmpneq_epi8_mask(_mm512_loadu_si512(s + i), written);
        if (tail) other |= _mm512_mask_cmpneq_epi8_mask(tail, _mm512_maskz_loadu_epi8(tail, s + whole), written);
    }
    return other == 0;
}
#endif

inline bool rows_written(const unsigned char* s, std::size_t stride, std::size_t rows, std::size_t n) {
#if NPU_HOST_AVX512
    if (use_avx512bw) return rows_written_avx512(s, stride, rows, n);
#endif
    for (std::size_t r = 0; r < rows; ++r)
        if (first_not_written(s + r * stride, n) < n) return false;
    return true;
}

// SoCs that share one SystemC kernel (one process, several SoCs): the
// kernel stops when the last of them has requested its stop.
struct stop_group {
    unsigned members = 0;
    unsigned stopped = 0;
};

class sim_services {
public:
    // --- run control -------------------------------------------------------
    // First caller wins: records why the run ends and when, and calls
    // sc_stop() (in a stop group: once every member has stopped).
    void request_stop(exit_code code, const std::string& reason, int firmware_code = 0);
    bool stop_requested() const { return stopped_; }
    // SystemC time of the stop request (when requested while running).
    const sc_core::sc_time& stop_time() const { return stop_time_; }
    bool stopped_while_running() const { return stopped_running_; }
    // A stop requested in an access of an initiator that runs ahead of
    // SystemC time (a DMA channel between its waits) happened at that
    // initiator's time.
    void stop_time_at_least(const sc_core::sc_time& t) {
        if (stopped_running_ && t > stop_time_) stop_time_ = t;
    }
    void join_stop_group(std::shared_ptr<stop_group> g) {
        ++g->members;
        group_ = std::move(g);
    }
    exit_code stop_code() const { return code_; }
    const std::string& stop_reason() const { return reason_; }
    int firmware_code() const { return firmware_code_; }

    // --- reports -----------------------------------------------------------
    // "func+0x1c (file.c:12)" for an address, or "" when unknown.
    std::function<std::string(std::uint64_t)> symbolize;
    // "mapped: l2 + 0x..", "unmapped (...)": what an address is to a class of initiator.
    std::function<std::string(int cls, std::uint64_t)> describe_address;
    // The DMA transfer in flight whose destination holds the address (""
    // if none), for memcheck reports of a read before the transfer wrote it.
    std::function<std::string(std::uint64_t)> describe_in_flight;
    // Whose stack holds the address ("the stack of hart 3 [0x.., 0x..)"), or
    // the L1 heap below the stacks, or "" (stack-guard reports; the platform
    // knows the layout from the linker script's symbols).
    std::function<std::string(std::uint64_t)> describe_stack;
    // The first hart stack [lo, hi) overlaps but does not contain (a bound
    // it crosses), described as describe_stack does with the bounds in
    // `stack_lo` and `stack_hi`; "" if none (or the layout is unknown).
    std::function<std::string(std::uint64_t lo, std::uint64_t hi, std::uint64_t& stack_lo,
                              std::uint64_t& stack_hi)>
        stack_crossed;
    // Hart `hart`'s sp is below its stack's limit: "sp 0x.. is N bytes below
    // the limit of its stack [lo, hi)", for a bus error it caused (a local
    // array larger than the stack takes sp out of L1 altogether); "" if not.
    std::function<std::string(int hart)> stack_overflow_note;
    // Hart `hart`'s sp is below its stack's limit and [lo, hi) overlaps the
    // overflowed part [sp, limit): its sp and its stack's bounds are set
    // (a DMA transfer it pushes into or out of a local array that did not
    // fit its stack, written where only the DMA touches it).
    std::function<bool(int hart, std::uint64_t lo, std::uint64_t hi, std::uint64_t& sp, std::uint64_t& stack_lo,
                       std::uint64_t& stack_hi)>
        stack_overflowed_into;
    // The first byte of [lo, hi) in a freed heap block (shadow_freed), if any
    // (a DMA destination in memory the program freed).
    std::function<std::optional<std::uint64_t>(std::uint64_t lo, std::uint64_t hi)> first_freed;
    // The first byte of [lo, hi) in an L1 heap block's header or padding
    // (shadow_redzone), if any (a DMA destination or SA C past a block).
    std::function<std::optional<std::uint64_t>(std::uint64_t lo, std::uint64_t hi)> first_redzone;
    // Why a register refused an access (e.g. "register X (0x..) is
    // write-only: a load is refused"), or "": the register's own reason.
    std::function<std::string(int cls, std::uint64_t addr, bool write)> describe_register;
    // Formats and prints the bus-error report; npusim installs it.
    std::function<void(const bus_error_info&)> on_bus_error;
    // Records a memcheck finding; returns true if the run must stop.
    std::function<bool(const memcheck_info&)> on_memcheck;
    // Memcheck shadow edits the firmware asks for (soc_periph's memcheck
    // registers; the platform installs them): [addr, addr + len) becomes
    // never-written (a fresh heap block), and, in strict mode, the .bss the
    // startup code has just zeroed becomes "zeroed, not loaded".
    std::function<void(std::uint64_t addr, std::uint64_t len)> mark_unwritten;
    // [addr, addr + len) is a freed heap block's payload (npu_l1_free):
    // never-written, and a store into it is a finding (shadow_freed).
    std::function<void(std::uint64_t addr, std::uint64_t len)> mark_freed;
    // The heap block a redzone byte at `addr` (shadow_redzone) guards, as
    // a report's text ("4 bytes past the end of the 40 B npu_l1_malloc
    // block at 0x..., allocated at main (x.c:12)"); "" if none is known.
    std::function<std::string(std::uint64_t addr)> heap_redzone;
    std::function<void()> startup_zeroed;
    // The allocator's own code ([lo, hi) pcs of npu_l1_malloc, npu_l1_free,
    // npu_l1_free_bytes; the platform fills it at load): its stores into
    // freed memory (a split block's new header) are the allocator's, not a
    // stale pointer's.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> heap_code;
    bool in_heap_code(std::uint32_t pc) const {
        for (const auto& r : heap_code)
            if (pc >= r.first && pc < r.second) return true;
        return false;
    }
    // Where hart `hart`, inside a bus access now, called into the runtime.
    // The platform unwinds the hart's stack now (with the ELF's call-frame
    // information) and returns a function that symbolises it only when a
    // report asks: "npu_sa_matmul_i8, called from main (main.c:42)", or "".
    // Symbolising a new call chain reads the ELF's DWARF, and most runs
    // never report one. Null when the stack cannot be unwound.
    std::function<deferred_text(int hart)> runtime_caller;
    // Hart `hart`, inside a bus access now: its call stack, captured into
    // `out` without symbolising anything (cheap enough for every DMA push).
    std::function<void(int hart, call_chain& out)> capture_call_chain;
    // Where a captured chain's runtime function was called from, up to user
    // code: "npurt_copy_start, called from main (main.c:26)", and the
    // region it was in (npuc's layers: ", in region layer1.matmul"); ""
    // when the chain's pc is in user code already (its line says it all).
    std::function<std::string(const call_chain&)> describe_call_chain;
    // For an engine's initiator (a DMA channel), where the firmware
    // programmed the work it is doing now, as describe_call_chain; "" if
    // not known.
    std::function<std::string(const initiator_id*)> engine_caller;
    // The firmware's allocator has just returned [addr, addr + len) to code
    // running on `hart` (the memcheck hint registers): reports then name
    // addresses in it by allocator and allocation site.
    std::function<void(std::uint64_t addr, std::uint64_t len, int hart)> heap_block;
    // ... and has just taken [addr, addr + len) back from code on `hart`
    // (npu_l1_free): reports then say where it was freed.
    std::function<void(std::uint64_t addr, std::uint64_t len, int hart)> heap_freed;
    // The buffers in use at `at`: every in-flight DMA transfer and the
    // running SA job (the platform gathers them).
    std::function<std::vector<buffer_use>(const sc_core::sc_time& at)> buffers_in_use;
    // An in-flight byte whose writer has in fact finished (a systolic-array
    // job that has ended): releases its marks and returns true, so the read
    // is no finding.
    std::function<bool(std::uint64_t addr)> in_flight_ended;

    std::string symbol_of(std::uint64_t a) const { return symbolize ? symbolize(a) : std::string(); }
    std::string caller_of(const call_chain& c) const {
        return c.frames && describe_call_chain ? describe_call_chain(c) : std::string();
    }

    // Reports a bus error (through on_bus_error) and stops with exit_code::bus_error.
    void bus_error(const bus_error_info& e);
    // Reports uninitialised reads; stops when memcheck=error.
    void memcheck_finding(const memcheck_info& m);
    // A DMA transfer being pushed or an SA job starting at `at` (`mine`):
    // its first write span that overlaps a span another buffer user reads
    // or writes, as a finding ready for memcheck_finding() (who and pc
    // left to the caller); nullopt if none, or memcheck is off.
    std::optional<memcheck_info> buffer_write_conflict(const buffer_use& mine, const sc_core::sc_time& at) const;

    // --- write watch (memcheck) ---------------------------------------------------
    // The extents [lo, hi) of the buffers that DMA transfers in flight and
    // the SA's job read or write: a core's store inside one is checked
    // against the buffers in use at the store's time (buffer_write_conflict),
    // which names the transfer or job it races with (a tile refilled while
    // its write-back still reads it, a DMA destination or an SA operand
    // written under the engine). A store outside every watch costs the
    // count's test, and the extents' compares only while something is in
    // flight. `until`: when the use has ended at the latest (an SA job's
    // end; a DMA transfer's is not known ahead, and its owner unwatches it).
    struct write_watch {
        const void* owner;
        std::uint64_t lo, hi;
        sc_core::sc_time until;
    };
    void watch(const void* owner, std::uint64_t lo, std::uint64_t hi,
               const sc_core::sc_time& until = sc_core::sc_max_time());
    void unwatch(const void* owner);
    // Drops the watches whose use ended by `t` (no initiator is behind
    // SystemC time: once it passes `until`, no store can race that use).
    void unwatch_ended(const sc_core::sc_time& t);
    bool watched(std::uint64_t a, unsigned n) const {
        for (unsigned i = 0; i < watch_count; ++i)
            if (a < watches_[i].hi && watches_[i].lo < a + n) return true;
        return false;
    }
    unsigned watch_count = 0;  // watches_.size(), read by every core store

    memcheck_mode memcheck() const { return memcheck_; }
    // error and strict stop the run at the first finding.
    bool memcheck_stops() const { return memcheck_ == memcheck_mode::error || memcheck_ == memcheck_mode::strict; }
    void set_memcheck(memcheck_mode m) { memcheck_ = m; }

    // --- memcheck shadow directory ----------------------------------------------
    // A memory registers the host range it hands out through DMI together with
    // its shadow bytes (1 = written; 0 = never written; bit 1 set = a DMA
    // transfer in flight will write it) so an initiator can check and
    // mark bytes it touches through a DMI pointer without calling the memory.
    struct host_range {
        const unsigned char* host;
        std::uint64_t len;
        unsigned char* shadow;
        int traffic_id;
    };
    void register_host_range(const host_range& r) { ranges_.push_back(r); }
    const host_range* find_host_range(const unsigned char* p) const;

private:
    // " (npurt_copy, called from main (main.c:26))" for a buffer user's
    // pushed_from, or "".
    std::string pushed_from(const buffer_use& u) const;

    bool stopped_ = false;
    exit_code code_ = exit_code::success;
    std::string reason_;
    int firmware_code_ = 0;
    sc_core::sc_time stop_time_;
    bool stopped_running_ = false;
    std::shared_ptr<stop_group> group_;
    memcheck_mode memcheck_ = memcheck_mode::off;
    std::vector<host_range> ranges_;
    std::vector<write_watch> watches_;
};

}  // namespace npu::base
