// npusim --vcd FILE: the activity of the timeline (--trace) as VCD signals
// for GTKWave and other waveform viewers:
//   hart<N>_state      2 bits: 0 halted, 1 running, 2 wfi, 3 event wait
//   <track>_busy       8 bits: spans of that engine in progress (dma
//                      channels, the systolic array: 0 or 1 in practice)
//   hart<N>_region     16 bits: id of the innermost open trace-marker region
//                      (0: none); the ids are listed in the header's $comment
// Written from the same activity stream as the timeline, not with SystemC's
// sc_trace: under temporal decoupling a hart reports a state change at its
// own cycle, ahead of SystemC time, so the changes are collected, ordered by
// cycle and written at the end. Time unit: 1 ps, a cycle = the cluster
// clock's period.
#pragma once

#include "soc.h"

#include "base/activity.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::platform {

class vcd_trace : public base::activity_sink {
public:
    explicit vcd_trace(const soc& s);

    // Writes every change up to `end_cycle`; false if the file cannot be
    // written.
    // "" or why the file could not be written.
    std::string write(const std::string& path, std::uint64_t end_cycle) const;

    void hart_state(unsigned hart, const char* state, std::uint64_t at) override;
    void hart_stall(unsigned, std::uint64_t, std::uint64_t, std::uint64_t) override {}
    void span(const std::string& track, const std::string& name, std::uint64_t begin, std::uint64_t end,
              const args& details) override;
    void region(int hart, const std::string& name, bool begin, std::uint64_t at) override;

private:
    struct var {
        std::string name;
        unsigned width;
    };
    struct change {
        std::uint64_t at;
        std::uint64_t seq;  // arrival order: equal times keep it
        std::size_t var;
        bool delta;         // +value/-value (span counts) or an absolute value
        std::int64_t value;
    };
    std::size_t var_of(const std::string& name, unsigned width);

    double period_ps_;
    unsigned harts_;
    std::vector<var> vars_;
    std::map<std::string, std::size_t> var_index_;
    std::vector<change> changes_;
    std::map<std::string, unsigned> region_ids_;
    std::map<int, std::vector<unsigned>> open_regions_;  // per hart, innermost last
};

// Both --trace and --vcd: one sink that forwards to two.
class activity_tee : public base::activity_sink {
public:
    activity_tee(base::activity_sink& a, base::activity_sink& b) : a_(a), b_(b) {}
    void hart_state(unsigned h, const char* s, std::uint64_t at) override {
        a_.hart_state(h, s, at);
        b_.hart_state(h, s, at);
    }
    void hart_stall(unsigned h, std::uint64_t at, std::uint64_t c, std::uint64_t s) override {
        a_.hart_stall(h, at, c, s);
        b_.hart_stall(h, at, c, s);
    }
    void span(const std::string& t, const std::string& n, std::uint64_t b, std::uint64_t e,
              const args& d) override {
        a_.span(t, n, b, e, d);
        b_.span(t, n, b, e, d);
    }
    void region(int h, const std::string& n, bool begin, std::uint64_t at) override {
        a_.region(h, n, begin, at);
        b_.region(h, n, begin, at);
    }

private:
    base::activity_sink& a_;
    base::activity_sink& b_;
};

}  // namespace npu::platform
