#include "tcdm_bridge.h"

namespace npu::rtl {

tcdm_response tcdm_bridge::access(const tcdm_request& q, const sc_core::sc_time& when) {
    tcdm_response r;
    ++accesses_;
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
    SC_METHOD(on_req);
    sensitive << req;
    SC_METHOD(on_edge);
    sensitive << clk.pos();
    dont_initialize();
}

void tcdm_bridge_sc::on_req() { gnt.write(req.read()); }

void tcdm_bridge_sc::on_edge() {
    // The RTL samples gnt at this edge and expects rvalid in the next cycle.
    if (req.read()) {
        tcdm_request q;
        q.addr = addr.read();
        q.write = we.read();
        q.be = static_cast<std::uint8_t>(be.read() & 0xF);
        q.wdata = wdata.read();
        const tcdm_response r = bridge_.access(q, sc_core::sc_time_stamp());
        rvalid.write(true);
        rdata.write(r.rdata);
        err.write(r.err);
    } else {
        rvalid.write(false);
        err.write(false);
    }
}

}  // namespace npu::rtl
