// Side-band lines between blocks: events, interrupts, wake-ups, fetch
// enable, done/error, the boot address, a hart's awake state. Blocks meet
// through these SystemC ports, bound by the platform, never through C++
// callbacks it assigns: an unbound port is SystemC's elaboration error
// naming the port (E109 "complete binding failed: port not bound"), a line
// deliberately left open is bound to a named line_stub, and an RTL twin's
// output pin drives a line through signal_to_line below.
//
// A driver owns a line_out (sc_port<line_if>) and calls
// out->drive(index, level, delay); a receiver owns a line_in (an sc_export
// served by the receiver's handler). `index` selects a sub-line of a bundle
// (an interrupt bit, a DMA transfer id); `delay` is the driver's local-time
// offset under temporal decoupling, so a line changes at the driver's true
// time without forcing it to synchronise. A pulse (an event, a done) is one
// drive with level true.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace npu::base {

class line_if : public virtual sc_core::sc_interface {
public:
    virtual void drive(unsigned index, bool level, const sc_core::sc_time& delay) = 0;
};

// A multi-bit value a block presents to another (a boot address).
class word_if : public virtual sc_core::sc_interface {
public:
    virtual void write(std::uint32_t value) = 0;
};

// A level the receiver samples when it needs it (a hart's awake state).
class level_if : public virtual sc_core::sc_interface {
public:
    virtual bool read() const = 0;
};

// Driver side. A port whose kind() tells what to do about it: SystemC's
// unbound-port error reads "complete binding failed: port not bound: port
// 'soc.sa.error' (side-band line: bind it to its receiver, or to a
// base::line_stub to leave it open)".
template <class IF, int N = 1>
class side_band_port : public sc_core::sc_port<IF, N> {
public:
    explicit side_band_port(const char* name) : sc_core::sc_port<IF, N>(name) {}
    const char* kind() const override {
        return "side-band line: bind it to its receiver, or to a base::line_stub to leave it open";
    }
};

// Exactly one receiver (so an unbound line fails elaboration).
using line_out = side_band_port<line_if>;
// A value fanned out to any number (>= 1) of receivers.
using word_out = side_band_port<word_if, 0>;
using level_probe = side_band_port<level_if>;

// Receiver side: an export whose drives go to the handler the receiver gives.
class line_in : public sc_core::sc_export<line_if> {
public:
    using handler = std::function<void(unsigned index, bool level, const sc_core::sc_time& delay)>;
    line_in(const char* name, handler h) : sc_core::sc_export<line_if>(name), impl_(std::move(h)) { bind(impl_); }

private:
    struct impl : line_if {
        explicit impl(handler h) : fn(std::move(h)) {}
        void drive(unsigned index, bool level, const sc_core::sc_time& delay) override { fn(index, level, delay); }
        handler fn;
    } impl_;
};

class word_in : public sc_core::sc_export<word_if> {
public:
    using handler = std::function<void(std::uint32_t)>;
    word_in(const char* name, handler h) : sc_core::sc_export<word_if>(name), impl_(std::move(h)) { bind(impl_); }

private:
    struct impl : word_if {
        explicit impl(handler h) : fn(std::move(h)) {}
        void write(std::uint32_t value) override { fn(value); }
        handler fn;
    } impl_;
};

class level_in : public sc_core::sc_export<level_if> {
public:
    using handler = std::function<bool()>;
    level_in(const char* name, handler h) : sc_core::sc_export<level_if>(name), impl_(std::move(h)) { bind(impl_); }

private:
    struct impl : level_if {
        explicit impl(handler h) : fn(std::move(h)) {}
        bool read() const override { return fn(); }
        handler fn;
    } impl_;
};

// A line deliberately left unconnected: drives are dropped, a sampled level
// reads low. Named, so the wiring says which lines are open and why.
class line_stub : public sc_core::sc_object, public line_if, public word_if, public level_if {
public:
    explicit line_stub(const char* name) : sc_core::sc_object(name) {}
    const char* kind() const override { return "npu_line_stub"; }
    void drive(unsigned, bool, const sc_core::sc_time&) override {}
    void write(std::uint32_t) override {}
    bool read() const override { return false; }
};

// RTL adapter. signal_to_line: an sc_in<bool> (driven by an sc_signal, e.g.
// a Verilated block's output pin) becomes sub-line `index` of a line; every
// change of the pin is one drive at the current SystemC time.
class signal_to_line : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> in;
    line_out out;

    signal_to_line(sc_core::sc_module_name nm, unsigned index = 0)
        : sc_core::sc_module(nm), in("in"), out("out"), index_(index) {
        SC_METHOD(forward);
        sensitive << in;
        dont_initialize();
    }

private:
    SC_HAS_PROCESS(signal_to_line);
    void forward() { out->drive(index_, in.read(), sc_core::SC_ZERO_TIME); }
    unsigned index_;
};

}  // namespace npu::base
