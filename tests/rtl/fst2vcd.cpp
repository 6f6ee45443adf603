// rtl_fst2vcd IN.fst OUT.vcd: an FST waveform as VCD, through GTKWave's own
// FST reader (models/rtl/waveform.h). The waveform test reads npusim's FST
// back with it; it also serves where GTKWave's fst2vcd is not installed.
#include "waveform.h"

#include <systemc>

#include <cstdio>

int sc_main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: rtl_fst2vcd IN.fst OUT.vcd\n");
        return 2;
    }
    const std::string why = npu::rtl::fst_to_vcd(argv[1], argv[2]);
    if (why.empty()) return 0;
    std::fprintf(stderr, "rtl_fst2vcd: %s\n", why.c_str());
    return 1;
}
