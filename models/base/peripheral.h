// A component with a bank of 32-bit memory-mapped registers: each declared
// with offset, reset value, access rights and callbacks. An offset nobody
// claimed is an address error; a read of a write-only register, a write to a
// read-only one, or an access that is not one aligned 32-bit word is a
// command error — firmware mistakes surface as bus errors, not as zeros.
#pragma once

#include "component.h"
#include "sim_services.h"
#include "txn_ext.h"

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npu::base {

class peripheral : public component, public burst_target {
public:
    enum access { read_only = 1, write_only = 2, read_write = 3 };
    using read_fn = std::function<std::uint32_t()>;
    using write_fn = std::function<void(std::uint32_t)>;

    peripheral(sc_core::sc_module_name nm, const cfg::config& cfg, std::string section);

    tlm_utils::simple_target_socket<peripheral> socket;

    // Declares a register. Without a read callback a read returns the stored
    // value; the write callback sees the new value after it is stored.
    void add_register(std::uint32_t offset, std::string name, access rights, std::uint32_t reset,
                      read_fn on_read = nullptr, write_fn on_write = nullptr);

    // The register at `offset` takes stores from cores only (a simulation
    // control: the exit, the harness's self-check, trace markers): any other
    // initiator's write is refused, a bus error for it (a stray DMA transfer
    // there would otherwise end the run as the firmware's exit(0), or fake a
    // self-check).
    void cores_only(std::uint32_t offset);

    // For a bus-error report: why an access at `offset` is refused when the
    // register's rights are the reason ("register STATUS (0x030) is
    // read-only"), or "" otherwise. `by_core`: the access was a core's.
    std::string access_problem(std::uint64_t offset, bool write, bool by_core = true) const;

    // What a debug read (the debugger, through the debug transport) of the
    // register at `offset` shows: `peek`'s value, computed without side
    // effects at SystemC time, for a register whose read computes its value
    // (a status, a counter); without one, the stored value (0 for most of
    // them: the debugger showed a busy DMA's STATUS as 0). Without `peek`,
    // the register's read callback, which the caller vouches has no side
    // effects.
    void set_peek(std::uint32_t offset, read_fn peek = nullptr);

    // Sets a register's stored value without side effects (reset values
    // known only after elaboration, e.g. a boot address from the ELF).
    void set_register(std::uint32_t offset, std::uint32_t value);

    // The initiator of the access being served (valid inside callbacks).
    const initiator_id* current_initiator() const { return ctx_->who; }
    std::uint64_t current_pc() const { return ctx_->pc; }
    // The initiator's local time of the access being served (SystemC time
    // plus its temporal-decoupling offset): what a counter read must show.
    sc_core::sc_time access_time() const { return base::sim_time() + ctx_->offset; }
    // Extra delay the callback wants to add to the access (e.g. a blocking
    // write); reset before every access.
    sc_core::sc_time& access_delay() { return ctx_->extra; }

    // Blocking registers (inside a callback, initiator in an SC_THREAD):
    // synchronise_access() waits until SystemC time reaches the access's
    // local time, so that state changes made by initiators running
    // decoupled happen in true time order; the access then returns with
    // only the register latency as its delay. wait_in_access(e) sleeps
    // until `e` — or, if the access was not yet at its local time, only
    // synchronises and returns, since the condition may have come true
    // (and `e` fired) meanwhile: callers loop `while (!cond) wait_in_access(e);`.
    // The callback's access context survives other accesses served meanwhile.
    void synchronise_access();
    void wait_in_access(const sc_core::sc_event& e);
    // Inside a callback: answer with TLM_COMMAND_ERROR_RESPONSE (a register
    // used in a way its state forbids, e.g. a join while nothing can end it).
    void reject_access() { ctx_->rejected = true; }

    // burst_target: an initiator that resolved this peripheral's window
    // (bus_initiator::resolve_burst_route) reaches its registers directly,
    // without a payload through the interconnect's sockets: the same access
    // as b_transport (a core's register access, about a thousand per
    // network run).
    tlm::tlm_response_status burst(tlm::tlm_command cmd, std::uint64_t offset, unsigned char* data, unsigned len,
                                   sc_core::sc_time& delay, txn_ext& ext) override;

private:
    // One register access (b_transport's, burst's): the response status.
    tlm::tlm_response_status serve(bool write, std::uint64_t offset, unsigned char* data, unsigned len,
                                   bool byte_enables, const txn_ext* ext, sc_core::sc_time& delay);
    struct reg {
        std::uint32_t offset;
        std::string name;
        access rights;
        std::uint32_t value;
        read_fn on_read;
        write_fn on_write;
        bool cores_only = false;
        read_fn peek;  // set_peek
    };
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& t);
    reg* find(std::uint32_t offset);

    // Per-access state: lives on b_transport's stack, so a callback that
    // blocks keeps its own while other initiators' accesses are served.
    struct access_ctx {
        const initiator_id* who = nullptr;
        std::uint64_t pc = 0;
        sc_core::sc_time offset;  // the initiator's local-time offset (0 once synchronised)
        sc_core::sc_time extra;
        bool rejected = false;
    };

    std::vector<reg> regs_;
    // regs_'s index + 1 of the register at each word offset below 64 KiB (0:
    // none): every access finds its register in one load, not by a walk over
    // the bank (the event unit has dozens, each carrying a name and two
    // callbacks: a walk touched a cache line per register). Offsets past
    // the table (none of ours) are walked.
    std::vector<std::uint16_t> by_word_;
    sc_core::sc_time latency_;
    access_ctx idle_ctx_;
    access_ctx* ctx_ = &idle_ctx_;
};

}  // namespace npu::base
