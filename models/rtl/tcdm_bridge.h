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
    explicit tcdm_bridge(base::bus_initiator& bus) : bus_(bus) {}

    // Performs a granted request at SystemC time `when` (>= now).
    tcdm_response access(const tcdm_request& q, const sc_core::sc_time& when);

    std::uint64_t accesses() const { return accesses_; }

private:
    base::bus_initiator& bus_;
    std::uint64_t accesses_ = 0;
};

// The same bridge as a pin-level SystemC module for an RTL block that runs on
// an sc_clock (a Verilated --sc model, or a Verilated C++ model wrapped in an
// SC_MODULE): it grants every request in the cycle it is raised and answers
// it in the next, sampling at the rising edge of `clk`. The access is issued
// at the SystemC time of that edge.
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

private:
    SC_HAS_PROCESS(tcdm_bridge_sc);
    void on_req();   // combinational grant
    void on_edge();  // rising edge: answer the request granted in this cycle
    tcdm_bridge bridge_;
};

}  // namespace npu::rtl
