// Name- and time-stamped, level-gated logging.
//
// NPU_LOG(logger, level, "fmt {}", args...) tests the level before touching
// its arguments, so a disabled log line costs one compare: hot paths (per
// instruction, per transaction) may log at debug/trace without slowing runs.
#pragma once

#include <fmt/core.h>

#include <cstdio>
#include <string>

namespace npu::base {

enum class log_level { error = 0, warn = 1, info = 2, debug = 3, trace = 4 };

// Global threshold; set from `npusim --log-level`.
log_level global_log_level();
void set_global_log_level(log_level l);
bool parse_log_level(const std::string& s, log_level& out);

class logger {
public:
    explicit logger(std::string name) : name_(std::move(name)) {}
    bool enabled(log_level l) const { return static_cast<int>(l) <= static_cast<int>(global_log_level()); }
    const std::string& name() const { return name_; }
    // Formats and prints one stamped line (callers go through NPU_LOG).
    void emit(log_level l, const std::string& msg) const;

private:
    std::string name_;
};

}  // namespace npu::base

#define NPU_LOG(lg, lvl, ...)                                                        \
    do {                                                                             \
        if ((lg).enabled(::npu::base::log_level::lvl))                               \
            (lg).emit(::npu::base::log_level::lvl, ::fmt::format(__VA_ARGS__));      \
    } while (0)
