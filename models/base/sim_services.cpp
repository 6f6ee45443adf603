#include "sim_services.h"

#include <systemc>

namespace npu::base {

const char* exit_code_name(exit_code c) {
    switch (c) {
    case exit_code::success: return "success";
    case exit_code::firmware_failure: return "firmware failure";
    case exit_code::bad_input: return "bad input";
    case exit_code::bus_error: return "bus error";
    case exit_code::memcheck_error: return "memcheck error";
    case exit_code::watchdog: return "watchdog";
    case exit_code::golden_mismatch: return "golden mismatch";
    case exit_code::unhandled_trap: return "unhandled trap";
    case exit_code::self_check_failed: return "self-check failed";
    case exit_code::debugger_kill: return "killed from the debugger";
    case exit_code::internal_error: return "internal error";
    }
    return "?";
}

void sim_services::request_stop(exit_code code, const std::string& reason, int firmware_code) {
    if (stopped_) return;  // the first cause is the one worth reporting
    stopped_ = true;
    code_ = code;
    reason_ = reason;
    firmware_code_ = firmware_code;
    if (!sc_core::sc_is_running()) return;
    stopped_running_ = true;
    stop_time_ = sc_core::sc_time_stamp();
    if (!group_ || ++group_->stopped == group_->members) sc_core::sc_stop();
}

void sim_services::bus_error(const bus_error_info& e) {
    if (stopped_) return;
    if (on_bus_error) on_bus_error(e);
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(e.address));
    request_stop(exit_code::bus_error, std::string("bus error: ") +
                                           (e.is_fetch   ? "fetch"
                                            : e.is_write ? "store"
                                                         : "load") +
                                           " at " + buf + " by " + (e.who ? e.who->name : std::string("?")));
}

void sim_services::memcheck_finding(const memcheck_info& m) {
    if (memcheck_ == memcheck_mode::off || stopped_) return;
    if (m.in_flight && in_flight_ended && in_flight_ended(m.address)) return;
    bool stop = on_memcheck ? on_memcheck(m) : memcheck_stops();
    if (stop) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(m.address));
        request_stop(exit_code::memcheck_error,
                     std::string(m.in_flight && describe_in_flight &&
                                         describe_in_flight(m.address).rfind("systolic array", 0) == 0
                                     ? "memcheck: read of a systolic-array result before the job ended at "
                                 : m.in_flight ? "memcheck: read of a DMA destination before the transfer wrote it at "
                                 : m.zeroed_only ? "memcheck: read of data never loaded (only zeroed at startup) at "
                                                 : "memcheck: read of never-written memory at ") +
                         buf + " by " + (m.who ? m.who->name : std::string("?")));
    }
}

const sim_services::host_range* sim_services::find_host_range(const unsigned char* p) const {
    for (const auto& r : ranges_)
        if (p >= r.host && p < r.host + r.len) return &r;
    return nullptr;
}

}  // namespace npu::base
