// What the host's x86-64 offers beyond the build's baseline, read once
// before main: hot loops over bank calendars and memcheck shadows take an
// AVX-512 path where the host has AVX-512BW (a check per call is one
// load), their portable one elsewhere. Tests clear use_avx512bw to check
// the portable paths on a host that has it.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NPU_HOST_AVX512 1

namespace npu::base {

inline bool use_avx512bw = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bw") != 0;
}();

}  // namespace npu::base
#endif
