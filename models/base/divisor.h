// Division by a value fixed at set-up (a port's width, a bank's width, a
// calendar's slot length) on paths taken per burst: a shift when it is a
// power of two, as every default is. A 64-bit division is tens of host
// cycles, and a DMA burst used to make a dozen of them.
#pragma once

#include <cstdint>

namespace npu::base {

class divisor {
public:
    divisor() = default;
    // d = 0 counts as 1 (callers whose key may be 0 test it themselves).
    explicit divisor(std::uint64_t d)
        : d_(d ? d : 1), shift_((d_ & (d_ - 1)) == 0 ? __builtin_ctzll(d_) : -1) {}
    std::uint64_t value() const { return d_; }
    // floor(n / d)
    std::uint64_t div(std::uint64_t n) const { return shift_ >= 0 ? n >> shift_ : n / d_; }
    // ceil(n / d), for n + d - 1 that does not overflow
    std::uint64_t div_up(std::uint64_t n) const { return div(n + d_ - 1); }

private:
    std::uint64_t d_ = 1;
    int shift_ = 0;
};

}  // namespace npu::base
