// The cluster DMA engine (MCHAN-style): memory-mapped descriptors for 1-D,
// 2-D and 3-D strided copies, one transfer id per channel, per-id wait, and
// one TLM master per channel so channels contend for memory ports exactly as
// independent masters do. Register map: dma_regs.h; timing and error model:
// docs/dma.md (summarised in dma.cpp).
#pragma once

#include "base/bus_initiator.h"
#include "base/line.h"
#include "base/peripheral.h"
#include "base/slot_calendar.h"

#include "config/memory_map.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace npu::dma {

class dma : public base::peripheral {
public:
    dma(sc_core::sc_module_name nm, const cfg::config& cfg);
    ~dma() override;

    unsigned channels() const { return static_cast<unsigned>(chans_.size()); }
    // Channel c's master; the platform binds every one to the router as an
    // initiator of class dma.
    base::bus_initiator& master(unsigned c);

    // Event lines (the platform binds them to the event unit): a pulse,
    // index = transfer id, driven in the channel's thread at the SystemC
    // time the transfer finished (done) or aborted (error).
    base::line_out done;
    base::line_out error;

    // The transfer in flight whose destination holds `addr` (for memcheck
    // reports of a read before the transfer wrote it): its id, descriptor
    // and who pushed it; empty if none.
    std::string in_flight_transfer_at(std::uint64_t addr) const;
    // Memcheck's buffers in use at `at`: what every in-flight transfer
    // pushed by then reads (src rows) and writes (dst rows).
    void in_flight_uses(std::vector<base::buffer_use>& out,
                        const sc_core::sc_time& at = sc_core::sc_max_time()) const;
    // For channel `who` (a DMA channel's initiator id): where the firmware
    // pushed the transfer it is running, as sim_services::caller_of; "" for
    // another initiator or an idle channel.
    std::string caller_of(const base::initiator_id* who) const;

private:
    struct descriptor {
        std::uint32_t src = 0, dst = 0, len = 0;
        std::uint32_t src_stride_2d = 0, dst_stride_2d = 0, count_2d = 1;
        std::uint32_t src_stride_3d = 0, dst_stride_3d = 0, count_3d = 1;
        unsigned dims = 1;
    };
    struct channel;

    std::uint32_t push(unsigned dims);
    void refuse(const descriptor& d, unsigned cause, const std::string& why);
    void wait_for(std::uint32_t id);
    void channel_thread(unsigned c);
    bool run_transfer(channel& ch);
    void mark_destination(channel& ch, bool in_flight);
    void fail(channel& ch, bool dst_side, std::uint64_t addr, unsigned size, const std::string& where);
    std::string describe(const descriptor& d) const;
    std::string programmer_text(const channel& ch) const;
    // "hart 8 (cluster controller, soc.cc)": who pushes a new transfer.
    static std::string pusher_text(const base::initiator_id* by);
    // "new DMA transfer (2-D) <descriptor>, pushed by hart 8 (...) (<caller>)":
    // the transfer line of a finding made at its push.
    std::string pushed_transfer_text(const descriptor& d, const base::initiator_id* by,
                                     const base::call_chain& chain) const;
    // A transfer's buffer use (memcheck): its source and destination rows'
    // extents, and its spans made on demand.
    static void add_extents(base::buffer_use& u, const descriptor& d);
    // The rows transfer `d` reads and writes, as memcheck's buffer use `describe`.
    // The transfer's spans, a source (read) and a destination (written)
    // per row; with `writes_only`, the destinations alone (a new transfer
    // checked against the buffers in use: only what it writes can conflict).
    static base::buffer_use use_of(const descriptor& d, base::deferred_text describe, bool writes_only = false);
    // Memcheck: the transfer about to be pushed writes into a buffer that an
    // in-flight transfer or the running SA job uses: a finding naming both.
    void check_buffers_in_use(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                              const base::call_chain& chain);
    // Memcheck: the transfer about to be pushed writes a row that runs
    // across a hart stack's bound (an overrun of the buffer it fills, into
    // a live stack): a finding at the push, naming the row and the stack.
    // A source or destination row in the part of the pusher's stack that
    // overflowed (its sp below the stack's limit): a finding at the push.
    void check_stack_overflow(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                              const base::call_chain& chain);
    // A destination row in a heap block the program freed (npu_l1_free): a
    // finding at the push (the transfer would write through a stale pointer).
    void check_freed_destination(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                                 const base::call_chain& chain);
    void check_stack_crossing(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                              const base::call_chain& chain);
    // The call stack of the hart in the current register access (a push).
    void capture_pusher_chain(base::call_chain& out) const;
    int route_index(std::uint64_t addr) const;  // memory region index for route stats, -1 if none
    // Every row of one side of `d` (from `base`, strides s2 and s3) lies in
    // one memory region, without wrapping round the 32-bit bus.
    bool side_in_one_memory(std::uint64_t base, std::uint32_t s2, std::uint32_t s3, const descriptor& d) const;
    // One past the last byte of the rows of one side of `d` (from `base`,
    // strides s2 and s3; d's counts and len not 0), in 64 bits: the strides
    // are unsigned, so the last row of the last plane ends highest (and the
    // first row of the first plane starts lowest, at base).
    // The address of row i (plane i / count_2d, row i % count_2d) of one
    // side of `d` (from `base`, strides s2 and s3), in 64 bits.
    static std::uint64_t row_address(std::uint64_t base, std::uint64_t s2, std::uint64_t s3, const descriptor& d,
                                     std::uint64_t i) {
        return base + (i / d.count_2d) * s3 + (i % d.count_2d) * s2;
    }
    static std::uint64_t rows_end(std::uint64_t base, std::uint32_t s2, std::uint32_t s3, const descriptor& d) {
        return base + std::uint64_t{d.count_3d - 1} * s3 + std::uint64_t{d.count_2d - 1} * s2 + d.len;
    }
    bool route_is_l1(std::uint64_t addr) const;  // addr inside the L1 region
    // [addr, addr + n) inside L2, reached over the cluster's path to L2
    bool route_is_l2_path(std::uint64_t addr, unsigned n) const;

    descriptor regs_;                          // the descriptor registers as programmed
    cfg::memory_map map_;
    std::uint64_t burst_size_;
    std::uint64_t burst_latency_;
    std::uint64_t bandwidth_;  // bytes per cycle per channel, 0 = no cap of its own
    std::uint64_t l1_width_;   // bytes per cycle of a channel's L1 side
    std::uint64_t outstanding_;  // bursts a channel holds (in flight or buffered)
    std::uint64_t startup_latency_;
    base::divisor l1_width_div_, bandwidth_div_;  // per burst: its L1 beats, its datapath cycles
    sc_core::sc_time hop_;     // the interconnect's hop latency (in every access's delay)
    bool allow_l3_l1_;
    bool stop_on_error_;
    int l1_ = -1, l3_ = -1;                    // region indices for the route permission
    std::vector<int> memories_;                // region indices of memories (route stats)

    base::l1_bank_calendar& l1_banks_;         // the SoC's L1 banks (dma_streams)
    base::l2_path_calendar& l2_path_;          // the cluster's shared path to L2
    base::initiator_id engine_id_;             // reports about refused pushes
    std::vector<std::unique_ptr<channel>> chans_;
    std::uint32_t busy_mask_ = 0, error_mask_ = 0;
    std::uint32_t error_addr_ = 0, error_info_ = 0;
    sc_core::sc_event channel_freed_;

    unsigned active_ = 0;
    sc_core::sc_time busy_since_, busy_time_;

    std::uint64_t transfers_ = 0, bytes_ = 0, bursts_ = 0, errors_ = 0, refused_ = 0, busy_stat_ = 0;
    std::deque<std::uint64_t> route_bytes_;    // [src region slot * n + dst region slot]
};

}  // namespace npu::dma
