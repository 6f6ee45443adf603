// RTL memory master -> TLM-2.0 initiator.
//
// A Verilated block's TCDM-style master port (req/gnt, then one rvalid per
// granted request carrying rdata or err, PULP's protocol with a response for
// writes too) becomes accesses of a base::bus_initiator: the block's own
// master, bound to the router with the block's initiator class, so what the
// RTL may address, the bus-error report and memcheck are the platform's, as
// for any TLM master.
//
// Lock-step: the bridge is clocked by whoever steps the RTL (the SA engine
// steps its Verilated model at the cluster clock; a pin-level block uses
// tcdm_bridge_sc below on an sc_clock). Each request is issued as a TLM
// access at the RTL's own time (`when`), passed as the initiator's local-time
// offset from the current SystemC time, so the target sees the access at the
// cycle the RTL made it even when the RTL runs ahead of SystemC.
//
// Byte enables select the bytes of the word the access carries: only those
// are transferred (one contiguous run per request; a gap in the enables is
// a protocol error of the RTL and reported as an error response), so an RTL
// master touches exactly the bytes a TLM master moving the same data would,
// and memcheck sees no read of a neighbouring byte.
#pragma once

#include "base/bus_initiator.h"
#include "base/slot_calendar.h"

#include <systemc>

#include <cstdint>

namespace npu::rtl {

struct tcdm_request {
    std::uint32_t addr = 0;   // word address (bits 1:0 ignored)
    bool write = false;
    std::uint8_t be = 0xF;    // byte enables, lane l = bits 8l+7..8l
    std::uint32_t wdata = 0;
};

struct tcdm_response {
    std::uint32_t rdata = 0;  // enabled lanes of the word read, others 0
    bool err = false;         // the access failed (not visible, unmapped, ...)
};

class tcdm_bridge {
public:
    // `banks`: the SoC's L1 bank calendar (sim_context::shared<base::
    // l1_bank_calendar>()), for grant(); null: every request is granted in
    // the cycle it is made (an engine that models its port's timing itself,
    // as the SA's RTL engine does).
    explicit tcdm_bridge(base::bus_initiator& bus, base::l1_bank_calendar* banks = nullptr) : bus_(bus) {
        set_banks(banks);
    }
    void set_banks(base::l1_bank_calendar* banks) { banks_ = banks && !banks->banks.empty() ? banks : nullptr; }

    // The L1's arbitration of a request the RTL makes in cluster cycle
    // `cycle`: for an L1 address, its bank's first free cycle from `cycle`,
    // booked now in the calendar the cores, DMA channels and SA book (the
    // RTL's gnt stays low until then); else `cycle`. Perform it with the
    // next access(), at that cycle's time: that access books nothing again.
    std::uint64_t grant(const tcdm_request& q, std::uint64_t cycle);
    // Performs a granted request at SystemC time `when` (>= now).
    tcdm_response access(const tcdm_request& q, const sc_core::sc_time& when);

    std::uint64_t accesses() const { return accesses_; }
    // Cycles grant() made requests wait for their banks.
    std::uint64_t grant_wait_cycles() const { return grant_wait_cycles_; }

private:
    bool in_l1(std::uint32_t a) const { return banks_ && a >= banks_->base && a - banks_->base < banks_->size; }
    base::bus_initiator& bus_;
    base::l1_bank_calendar* banks_;
    bool granted_booked_ = false;  // the last grant() booked its bank-cycle: its access must not
    std::uint64_t accesses_ = 0;
    std::uint64_t grant_wait_cycles_ = 0;
};

// The same bridge as a pin-level SystemC module for an RTL block that runs on
// an sc_clock (a Verilated --sc model, or a Verilated C++ model wrapped in an
// SC_MODULE), sampling at the rising edge of `clk`: a request granted at an
// edge is performed at that edge's SystemC time and answered (rvalid) in the
// next cycle.
//
// The grant is the L1's arbitration, as the cores and DMA channels get it:
// the bridge looks at the request pins at the falling edge of each cycle
// (the RTL drives them from its rising edge, as flip-flop outputs, so they
// are settled by then); a new request for an L1 address books its bank's
// first free cycle from the next rising edge in the SoC's bank calendar
// (base::l1_bank_calendar, the TCDM model), and gnt stays low until that
// edge; the access then books nothing again. A request for any other
// address, or a bridge without a bank calendar (no context, or no banked L1
// in it), is granted at the next edge. `clk` must be an sc_clock at the
// cluster clock whose rising edges fall on whole multiples of its period
// (sc_clock's default): rising edge k is the calendar's cycle k.
class tcdm_bridge_sc : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;
    sc_core::sc_in<bool> req;
    sc_core::sc_in<std::uint32_t> addr;
    sc_core::sc_in<bool> we;
    sc_core::sc_in<std::uint32_t> be;
    sc_core::sc_in<std::uint32_t> wdata;
    sc_core::sc_out<bool> gnt;
    sc_core::sc_out<bool> rvalid;
    sc_core::sc_out<std::uint32_t> rdata;
    sc_core::sc_out<bool> err;

    tcdm_bridge_sc(sc_core::sc_module_name nm, base::bus_initiator& bus);

    // Cycles requests waited for their bank beyond the first edge they could
    // have been granted at.
    std::uint64_t grant_wait_cycles() const { return bridge_.grant_wait_cycles(); }

private:
    SC_HAS_PROCESS(tcdm_bridge_sc);
    void end_of_elaboration() override;
    void on_fall();  // gnt for the next rising edge; a new request books its bank-cycle
    void on_edge();  // rising edge: perform the request granted at it
    std::uint64_t next_edge() const;  // the calendar cycle of the next rising edge
    tcdm_bridge bridge_;            // its calendar: the context's, at end_of_elaboration
    sc_core::sc_time period_;
    bool pending_ = false;          // the request on the pins has its grant edge
    std::uint64_t grant_edge_ = 0;  // ... this one
};

}  // namespace npu::rtl
