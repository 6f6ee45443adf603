// libFuzzer target: the manifest reader and the golden comparison
// (platform/golden.cpp), in npusim's order: parse, check the outputs against
// the default memory map, load golden.bin, compare. Input: manifest JSON, a
// NUL byte, then the golden.bin bytes. The simulated memory reads as a
// pattern. Every input either compares or throws manifest_error.
#include "config/config.h"
#include "config/memory_map.h"
#include "fuzz_util.h"
#include "golden.h"

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const auto cfg = npu::cfg::config::load("", {});
    static const auto map = npu::cfg::memory_map::build(cfg);
    const auto* nul = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
    const std::size_t json_size = nul ? static_cast<std::size_t>(nul - data) : size;
    const std::string json(reinterpret_cast<const char*>(data), json_size);
    const npu::fuzz::temp_input golden("golden", nul ? nul + 1 : data, nul ? size - json_size - 1 : 0);
    const std::string& golden_path = golden.path;
    try {
        auto m = npu::platform::manifest::parse(json, "/tmp/fuzz/manifest.json");
        m.golden_path = golden_path;
        npu::platform::check_outputs_mapped(m, map);
        const auto golden = npu::platform::load_golden(m);
        auto reader = [](std::uint64_t addr, void* d, std::uint64_t n) {
            std::memset(d, static_cast<int>(addr & 0xff), n);
            return n;
        };
        auto cmp = npu::platform::compare_outputs(m, golden, reader, nullptr);
        (void)cmp.text();
        (void)cmp.json();
    } catch (const npu::platform::manifest_error&) {}
    return 0;
}
