// Host memory helpers of the simulator's storage (the memories, the ISS's
// decode cache): header-only, no SystemC.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace npu::host {

// Maps the host pages of [p, p + n) now, in one call, instead of one page
// fault per page at its first touch (a read of a calloc'ed page maps the
// kernel's zero page, the first write then copies it: two). Whole pages:
// one at an end may also hold another heap block's bytes, which mapping
// leaves as they are. Best effort: where the kernel lacks
// MADV_POPULATE_WRITE (Linux 5.14), the pages fault in as before.
inline void populate_pages(const void* p, std::size_t n) {
#if defined(MADV_POPULATE_WRITE)
    if (!p || n == 0) return;
    constexpr std::uintptr_t page = 4096;
    const auto first = reinterpret_cast<std::uintptr_t>(p) & ~(page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + n + page - 1) & ~(page - 1);
    (void)madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE);
#else
    (void)p, (void)n;
#endif
}

// A zero-filled block of host memory. Blocks of half a huge page or more (a
// dense L2, its memcheck shadow) are mapped on their own, aligned to huge
// pages and advised to use them (MADV_HUGEPAGE: the kernel's transparent
// huge pages in "madvise" mode, the common default): a DMA streaming a
// weight tile's rows from all over a large L2 otherwise walks a 4 KiB page
// table entry per few rows, for its data and its shadow. Smaller blocks
// come from calloc. Either way the pages are the kernel's fresh zeroed
// ones: nothing is written at start-up.
class zeroed_block {
public:
    static constexpr std::size_t huge_page = std::size_t{2} << 20;
    zeroed_block() = default;
    explicit zeroed_block(std::size_t n) {
        if (n >= huge_page / 2) {
            // Aligned by mapping one huge page more and unmapping the ends.
            const std::size_t len = (n + huge_page - 1) & ~(huge_page - 1);
            void* m = mmap(nullptr, len + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED) throw std::bad_alloc();
            const auto at = reinterpret_cast<std::uintptr_t>(m);
            const std::uintptr_t aligned = (at + huge_page - 1) & ~(huge_page - 1);
            if (aligned > at) munmap(m, aligned - at);
            if (aligned + len < at + len + huge_page) munmap(reinterpret_cast<void*>(aligned + len), at + huge_page - aligned);
#if defined(MADV_HUGEPAGE)
            (void)madvise(reinterpret_cast<void*>(aligned), len, MADV_HUGEPAGE);
#endif
            p_ = reinterpret_cast<unsigned char*>(aligned);
            mapped_ = len;
        } else {
            p_ = static_cast<unsigned char*>(std::calloc(n ? n : 1, 1));
            if (!p_) throw std::bad_alloc();
        }
    }
    zeroed_block(const zeroed_block&) = delete;
    zeroed_block& operator=(const zeroed_block&) = delete;
    zeroed_block& operator=(zeroed_block&& o) noexcept {
        if (this != &o) {
            release();
            p_ = o.p_, mapped_ = o.mapped_;
            o.p_ = nullptr, o.mapped_ = 0;
        }
        return *this;
    }
    ~zeroed_block() { release(); }
    unsigned char* data() const { return p_; }

private:
    void release() {
        if (mapped_)
            munmap(p_, mapped_);
        else
            std::free(p_);
        p_ = nullptr, mapped_ = 0;
    }
    unsigned char* p_ = nullptr;
    std::size_t mapped_ = 0;
};

}  // namespace npu::host
