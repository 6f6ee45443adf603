// Shared by the fuzz targets: the loaders take paths, so each input is
// written to a per-process temporary file first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace npu::fuzz {

inline std::string write_temp(const char* tag, const std::uint8_t* data, std::size_t size, const char* suffix = "") {
    const std::string path = "/tmp/npu_fuzz_" + std::string(tag) + "_" + std::to_string(::getpid()) + suffix;
    if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
        if (size) std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    return path;
}

}  // namespace npu::fuzz
