// A byte-addressable TLM memory: latency and per-port bandwidth, DMI with
// latency annotation, dense or sparse (page-on-touch) host storage, debug
// transport, and memcheck shadow bytes. The addresses it sees are offsets:
// the router translates bus addresses before forwarding.
#pragma once

#include "base/component.h"
#include "base/sim_services.h"
#include "base/slot_calendar.h"
#include "base/txn_ext.h"
#include "host/pages.h"

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace npu::memory {

class memory : public base::component, public base::burst_target {
public:
    static constexpr std::uint64_t page_size = 4096;
    // Largest L1 whose host pages are mapped before the run (memory.cpp).
    static constexpr std::uint64_t populate_limit = std::uint64_t{4} << 20;

    // `section` names the config section ("l1", "l2", "l3") holding size,
    // latency, bandwidth and storage.
    memory(sc_core::sc_module_name nm, const cfg::config& cfg, const std::string& section);

    tlm_utils::simple_target_socket<memory> socket;

    std::uint64_t size() const { return size_; }
    std::uint64_t banks() const { return banks_; }
    int traffic_id() const { return traffic_id_; }
    // Host bytes actually allocated (sparse memories grow as they are touched).
    std::uint64_t allocated_bytes() const;
    // Dense storage: the host bytes of offset 0 (a debugger's reads of it,
    // e.g. a call chain's stack words); null for sparse storage.
    const unsigned char* dense_bytes() const { return sparse_ ? nullptr : dense_.data(); }
    // Memcheck: were all of [offset, offset+len) written? (tests, reports)
    bool initialized(std::uint64_t offset, std::uint64_t len) const;
    // Memcheck: mask[i] = 1 if byte offset+i was written (by the loader or
    // any initiator), else 0. False, mask untouched, without a shadow
    // (memcheck off): then nobody knows.
    bool written_mask(std::uint64_t offset, std::uint64_t len, unsigned char* mask) const;
    // Memcheck hints from the firmware (soc_periph): [offset, offset+len)
    // becomes never-written (a fresh heap block; an in-flight mark stays), or
    // its written bytes become "zeroed at startup, not loaded" (strict).
    void mark_unwritten(std::uint64_t offset, std::uint64_t len);
    void mark_zeroed(std::uint64_t offset, std::uint64_t len);
    // [offset, offset+len) becomes a freed heap block's (base::shadow_freed;
    // an in-flight mark stays): never-written, and a core's store a finding.
    void mark_freed(std::uint64_t offset, std::uint64_t len);
    // [offset, offset+len) is no longer a freed block's (the rest of its mark stays).
    void clear_freed(std::uint64_t offset, std::uint64_t len);
    // Marks [offset, offset + len) as a heap block's metadata or padding
    // (base::shadow_redzone), keeping what else the bytes' shadow says.
    void mark_redzone(std::uint64_t offset, std::uint64_t len);
    // Offset of the first byte of [offset, offset+len) whose shadow has
    // `bit` (base::shadow_freed, shadow_redzone), UINT64_MAX if none.
    std::uint64_t first_marked(std::uint64_t offset, std::uint64_t len, unsigned char bit) const;

    // base::burst_target: b_transport's access without the payload.
    tlm::tlm_response_status burst(tlm::tlm_command cmd, std::uint64_t offset, unsigned char* data, unsigned len,
                                   sc_core::sc_time& delay, base::txn_ext& ext) override;
    // base::burst_target: access() of a burst with nothing to report.
    bool stream(bool write, std::uint64_t offset, unsigned char* data, unsigned len, sc_core::sc_time& delay,
                const sc_core::sc_time& now, std::uint64_t beat_bytes, base::traffic_counters& traffic) override;
    // base::burst_target: the bytes and their shadow towards the host's caches.
    void prefetch(std::uint64_t offset, unsigned len) override;

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    // What b_transport and burst do once the payload is checked: memcheck,
    // data, timing and counters of a read or write (or a booking ahead,
    // TLM_IGNORE_COMMAND) of [offset, offset + len), inside the memory.
    tlm::tlm_response_status access(tlm::tlm_command cmd, std::uint64_t offset, unsigned char* data,
                                    std::uint64_t len, sc_core::sc_time& delay, base::txn_ext* ext);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& d);
    unsigned transport_dbg(tlm::tlm_generic_payload& t);

    // Host storage of the page holding `offset`, allocating it when `create`.
    unsigned char* page(std::uint64_t offset, bool create, unsigned char** shadow);
    // Memcheck shadow of one byte (0 if it has none), and the in-flight mark
    // of a DMA destination (bit 1; a write of the byte clears it).
    unsigned char shadow_at(std::uint64_t offset) const;
    void mark_in_flight(std::uint64_t offset, std::uint64_t len, bool on);
    // Calls f(shadow, n) on each run of existing shadow bytes of [offset, offset+len).
    template <class F>
    void edit_shadow(std::uint64_t offset, std::uint64_t len, F f);
    // Copies [offset, offset+len) in or out, page by page; marks shadow on writes.
    void copy(std::uint64_t offset, unsigned char* data, std::uint64_t len, bool write);
    std::uint64_t first_unwritten(std::uint64_t offset, std::uint64_t len) const;
    // Whether every shadow byte of [offset, offset + len) is exactly
    // written, answered from the blocks' summaries where it can (clean_).
    // Not const: it keeps what its scans learn. A shadowed memory only.
    bool all_written(std::uint64_t offset, std::uint64_t len);
    // Bytes [offset, offset + len) were just marked written: the blocks they
    // cover whole are clean without a scan (the ELF loader's writes of a
    // network's weights, a DMA's bursts of a whole block). Nothing without
    // a shadow (clean_ empty).
    void clean_blocks(std::uint64_t offset, std::uint64_t len) {
        if (clean_.empty()) return;
        const std::uint64_t first = (offset + (std::uint64_t{1} << clean_shift) - 1) >> clean_shift;
        const std::uint64_t end = (offset + len) >> clean_shift;
        if (end > first) std::memset(clean_.data() + first, block_clean, end - first);
    }
    // A change of shadow bytes to anything but written (in flight, freed,
    // zeroed): their blocks' summaries no longer hold.
    void dirty_blocks(std::uint64_t offset, std::uint64_t len) {
        if (clean_.empty() || len == 0 || offset >= size_) return;
        const std::uint64_t last = std::min(offset + len, size_) - 1;
        std::memset(clean_.data() + (offset >> clean_shift), block_unknown,
                    (last >> clean_shift) - (offset >> clean_shift) + 1);
    }
    // The read and write counters of one access (access() and stream()).
    void count(bool write, std::uint64_t len) {
        if (write) {
            ++writes_;
            bytes_written_ += len;
        } else {
            ++reads_;
            bytes_read_ += len;
        }
    }

    // Timing of one b_transport burst arriving at `arrive`: the extra delay
    // beyond the arrival (latency, beats, contention). `beat_bytes`: the
    // initiator's own port width (txn_ext), 0 for the memory's bandwidth.
    sc_core::sc_time burst_time(std::uint64_t offset, std::uint64_t len, const sc_core::sc_time& arrive,
                                std::uint64_t beat_bytes);

    std::uint64_t size_;
    std::uint64_t latency_cycles_;
    std::uint64_t bandwidth_;  // bytes per cycle
    bool sparse_;
    bool shadowed_;
    int traffic_id_;
    sc_core::sc_time port_free_;  // when the port finishes its last burst
    // PSRAM pins (l3.interface = psram; page 0: a memory port): time per
    // byte on the pins, command + initial latency per transaction, page size.
    sc_core::sc_time psram_byte_, psram_command_;
    std::uint64_t psram_page_ = 0;
    std::uint64_t psram_transactions_ = 0, psram_page_crossings_ = 0;
    // Banked (L1/TCDM): words interleave over banks; each bank serves one
    // word per cycle (the SoC's bank calendar, shared with the cores), so
    // accesses that hit the same bank at once serialise.
    std::uint64_t banks_ = 0, bank_width_ = 0;
    unsigned bank_shift_ = 0;  // log2(bank_width_), a power of two (schema)
    // Fixed per memory, asked per burst: latency - 1 cycles, and a port's
    // beats per burst (base/divisor.h).
    sc_core::sc_time extra_latency_;
    base::divisor bandwidth_div_;
    base::l1_bank_calendar* calendar_ = nullptr;
    std::uint64_t bank_conflicts_ = 0, bank_stall_cycles_ = 0;
    std::vector<std::uint64_t> lane_free_;  // burst_time's per-lane next free cycle

    // Dense: one block. Sparse: pages allocated on first touch.
    // Fresh zero pages of the OS (host::zeroed_block) instead of being
    // written at start-up (the memset of L2 and its shadow was a few million
    // host instructions per run).
    host::zeroed_block dense_;
    host::zeroed_block dense_shadow_;
    // With a shadow (dense or sparse storage; a block lies in one sparse
    // page): per block of 2^clean_shift bytes, what a scan learnt of its
    // shadow. block_clean: every byte is exactly written (a read need not
    // look at the shadow: a network's weights in L2 or L3, loaded once and
    // streamed by DMA, were a scan of a megabyte of shadow per run);
    // block_unknown: not scanned since a byte may have become anything
    // else; block_mixed: scanned, not all written (reads scan their
    // own bytes, as without the summary, until a change makes it unknown).
    // Writes mark bytes written and so never spoil block_clean (a write that
    // covers a block whole makes it clean: clean_blocks); whatever
    // marks them otherwise (mark_in_flight, mark_unwritten, mark_zeroed) calls
    // dirty_blocks. Other writers of the shadow (cores, the SA, through the
    // host ranges) write only `written`.
    static constexpr unsigned clean_shift = 10;
    static constexpr unsigned char block_unknown = 0, block_clean = 1, block_mixed = 2;
    std::vector<unsigned char> clean_;
    struct sparse_page {
        std::unique_ptr<unsigned char[]> data;
        std::unique_ptr<unsigned char[]> shadow;
    };
    std::vector<sparse_page> pages_;
    std::uint64_t pages_allocated_ = 0;

    std::uint64_t reads_ = 0, writes_ = 0, bytes_read_ = 0, bytes_written_ = 0, dmi_grants_ = 0;
    std::uint64_t uninit_reads_ = 0;
};

}  // namespace npu::memory
