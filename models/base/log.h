// Name- and time-stamped, level-gated logging.
//
// NPU_LOG(logger, level, "fmt {}", args...) tests the level before touching
// its arguments, so a disabled log line costs one compare: hot paths (per
// instruction, per transaction) may log at debug/trace without slowing runs.
#pragma once

#include <fmt/core.h>

#include <cstdio>
#include <string>

namespace sc_core {
class sc_time;
}

namespace npu::base {

enum class log_level { error = 0, warn = 1, info = 2, debug = 3, trace = 4 };

bool parse_log_level(const std::string& s, log_level& out);

// Lines are stamped with SystemC time plus this offset (null: none). A
// peripheral serving a register access points it at the access's offset
// (its initiator's local time runs ahead of SystemC time under temporal
// decoupling): a warning the access causes is stamped when the firmware made
// it, not up to a quantum earlier (peripheral::serve).
void set_log_time_offset(const sc_core::sc_time* offset);

class logger {
public:
    // `threshold`: the level of the owner's simulation context (npusim
    // --log-level), read at every test so it can change after construction.
    logger(std::string name, const log_level& threshold) : name_(std::move(name)), threshold_(&threshold) {}
    bool enabled(log_level l) const { return static_cast<int>(l) <= static_cast<int>(*threshold_); }
    const std::string& name() const { return name_; }
    // Formats and prints one stamped line (callers go through NPU_LOG).
    void emit(log_level l, const std::string& msg) const;

private:
    std::string name_;
    const log_level* threshold_;
};

}  // namespace npu::base

#define NPU_LOG(lg, lvl, ...)                                                   \
    do {                                                                        \
        if ((lg).enabled(::npu::base::log_level::lvl))                          \
            (lg).emit(::npu::base::log_level::lvl, ::fmt::format(__VA_ARGS__)); \
    } while (0)
