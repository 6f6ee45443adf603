// What the blocks of a SoC do when, for a timeline (npusim --trace). A model
// reports to its context's `activity` sink when one is attached; with none
// (the default) each report point costs one pointer test, and none sits on
// a per-instruction or per-access path. Times are cluster cycles.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npu::base {

class activity_sink {
public:
    using args = std::vector<std::pair<std::string, std::string>>;
    virtual ~activity_sink() = default;
    // Hart `hart` is in `state` ("running", "wfi", "event wait", "halted")
    // from cycle `at` on.
    virtual void hart_state(unsigned hart, const char* state, std::uint64_t at) = 0;
    // Hart `hart` spent `stall` of the `cycles` cycles of the batch ending
    // at `at` waiting for memory (latency and bank conflicts).
    virtual void hart_stall(unsigned hart, std::uint64_t at, std::uint64_t cycles, std::uint64_t stall) = 0;
    // A finished piece of work on an engine's track ("dma channel 0",
    // "systolic array"): [begin, end) with details.
    virtual void span(const std::string& track, const std::string& name, std::uint64_t begin, std::uint64_t end,
                      const args& details) = 0;
    // A trace-marker region of hart `hart` (-1: not a core) begins or ends.
    virtual void region(int hart, const std::string& name, bool begin, std::uint64_t at) = 0;
};

}  // namespace npu::base
