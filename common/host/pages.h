// Host memory helpers of the simulator's storage (the memories, the ISS's
// decode cache): header-only, no SystemC.
#pragma once

#include <cstddef>
#include <cstdint>

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

}  // namespace npu::host
