// A FIFO for per-burst state (a DMA channel's bursts in flight,
// models/dma/dma.cpp) that allocates nothing in steady state.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace npu::base {

// A FIFO whose slots are reused in place: pushing hands back the slot's
// previous object (a burst's buffer keeps its capacity), so a channel's
// bursts allocate nothing once the ring has grown to the channel's depth.
// Capacity a power of two, doubled (in order) when full.
template <class T>
class reuse_fifo {
public:
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    T& front() { return buf_[head_]; }
    T& operator[](std::size_t i) { return buf_[(head_ + i) & (buf_.size() - 1)]; }
    // The new back slot, holding whatever object it held before.
    T& push() {
        if (size_ == buf_.size()) grow();
        return (*this)[size_++];
    }
    void pop() {
        head_ = (head_ + 1) & (buf_.size() - 1);
        --size_;
    }
    void clear() { head_ = size_ = 0; }

private:
    void grow() {
        std::vector<T> bigger(buf_.empty() ? 8 : 2 * buf_.size());
        for (std::size_t i = 0; i < buf_.size(); ++i) bigger[i] = std::move((*this)[i]);
        buf_.swap(bigger);
        head_ = 0;
    }
    std::vector<T> buf_;
    std::size_t head_ = 0, size_ = 0;
};

}  // namespace npu::base
