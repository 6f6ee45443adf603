// npusim --trace FILE: the run as a Chrome/Perfetto trace (JSON trace-event
// format; opens in ui.perfetto.dev or chrome://tracing). Tracks:
//   "hart N (role)"        running / wfi / event wait (blocked in an event-unit
//                          register) / halted slices, and a "hart N memory
//                          stall %" counter per batch
//   "dma channel C"        one slice per transfer, its descriptor in the args
//   "systolic array"       one slice per job, M/N/K and operands in the args
//   "regions hart N"       trace-marker regions (npuc's layers among them)
//   "bytes <level>"        counters: bytes read + written so far per memory level
// Timestamps are simulated microseconds (cycles / cluster clock); every slice
// also carries its begin and end cycle in its args.
#pragma once

#include "soc.h"

#include "base/activity.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::platform {

class timeline : public base::activity_sink {
public:
    // Attaches to `s`'s context; detaches in the destructor.
    explicit timeline(soc& s);
    ~timeline() override;
    timeline(const timeline&) = delete;
    timeline& operator=(const timeline&) = delete;

    // Closes the open slices at `end_cycle` and writes the JSON; false if the
    // file cannot be written.
    // "" or why the file could not be written.
    std::string write(const std::string& path, std::uint64_t end_cycle);

    void hart_state(unsigned hart, const char* state, std::uint64_t at) override;
    void hart_stall(unsigned hart, std::uint64_t at, std::uint64_t cycles, std::uint64_t stall) override;
    void span(const std::string& track, const std::string& name, std::uint64_t begin, std::uint64_t end,
              const args& details) override;
    void region(int hart, const std::string& name, bool begin, std::uint64_t at) override;

private:
    struct open_state {
        std::string state;
        std::uint64_t since = 0;
    };
    soc& soc_;
    double mhz_;
    std::vector<std::string> events_;  // JSON objects
    std::map<std::string, int> tids_;
    std::vector<open_state> harts_;
    std::map<int, std::vector<std::pair<std::string, std::uint64_t>>> open_regions_;
    std::vector<std::uint64_t> last_bytes_;
    std::uint64_t last_sample_ = 0;

    int tid(const std::string& track);
    double us(std::uint64_t cycle) const { return static_cast<double>(cycle) / mhz_; }
    void slice(const std::string& track, const std::string& name, std::uint64_t begin, std::uint64_t end,
               const args& details);
    void sample_traffic(std::uint64_t at, bool force);
};

}  // namespace npu::platform
