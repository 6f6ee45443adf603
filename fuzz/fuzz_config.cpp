// libFuzzer target: the config parser and the memory map (common/config).
// Input: an INI file, optionally followed by a line "--" and one override
// (key=value) per line, as npusim and npuc take them. Every input either
// builds a memory map or throws config_error.
#include "config/config.h"
#include "config/memory_map.h"
#include "fuzz_util.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string file = text;
    std::vector<std::string> overrides;
    if (auto cut = text.find("\n--\n"); cut != std::string::npos) {
        file = text.substr(0, cut);
        std::istringstream rest(text.substr(cut + 4));
        for (std::string line; std::getline(rest, line);)
            if (!line.empty()) overrides.push_back(line);
    }
    const npu::fuzz::temp_input in("cfg", reinterpret_cast<const std::uint8_t*>(file.data()), file.size());
    try {
        auto c = npu::cfg::config::load(in.path, overrides);
        auto m = npu::cfg::memory_map::build(c);
        (void)m.print();
        (void)c.dump();
        (void)c.fingerprint();
    } catch (const npu::cfg::config_error&) {}
    return 0;
}
