// The RTL's waveforms (--rtl-trace FILE.fst|FILE.vcd, docs/cosim.md).
//
// Verilator 5.006 builds one trace format into a Verilated model, so the SA
// is Verilated with FST tracing and a VCD is made from the FST with GTKWave's
// own FST reader (fstapi, shipped with Verilator): one model, both formats,
// and every VCD has been through the reader GTKWave uses on the FST.
#pragma once

#include <string>

namespace npu::rtl {

enum class waveform_format { fst, vcd };

// The format FILE's extension asks for; throws cfg::config_error naming the
// file and the extensions understood when it is neither .fst nor .vcd, or
// when FILE cannot be written.
waveform_format waveform_format_of(const std::string& file);

// Writes `vcd` from the FST file `fst`; "" on success, else why not.
std::string fst_to_vcd(const std::string& fst, const std::string& vcd);

}  // namespace npu::rtl
