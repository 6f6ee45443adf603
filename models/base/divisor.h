// Division by a value fixed at set-up (a port's width, a bank's width, a
// calendar's slot length, the clock period) on paths taken per burst and
// per batch: a shift when it is a power of two, as every width default is;
// otherwise a multiplication by a precomputed reciprocal (the round-up
// method of Granlund & Montgomery, as libdivide's u64 division), exact for
// every 64-bit dividend. A 64-bit division is tens of host cycles, and a
// DMA burst used to make several: the clock period (2703 ps at 370 MHz) is
// no power of two, and every burst turns its time into a cycle.
#pragma once

#include <cstdint>

namespace npu::base {

class divisor {
public:
    divisor() = default;
    // d = 0 counts as 1 (callers whose key may be 0 test it themselves).
    explicit divisor(std::uint64_t d) : d_(d ? d : 1) {
        const int log2 = 63 - __builtin_clzll(d_);
        if ((d_ & (d_ - 1)) == 0) {
            shift_ = log2;
            return;
        }
        shift_ = -1;
        // m = floor(2^(64 + log2) / d) + 1 fits 64 bits when the remainder's
        // complement is small enough; otherwise the 65-bit magic is kept as
        // 2 * m' + 1 and applied with the "add" step (div()).
        using u128 = unsigned __int128;
        const u128 power = u128{1} << (64 + log2);
        std::uint64_t m = static_cast<std::uint64_t>(power / d_);
        const std::uint64_t rem = static_cast<std::uint64_t>(power % d_);
        if (d_ - rem < (std::uint64_t{1} << log2)) {
            more_ = log2;
        } else {
            m += m;
            const std::uint64_t twice_rem = rem + rem;
            if (twice_rem >= d_ || twice_rem < rem) m += 1;
            more_ = log2;
            add_ = true;
        }
        magic_ = m + 1;
    }
    std::uint64_t value() const { return d_; }
    // floor(n / d)
    std::uint64_t div(std::uint64_t n) const {
        if (shift_ >= 0) return n >> shift_;
        const std::uint64_t q = static_cast<std::uint64_t>((static_cast<unsigned __int128>(magic_) * n) >> 64);
        if (!add_) return q >> more_;
        return (((n - q) >> 1) + q) >> more_;
    }
    // ceil(n / d), for n + d - 1 that does not overflow
    std::uint64_t div_up(std::uint64_t n) const { return div(n + d_ - 1); }

private:
    std::uint64_t d_ = 1;
    int shift_ = 0;  // >= 0: d is 2^shift_
    std::uint64_t magic_ = 0;
    int more_ = 0;
    bool add_ = false;
};

}  // namespace npu::base
