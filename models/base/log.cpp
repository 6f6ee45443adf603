#include "log.h"

#include <systemc>

namespace npu::base {

namespace {
const sc_core::sc_time* log_time_offset = nullptr;

const char* level_tag(log_level l) {
    switch (l) {
    case log_level::error: return "error";
    case log_level::warn: return "warn";
    case log_level::info: return "info";
    case log_level::debug: return "debug";
    case log_level::trace: return "trace";
    }
    return "?";
}
}  // namespace

void set_log_time_offset(const sc_core::sc_time* offset) { log_time_offset = offset; }

bool parse_log_level(const std::string& s, log_level& out) {
    static const std::pair<const char*, log_level> names[] = {{"error", log_level::error},
                                                              {"warn", log_level::warn},
                                                              {"info", log_level::info},
                                                              {"debug", log_level::debug},
                                                              {"trace", log_level::trace}};
    for (const auto& [n, l] : names)
        if (s == n) {
            out = l;
            return true;
        }
    return false;
}

void logger::emit(log_level l, const std::string& msg) const {
    // Logs go to stderr: stdout belongs to the firmware's UART.
    sc_core::sc_time t = sc_core::sc_time_stamp();
    if (log_time_offset) t += *log_time_offset;
    const double us = t.to_seconds() * 1e6;
    fmt::print(stderr, "[{:>12.3f} us] {:<5} {}: {}\n", us, level_tag(l), name_, msg);
}

}  // namespace npu::base
