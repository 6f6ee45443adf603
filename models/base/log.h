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

bool parse_log_level(const std::string& s, log_level& out);

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
