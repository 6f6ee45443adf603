#include "waveform.h"

#include "config/config.h"

#include <gtkwave/fstapi.h>

#include <cstdio>
#include <fstream>

namespace npu::rtl {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

waveform_format waveform_format_of(const std::string& file) {
    waveform_format f;
    if (ends_with(file, ".fst"))
        f = waveform_format::fst;
    else if (ends_with(file, ".vcd"))
        f = waveform_format::vcd;
    else
        throw cfg::config_error("--rtl-trace " + file +
                                ": the extension picks the waveform format: FILE.fst (FST) or FILE.vcd (VCD)");
    if (!std::ofstream(file)) throw cfg::config_error("--rtl-trace " + file + ": cannot write this file");
    return f;
}

std::string fst_to_vcd(const std::string& fst, const std::string& vcd) {
    void* r = fstReaderOpen(fst.c_str());
    if (!r) return fst + " is not a readable FST file";
    FILE* out = std::fopen(vcd.c_str(), "w");
    if (!out) {
        fstReaderClose(r);
        return "cannot write " + vcd;
    }
    // The hierarchy first (it writes the VCD header and sizes the facility
    // mask), then every facility's value changes.
    const bool ok = fstReaderProcessHier(r, out) != 0;
    fstReaderSetFacProcessMaskAll(r);
    const bool values = ok && fstReaderIterBlocks(r, nullptr, nullptr, out) != 0;
    fstReaderClose(r);
    const bool closed = std::fclose(out) == 0;
    if (!ok || !values) return "reading the FST file " + fst + " failed";
    if (!closed) return "writing " + vcd + " failed";
    return {};
}

}  // namespace npu::rtl
