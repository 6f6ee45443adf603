// Shared by the fuzz targets: the loaders take paths, so each input is
// written to a per-process temporary file first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace npu::fuzz {

// The input as a file, removed when the input is done (libFuzzer's runs end
// in _exit, so a per-process file left for the end stayed in /tmp after
// every run); a crashing input's file stays, with libFuzzer's own copy.
class temp_input {
public:
    temp_input(const char* tag, const std::uint8_t* data, std::size_t size, const char* suffix = "")
        : path("/tmp/npu_fuzz_" + std::string(tag) + "_" + std::to_string(::getpid()) + suffix) {
        if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
            if (size) std::fwrite(data, 1, size, f);
            std::fclose(f);
        }
    }
    ~temp_input() { std::remove(path.c_str()); }
    temp_input(const temp_input&) = delete;
    temp_input& operator=(const temp_input&) = delete;

    const std::string path;
};

}  // namespace npu::fuzz
