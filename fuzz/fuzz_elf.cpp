// libFuzzer target: the ELF loader (platform/elf_image.cpp). Every input
// either loads or throws elf_error; a loaded image is symbolised at its entry
// point and every segment start (DWARF line lookup included).
#include "elf_image.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const npu::fuzz::temp_input in("elf", data, size);
    try {
        auto img = npu::platform::elf_image::load(in.path);
        (void)img.symbolize(img.entry());
        (void)img.source_line(img.entry());
        for (const auto& s : img.segments()) (void)img.symbolize(s.address);
    } catch (const npu::platform::elf_error&) {}
    return 0;
}
