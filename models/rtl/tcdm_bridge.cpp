#include "tcdm_bridge.h"

#include "base/context.h"

#include <stdexcept>
#include <utility>

namespace npu::rtl {

std::uint64_t tcdm_bridge::grant(const tcdm_request& q, std::uint64_t cycle) {
    granted_booked_ = in_l1(q.addr);
    if (!granted_booked_) return cycle;
    const std::uint32_t a = q.addr & ~3u;
    const std::uint64_t served = banks_->banks.reserve(banks_->bank_of(a - banks_->base), cycle);
    grant_wait_cycles_ += served - cycle;
    return served;
}

tcdm_response tcdm_bridge::access(const tcdm_request& q, const sc_core::sc_time& when) {
    tcdm_response r;
    ++accesses_;
    // The grant booked the request's bank-cycle: the memory must not book it again.
    const base::bus_initiator::banks_booked_scope booked(bus_, std::exchange(granted_booked_, false));
    unsigned first = 0;
    while (first < 4 && !(q.be >> first & 1)) ++first;
    unsigned last = first;
    while (last + 1 < 4 && (q.be >> (last + 1) & 1)) ++last;
    // No byte enabled, or enables with a gap: not a transfer this bridge makes.
    if (first == 4 || (q.be >> (last + 1)) != 0) {
        r.err = true;
        return r;
    }
    const unsigned len = last - first + 1;
    const std::uint64_t a = (q.addr & ~3u) + first;
    sc_core::sc_time delay = when - sc_core::sc_time_stamp();
    unsigned char bytes[4] = {};
    tlm::tlm_response_status st;
    if (q.write) {
        for (unsigned i = 0; i < len; ++i) bytes[i] = static_cast<unsigned char>(q.wdata >> (8 * (first + i)));
        st = bus_.write(a, bytes, len, delay);
    } else {
        st = bus_.read(a, bytes, len, delay);
        for (unsigned i = 0; i < len; ++i) r.rdata |= std::uint32_t(bytes[i]) << (8 * (first + i));
    }
    r.err = st != tlm::TLM_OK_RESPONSE;
    return r;
}

tcdm_bridge_sc::tcdm_bridge_sc(sc_core::sc_module_name nm, base::bus_initiator& bus)
    : sc_core::sc_module(nm),
      clk("clk"),
      req("req"),
      addr("addr"),
      we("we"),
      be("be"),
      wdata("wdata"),
      gnt("gnt"),
      rvalid("rvalid"),
      rdata("rdata"),
      err("err"),
      bridge_(bus) {
    SC_METHOD(on_fall);
    sensitive << clk.neg();
    dont_initialize();
    SC_METHOD(on_edge);
    sensitive << clk.pos();
    dont_initialize();
}

void tcdm_bridge_sc::end_of_elaboration() {
    if (auto* c = dynamic_cast<sc_core::sc_clock*>(clk.get_interface())) period_ = c->period();
    if (period_ == sc_core::SC_ZERO_TIME) return;
    try {
        bridge_.set_banks(&base::find_context(*this).shared<base::l1_bank_calendar>());
    } catch (const std::logic_error&) {
        // No SoC or bench context around the bridge: no calendar to arbitrate in.
    }
}

std::uint64_t tcdm_bridge_sc::next_edge() const {
    return period_ == sc_core::SC_ZERO_TIME ? 0 : sc_core::sc_time_stamp().value() / period_.value() + 1;
}

void tcdm_bridge_sc::on_fall() {
    if (!req.read()) {
        pending_ = false;
        gnt.write(false);
        return;
    }
    const std::uint64_t next = next_edge();
    if (!pending_) {
        // A new request (the RTL holds it, unchanged, until granted): its
        // bank's first free cycle from the next rising edge, booked now.
        tcdm_request q;
        q.addr = addr.read();
        grant_edge_ = bridge_.grant(q, next);
        pending_ = true;
    }
    gnt.write(grant_edge_ <= next);
}

void tcdm_bridge_sc::on_edge() {
    // The RTL samples gnt at this edge and expects rvalid in the next cycle.
    if (req.read() && gnt.read()) {
        tcdm_request q;
        q.addr = addr.read();
        q.write = we.read();
        q.be = static_cast<std::uint8_t>(be.read() & 0xF);
        q.wdata = wdata.read();
        const tcdm_response r = bridge_.access(q, sc_core::sc_time_stamp());
        pending_ = false;
        // gnt stays as it is until the next falling edge decides for the next
        // request (one driver per signal; the RTL samples it at rising edges).
        rvalid.write(true);
        rdata.write(r.rdata);
        err.write(r.err);
    } else {
        rvalid.write(false);
        err.write(false);
    }
}

}  // namespace npu::rtl
