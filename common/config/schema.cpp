// The one declaration of every platform configuration key. docs/config.md is
// generated from this table (`npusim --config-doc`) and a test checks that
// the checked-in file matches, so the reference cannot drift.
#include "config.h"

namespace npu::cfg {

namespace {

key_decl decl(std::string key, value_kind kind, std::string def, std::string desc) {
    key_decl d;
    d.key = std::move(key);
    d.kind = kind;
    d.default_value = std::move(def);
    d.description = std::move(desc);
    return d;
}

// Keys shared by every memory region: l1, l2, l3.
void add_memory(schema& s, const std::string& name, const std::string& base, const std::string& size,
                const std::string& latency, const std::string& bandwidth, const std::string& storage,
                const std::string& what, bool size_pow2 = false) {
    s.add(decl(name + ".base", value_kind::address, base, "Base address of " + what + "."));
    auto& sz = s.add(decl(name + ".size", value_kind::size, size, "Size of " + what + "."));
    sz.nonzero = true;
    sz.power_of_two = size_pow2;
    sz.max = 1ull << 32;  // the 32-bit address space; dense storage has its own limit (memory_map.cpp)
    auto& lat = s.add(decl(name + ".latency", value_kind::cycles, latency,
                           "Access latency of " + what + " in cluster cycles (first word)."));
    lat.max = 100000;
    auto& bw = s.add(decl(name + ".bandwidth", value_kind::size, bandwidth,
                          "Bytes per cluster cycle one port of " + what + " delivers." +
                              (name == "l1" ? std::string(
                                                  " In the banked L1 each initiator brings its own width (a core "
                                                  "one word per access, the DMA `dma.l1_width`, the SA "
                                                  "`sa.l1_bandwidth`): this key paces only a burst wider than "
                                                  "`l1.bank_width` from an initiator without one; no initiator "
                                                  "of the shipped platforms makes such a burst, so there it "
                                                  "changes no cycle.")
                                            : std::string())));
    bw.nonzero = true;
    bw.max = 4096;
    auto& st = s.add(decl(name + ".storage", value_kind::choice, storage,
                          "Host storage of " + what +
                              ": `dense` (one allocation) or `sparse` (4 KiB pages allocated when first "
                              "touched, so a large memory costs only what is used)."));
    st.choices = {"dense", "sparse"};
}

schema make_platform_schema() {
    schema s;
    // --- SoC-wide ---------------------------------------------------------
    auto& clk = s.add(decl("soc.cluster_clock", value_kind::frequency, "370MHz",
                           "Clock of the cluster (cores, L1, DMA, SA). All cycle figures use it."));
    clk.nonzero = true;
    clk.max = 100000000000ull;  // 100 GHz
    auto& q = s.add(decl("soc.quantum", value_kind::time, "10us",
                         "Temporal-decoupling quantum: how far an initiator may run ahead of "
                         "SystemC time before it synchronises. Larger is faster, smaller is more "
                         "accurate for cross-core interaction."));
    q.nonzero = true;
    q.max = 1000000000000ull;  // 1 s
    s.add(decl("soc.max_cycles", value_kind::cycles, "0",
               "Watchdog: stop the run after this many cluster cycles (0 = no limit)."));
    auto& mc = s.add(decl("soc.memcheck", value_kind::choice, "warn",
                          "Reads of never-written bytes: `off`, `warn` (report, continue), `error` "
                          "(report and stop with the memcheck exit code) or `strict` (`error`, and the "
                          "startup code's zeroing of .bss does not count as loading data: a DMA, SA or "
                          "floating-point core read of such bytes is a finding; docs/memory-map.md)."));
    mc.choices = {"off", "warn", "error", "strict"};
    auto& obe = s.add(decl("soc.on_bus_error", value_kind::choice, "stop",
                           "A core's bus error: `stop` the run with a bus-error report, or `trap` "
                           "(deliver a precise access fault to the firmware's trap handler; the "
                           "run still stops with the report if no handler is installed)."));
    obe.choices = {"stop", "trap"};

    // --- cluster ----------------------------------------------------------
    auto& w = s.add(decl("cluster.workers", value_kind::count, "8",
                         "Number of worker cores (harts 0..workers-1). The cluster controller is "
                         "hart `workers`. 0 leaves only the cluster controller, as hart 0: what "
                         "single-hart bare-metal tests (riscv-tests) expect."));
    w.max = 31;
    auto& l2o = s.add(decl("cluster.l2_outstanding", value_kind::count, "4",
                           "Core requests to L2 the cluster's shared path carries at once, each for its "
                           "round trip (l2.latency + the hop), i.e. one request per round trip / this cycles: "
                           "the cores' L2 loads and stores contend for it (docs/memory-map.md)."));
    l2o.nonzero = true;
    l2o.max = 64;

    // --- cores --------------------------------------------------------------
    auto& mis = s.add(decl("core.misaligned", value_kind::choice, "trap",
                           "Misaligned load/store: `trap` (address-misaligned exception) or `split` "
                           "(performed as byte accesses, one extra cycle)."));
    mis.choices = {"trap", "split"};
    // Not fingerprinted: a firmware using an absent extension stops at the
    // instruction with an illegal-instruction trap naming it, and a subset
    // is how one checks that a build does not use an extension.
    auto& ext = s.add(decl("core.isa_extensions", value_kind::name_list, "c,xcvmem,xcvmac,xcvalu,xcvbi,xcvelw,xcvsimd,xcvbitmanip",
                           "Optional ISA extensions the cores implement (on top of RV32IMAF, Zicsr, Zifencei): "
                           "`c` (compressed instructions, with Zcf's c.flw/c.fsw/c.flwsp/c.fswsp) and the CORE-V "
                           "(CV32E40Pv2) extensions as clang-19 names them: `xcvmem` (post-increment and "
                           "register-offset loads/stores), `xcvmac` (multiply-accumulate, 16-bit multiplies "
                           "with shift), `xcvalu` (abs, min/max, extensions, clip, add/sub with shift), `xcvbi` "
                           "(branches on a 5-bit immediate), `xcvelw` (event load word), `xcvsimd` (packed 8/16-bit "
                           "SIMD: lane arithmetic, comparisons, dot products, shuffles, complex numbers), "
                           "`xcvbitmanip` (bit-field extract/insert/clear/set, bit reverse, ff1/fl1/clb/cnt, "
                           "rotate; docs/cores.md). An absent "
                           "extension's encodings raise illegal-instruction; without `c` jump targets must be "
                           "4-byte aligned. `none`: RV32IMAF only."));
    ext.choices = {"c", "xcvmem", "xcvmac", "xcvalu", "xcvbi", "xcvelw", "xcvsimd", "xcvbitmanip"};
    ext.fingerprinted = false;
    // The cores keep a cost per instruction class in one byte (hart.h).
    auto cpi = [](key_decl& d) { d.max = 255; };
    cpi(s.add(
        decl("core.cpi_alu", value_kind::cycles, "1", "Cycles of an integer ALU, LUI/AUIPC or CSR instruction.")));
    cpi(s.add(decl("core.cpi_mul", value_kind::cycles, "1", "Cycles of MUL (CV32E40P: 1).")));
    cpi(s.add(decl("core.cpi_mulh", value_kind::cycles, "5", "Cycles of MULH/MULHSU/MULHU (CV32E40P: 5).")));
    cpi(s.add(decl("core.cpi_div", value_kind::cycles, "3",
                   "Minimum cycles of DIV/DIVU/REM/REMU; the divisor's leading zero bits are added (its "
                   "magnitude for the signed forms, 32 for a zero divisor): CV32E40P's 3..35.")));
    cpi(s.add(decl("core.cpi_branch", value_kind::cycles, "1", "Cycles of a branch that is not taken.")));
    s.add(decl("core.cpi_branch_taken", value_kind::cycles, "3",
               "Cycles of a taken branch (CV32E40P: 3, the IF and ID stages flushed).")).max = 100000;
    cpi(s.add(decl("core.cpi_jump", value_kind::cycles, "2", "Cycles of JAL/JALR.")));
    cpi(s.add(decl("core.cpi_load", value_kind::cycles, "1",
                   "Issue cycles of a load; the latency of the memory touched is added, but for L1 (TCDM) "
                   "only what exceeds the 2 cycles the pipeline hides (l1.latency 1 + one hop), plus 1 "
                   "load-use stall when the next instruction reads the loaded register (CV32E40P).")));
    cpi(s.add(decl("core.cpi_store", value_kind::cycles, "1",
                   "Issue cycles of a store; the latency of the memory touched is added (for L1 only what "
                   "exceeds the 2 cycles the pipeline hides).")));
    cpi(s.add(decl("core.cpi_fpu", value_kind::cycles, "1", "Cycles of an F add/mul/fma/convert/compare/move.")));
    cpi(s.add(decl("core.cpi_fdiv", value_kind::cycles, "19",
                   "Cycles the FPU is busy with an FDIV.S / FSQRT.S (which issues in core.cpi_fpu): the next FPU "
                   "instruction or fsw waits for it (CV32E40P: 1..19).")));
    cpi(s.add(decl("core.cpi_amo", value_kind::cycles, "2", "Issue cycles of an LR/SC/AMO; memory latency is added.")));
    s.add(decl("core.l1_bank_conflict_penalty", value_kind::cycles, "0",
               "Extra stall cycles a core's L1 access pays when it loses its bank's cycle to another "
               "initiator, on top of waiting for the bank's next free cycle (TCDM arbitration: each "
               "bank serves one access per cycle; docs/memory-map.md)."))
        .max = 100000;
    auto& cb = s.add(decl("core.contended_batch", value_kind::cycles, "128",
                          "Cycles a hart runs between synchronisations while its own or any other hart's waits for "
                          "an L1 bank or the cluster's path to L2 are dense (at least 1/8 of its cycles; sparser ones "
                          "give core.sparse_contended_batch), and while a DMA transfer with an L1 side is in flight: contending "
                          "harts take turns in time order at this granularity. Shorter: turns nearer the hardware's "
                          "round-robin; longer: faster multi-hart simulation, a hart's wait further from round-robin "
                          "(docs/memory-map.md, L1 arbitration; docs/cores.md, Performance)."));
    cb.min = 1;
    cb.max = 1000000;
    auto& sb = s.add(decl("core.sparse_contended_batch", value_kind::cycles, "1024",
                          "Cycles a hart runs between synchronisations while its waits for an L1 bank or the "
                          "cluster's path to L2 are occasional (under 1/8 of its cycles; denser waits give "
                          "core.contended_batch): contending harts take turns in time order at this granularity "
                          "(docs/cores.md, Performance)."));
    sb.min = 1;
    sb.max = 1000000;

    // --- the cluster's shared instruction cache (docs/cores.md, "Instruction fetch")
    s.add(decl("icache.enabled", value_kind::boolean, "true",
               "Model the cluster's shared instruction cache: code fetched from L2 costs "
               "icache.miss_cycles per line missed; hits and code in L1 cost nothing beyond the "
               "instruction. false: instruction fetch is not charged at all."));
    auto pow2 = [](key_decl& d) {
        d.power_of_two = true;
        d.nonzero = true;
    };
    auto& ics = s.add(decl("icache.size", value_kind::size, "4KiB",
                           "Capacity of the shared instruction cache (PULP cluster hier-icache: 4 KiB shared; "
                           "no published GAP9 figure). Must hold at least one set (icache.ways x "
                           "icache.line_bytes)."));
    pow2(ics);
    ics.max = 1u << 20;
    auto& icl = s.add(decl("icache.line_bytes", value_kind::size, "16B",
                           "Cache line: the bytes one miss refills (hier-icache: one 128-bit line)."));
    pow2(icl);
    icl.min = 4;
    icl.max = 4096;
    auto& icw = s.add(decl("icache.ways", value_kind::count, "4",
                           "Associativity (hier-icache: 4 ways); round-robin replacement per set."));
    pow2(icw);
    icw.max = 64;
    s.add(decl("icache.miss_cycles", value_kind::cycles, "0",
               "Cycles a core stalls per line missed. 0 = derived: the core's L2 round trip "
               "(l2.latency + interconnect.hop_latency) + one cycle per further l2.bandwidth beat of the "
               "line (gap9: 6 + 1 + 16B / 8B - 1 = 8).")).max = 100000;

    // --- memories -----------------------------------------------------------
    // The banked L1 interleaves words over banks: its size must be a power of two.
    add_memory(s, "l1", "0x10000000", "128KiB", "1", "4B", "dense", "the cluster L1 (TCDM)", true);
    auto& banks = s.add(
        decl("l1.banks", value_kind::count, "16", "L1 banks; consecutive bank-width words go to consecutive banks."));
    banks.power_of_two = true;
    banks.nonzero = true;
    banks.max = 1024;  // one timing slot per bank is allocated up front
    auto& bw = s.add(decl("l1.bank_width", value_kind::size, "4B", "Width of one L1 bank word."));
    bw.power_of_two = true;
    bw.nonzero = true;
    bw.max = 64;
    add_memory(s, "l2", "0x1C000000", "1536KiB", "6", "8B", "dense", "the SoC L2");
    add_memory(s, "l3", "0x80000000", "8MiB", "100", "4B", "sparse",
               "the external L3 (HyperRAM-like; reachable through the DMA only)");
    // The PSRAM behind GAP9's OctoSPI: defaults from the APS256XXN datasheet
    // (x8 DDR, 200 MHz, 400 MB/s, 2048-byte pages; docs/memory-map.md).
    auto& l3i = s.add(decl("l3.interface", value_kind::choice, "psram",
                           "Timing of L3: `psram`, an OctoSPI/HyperBus PSRAM whose pins carry one "
                           "transaction at a time (command, address and initial latency, then the data at "
                           "the pin rate, re-issued at each page boundary), shared by every channel; or "
                           "`port`, a memory port like l2's (`l3.latency`, `l3.bandwidth`). With `psram`, "
                           "l3.latency and l3.bandwidth are not used."));
    l3i.choices = {"psram", "port"};
    auto& l3c = s.add(decl("l3.psram_clock", value_kind::frequency, "200MHz",
                           "Clock of the PSRAM pins (APS256XXN: up to 200 MHz)."));
    l3c.nonzero = true;
    l3c.max = 10000000000ull;
    auto& l3w = s.add(decl("l3.psram_bytes_per_clock", value_kind::count, "2",
                           "Bytes the PSRAM pins move per PSRAM clock: 2 for x8 DDR (400 MB/s at 200 MHz), 4 "
                           "for x16 DDR."));
    l3w.nonzero = true;
    l3w.max = 64;
    s.add(decl("l3.psram_latency", value_kind::count, "10",
               "PSRAM clocks of each transaction before its data: command and address (3 clocks x8 DDR) "
               "plus the initial read latency (latency code 7 at 200 MHz; APS256XXN)."))
        .max = 100000;
    auto& l3p = s.add(decl("l3.page_size", value_kind::size, "2KiB",
                           "PSRAM page (row) size: a burst crossing a page boundary is re-issued as a new "
                           "transaction (APS256XXN x8: 2048 bytes)."));
    l3p.nonzero = true;
    l3p.power_of_two = true;
    l3p.max = 1ull << 20;

    // --- peripherals ----------------------------------------------------------
    // Each register block is a region of its own, so the map, visibility and
    // reports name it (an access to a DMA register the cores may not touch
    // reads "dma_ctrl", not "periph + 0x2004").
    struct periph_decl {
        const char* name;
        const char* base;
        const char* latency;
        const char* what;
    };
    const periph_decl periphs[] = {
        {"soc_periph", "0x1A100000", "10", "SoC peripherals (UART, simulation control, cycle counter, trace markers)"},
        {"cluster_periph", "0x10200000", "2", "cluster control (worker boot and wake-up)"},
        {"event_unit", "0x10201000", "2", "event unit (events, hardware barrier, fork/join dispatch)"},
        {"dma_ctrl", "0x10202000", "2", "DMA engine registers"},
        {"sa_ctrl", "0x10203000", "2", "systolic array registers"},
    };
    for (const auto& p : periphs) {
        const std::string n = p.name;
        s.add(decl(n + ".base", value_kind::address, p.base, std::string("Base of the ") + p.what + "."));
        auto& sz =
            s.add(decl(n + ".size", value_kind::size, "4KiB", std::string("Size of the ") + p.what + " window."));
        sz.nonzero = true;
        sz.max = 1ull << 20;
        s.add(decl(n + ".latency", value_kind::cycles, p.latency,
                   std::string("Register access latency of the ") + p.what + " in cycles."))
            .max = 100000;
    }

    // --- DMA engine (models/dma) -------------------------------------------------
    auto& dch = s.add(decl("dma.channels", value_kind::count, "8",
                           "DMA channels = transfer ids that can be outstanding at once (each its own "
                           "master, progressing concurrently). A push with all of them busy waits."));
    dch.nonzero = true;
    dch.max = 32;
    auto& dbs = s.add(decl("dma.burst_size", value_kind::size, "256B",
                           "Largest DMA burst: each row is moved in bursts of at most this many bytes "
                           "(one read + one write b_transport each)."));
    dbs.nonzero = true;
    dbs.max = 65536;
    s.add(decl("dma.burst_latency", value_kind::cycles, "4",
               "DMA cycles between issuing one burst's read and the next (per-burst overhead; "
               "with dma.outstanding > 1 it overlaps the bursts in flight, on top of the memories' "
               "own latency, bandwidth and port contention)."))
        .max = 100000;
    s.add(decl("dma.bandwidth", value_kind::size, "0",
               "Bytes per cycle one DMA channel moves at most: each burst's read takes at least "
               "ceil(bytes / this) cycles. 0: limited only by the memories' ports (`<region>.bandwidth`)."))
        .max = 4096;
    auto& dl1 = s.add(decl("dma.l1_width", value_kind::size, "8B",
                           "Bytes per cycle a DMA channel's L1 side moves (its port into the banked L1: "
                           "width / l1.bank_width banks per cycle). 8B: DORY's GAP9 cluster DMA, 8 B/cycle "
                           "L2 <-> L1. Must be a multiple of l1.bank_width (whole bank words per cycle) or a "
                           "divisor of it (whole parts of one)."));
    dl1.nonzero = true;
    dl1.max = 4096;
    auto& dout = s.add(decl("dma.outstanding", value_kind::count, "4",
                            "Bursts one DMA channel holds at once (reads in flight, data buffered, writes in "
                            "flight): the next read is issued while earlier bursts are still moving, so "
                            "bursts, rows and planes pipeline. 1: one burst at a time."));
    dout.nonzero = true;
    dout.max = 64;
    s.add(decl("dma.startup_latency", value_kind::cycles, "8",
               "Cycles from a push to the transfer's first read (descriptor decode and command "
               "queue): the fixed cost of every transfer."))
        .max = 100000;
    s.add(decl("dma.allow_l3_l1", value_kind::boolean, "false",
               "Whether the DMA may copy between L3 and L1 directly. false (GAP9-like): such a "
               "transfer is refused at push time with an error; stage it through L2."));
    auto& doe = s.add(decl("dma.on_error", value_kind::choice, "stop",
                           "A DMA error (error response, refused push): `stop` the run with a bus-error "
                           "report naming the descriptor and who programmed it, or `report` (log it, "
                           "set the error status and event; the firmware handles it)."));
    doe.choices = {"stop", "report"};

    // --- systolic array (models/accel, docs/sa.md) -------------------------------
    auto& sar = s.add(
        decl("sa.rows", value_kind::count, "16", "Rows R of the systolic array: the K extent of one weight tile."));
    sar.nonzero = true;
    sar.max = 256;
    auto& sac = s.add(
        decl("sa.cols", value_kind::count, "16", "Columns C of the systolic array: the N extent of one weight tile."));
    sac.nonzero = true;
    sac.max = 256;
    s.add(decl("sa.setup_latency", value_kind::cycles, "8",
               "Cycles from START to the first weight tile (register decode, sequencer start)."))
        .max = 100000;
    auto& sabw = s.add(decl("sa.l1_bandwidth", value_kind::size, "64B",
                            "Bytes per cycle the systolic array's L1 port moves (operands in, results out); "
                            "a weight tile takes max(compute, bytes / this) cycles. 64B = 16 banks x 4 B. A "
                            "multiple or divisor of l1.bank_width; above l1.banks x l1.bank_width the port moves that much "
                            "(one word per bank per cycle; a warning says so)."));
    sabw.nonzero = true;
    sabw.max = 4096;
    auto& sawb = s.add(decl("sa.weight_buffers", value_kind::count, "1",
                            "Weight registers per PE of the systolic array: 1, every weight tile pays its "
                            "fill, skew and drain (as SCALE-Sim's weight-stationary model and the RTL array); "
                            "2, the next tile's weights load while the current one streams (docs/sa.md). "
                            "sa.model=rtl and compare need 1."));
    sawb.min = 1;
    sawb.max = 2;
    s.add(decl("sa.stop_on_error", value_kind::boolean, "true",
               "A bus error of the systolic array (operand outside its view, e.g. in L2 or at NULL) stops "
               "the run with a report of the job. false: the job aborts with STATUS.ERROR and the error "
               "event only, for firmware that handles the fault."));
    auto& sam = s.add(decl("sa.model", value_kind::choice, "tlm",
                           "Model of the systolic array's engine behind its register window "
                           "(platform/blocks.cpp builds it): `tlm`, the loosely-timed engine of "
                           "docs/sa.md (results and cycle model at START); `rtl`, the SystemVerilog "
                           "array of rtl/sa Verilated and stepped in lock-step at the cluster clock "
                           "(docs/cosim.md; needs a build with NPU_RTL=ON); `compare`, both on every "
                           "job, stopping the run (exit 6) at the first job whose results, cycles or "
                           "fault differ."));
    sam.choices = {"tlm", "rtl", "compare"};
    s.add(decl("sa.rtl_trace", value_kind::text, "",
               "With sa.model=rtl or compare: write the RTL array's signals to this waveform file, FST or VCD "
               "by its extension (npusim --rtl-trace FILE.fst|FILE.vcd); empty: no waveform."));

    // --- interconnect -----------------------------------------------------------
    s.add(decl("interconnect.hop_latency", value_kind::cycles, "1",
               "Cycles the router adds to every transaction it forwards."))
        .max = 100000;
    s.add(decl("visibility.core", value_kind::name_list, "l1,l2,soc_periph,cluster_periph,event_unit,dma_ctrl,sa_ctrl",
               "Regions the cores can address. Anything else is an address error for them."));
    s.add(decl("visibility.dma", value_kind::name_list, "l1,l2,l3,soc_periph",
               "Regions the DMA engine's masters can address."));
    s.add(decl("visibility.sa", value_kind::name_list, "l1", "Regions the systolic array's master can address."));
    s.add(decl("visibility.loader", value_kind::name_list, "l1,l2,l3",
               "Regions the ELF loader may write segments into."));
    s.add(decl("alias.enable", value_kind::boolean, "false",
               "Alias window on: reproduces silicon that mirrors a memory at a low address (PULP "
               "aliases L1 at 0 for the cluster cores), so a NULL-based access reaches memory "
               "instead of faulting. Off = strict: NULL is unmapped."));
    s.add(decl("alias.base", value_kind::address, "0x0", "Base address of the alias window."));
    s.add(decl("alias.target", value_kind::text, "l1", "Region the alias window mirrors (from its start)."));
    s.add(decl("alias.size", value_kind::size, "0", "Size of the alias window; 0 means the whole target region.")).max =
        1ull << 32;
    s.add(decl("alias.initiators", value_kind::name_list, "core",
               "Initiator classes that see the alias window (core, dma, sa)."));

    // --- firmware layout (read by the linker-script generator) --------------------
    auto& ss =
        s.add(decl("firmware.stack_size", value_kind::size, "2KiB", "Stack of each hart, placed at the top of L1."));
    ss.nonzero = true;
    ss.max = 16ull << 20;
    s.add(decl("firmware.code_region", value_kind::text, "l2", "Region holding .text, .rodata, .data and .bss."));

    // --- energy (platform/energy.cpp, docs/architects.md) --------------------------
    // Per-event energies in femtojoules. Defaults: the 45 nm figures of M.
    // Horowitz, "Computing's energy problem", ISSCC 2014 (0.9 V): an
    // instruction's overhead ~70 pJ, 8-bit multiply 0.2 pJ + 32-bit add
    // 0.1 pJ, fp32 multiply 3.7 pJ + add 0.9 pJ, 64-bit SRAM read 10 pJ
    // (8 KiB array), 100 pJ (1 MiB), DRAM 1.3-2.6 nJ per 64 bits. A 22 nm
    // chip at 0.8 V spends several times less: set these from your process.
    struct energy_decl {
        const char* key;
        const char* def;
        const char* what;
    };
    static const energy_decl energies[] = {
        {"energy.core_active_cycle", "70000",
         "fJ a core spends per cycle it executes (instruction fetch, decode, register file, ALU; Horowitz 2014: "
         "~70 pJ per instruction at 45 nm)."},
        {"energy.core_sleep_cycle", "0",
         "fJ a core spends per cycle it sleeps or is parked (clock-gated; its leakage is in energy.leakage_power)."},
        {"energy.l1_read_byte", "1250", "fJ per byte read from L1 (Horowitz 2014: 10 pJ per 64 bits, 8 KiB SRAM bank)."},
        {"energy.l1_write_byte", "1250", "fJ per byte written to L1."},
        {"energy.l2_read_byte", "12500", "fJ per byte read from L2 (Horowitz 2014: 100 pJ per 64 bits, 1 MiB SRAM)."},
        {"energy.l2_write_byte", "12500", "fJ per byte written to L2."},
        {"energy.l3_read_byte", "250000",
         "fJ per byte read from L3 (Horowitz 2014: DRAM 1.3-2.6 nJ per 64 bits; 2 nJ taken)."},
        {"energy.l3_write_byte", "250000", "fJ per byte written to L3."},
        {"energy.sa_mac_int8", "300",
         "fJ per int8 multiply-accumulate in the systolic array (Horowitz 2014: 8-bit multiply 0.2 pJ + 32-bit add "
         "0.1 pJ)."},
        {"energy.sa_mac_f32", "4600",
         "fJ per fp32 multiply-accumulate in the systolic array (Horowitz 2014: fp32 multiply 3.7 pJ + add 0.9 pJ)."},
        {"energy.dma_byte", "0",
         "fJ the DMA engine's own datapath spends per byte moved; the memories' reads and writes are charged at "
         "the levels."},
        {"energy.leakage_power", "0", "Static power of the cluster and SoC in microwatts, charged over the run."},
        // Per instruction class, on top of energy.core_active_cycle (which
        // covers fetch, decode and the register file): the operation itself.
        {"energy.insn_alu", "100",
         "fJ an ALU instruction's operation adds to its cycles' energy (Horowitz 2014: 32-bit add 0.1 pJ)."},
        {"energy.insn_mul", "3100", "fJ per MUL/MULH* (Horowitz 2014: 32-bit multiply 3.1 pJ)."},
        {"energy.insn_div", "3200",
         "fJ per DIV/REM (Horowitz 2014 gives no divider: 32 iterations of a 32-bit add/subtract, 32 x 0.1 pJ)."},
        {"energy.insn_branch", "100", "fJ per conditional branch (the compare: Horowitz 2014, 32-bit add 0.1 pJ)."},
        {"energy.insn_jump", "100", "fJ per JAL/JALR (the target add: Horowitz 2014, 32-bit add 0.1 pJ)."},
        {"energy.insn_load", "100",
         "fJ per load (the address add, Horowitz 2014 0.1 pJ; the bytes read are charged at their memory level)."},
        {"energy.insn_store", "100",
         "fJ per store (the address add, Horowitz 2014 0.1 pJ; the bytes written are charged at their memory "
         "level)."},
        {"energy.insn_fpu", "4600",
         "fJ per FPU instruction other than divide/square root (Horowitz 2014: fp32 multiply 3.7 pJ + add 0.9 pJ, "
         "a fused multiply-add)."},
        {"energy.insn_fdiv", "21600",
         "fJ per FDIV/FSQRT (Horowitz 2014 gives no divider: 24 iterations of an fp32 add, 24 x 0.9 pJ)."},
        {"energy.insn_amo", "100",
         "fJ per atomic (the address add, Horowitz 2014 0.1 pJ; its read and write are charged at the memory "
         "level)."},
    };
    for (const auto& e : energies) s.add(decl(e.key, value_kind::count, e.def, e.what)).max = 1000000000000ull;
    // Idle and leakage per block: no published figure for this SoC's blocks
    // to cite, so 0 (set them from your own characterisation).
    static const energy_decl idle[] = {
        {"energy.l1_bank_access", "0",
         "fJ per access of one L1 bank, on top of energy.l1_read_byte/l1_write_byte (for a per-access SRAM model set "
         "those to 0): one per core load or store, one per l1.bank_width bytes of a DMA or SA burst."},
        {"energy.sa_idle_cycle", "0",
         "fJ the systolic array spends per cycle it is not busy (its clock tree when not gated)."},
        {"energy.dma_idle_cycle", "0", "fJ the DMA engine spends per cycle it is not busy."},
        {"energy.core_leakage_power", "0", "Static power of each core in microwatts, charged over the run."},
        {"energy.l1_leakage_power", "0", "Static power of L1 in microwatts, charged over the run."},
        {"energy.l2_leakage_power", "0", "Static power of L2 in microwatts, charged over the run."},
        {"energy.l3_leakage_power", "0", "Static power of L3 in microwatts, charged over the run."},
        {"energy.sa_leakage_power", "0", "Static power of the systolic array in microwatts, charged over the run."},
        {"energy.dma_leakage_power", "0", "Static power of the DMA engine in microwatts, charged over the run."},
    };
    for (const auto& e : idle) s.add(decl(e.key, value_kind::count, e.def, e.what)).max = 1000000000000ull;
    // The voltage/frequency point: the energies above are at
    // energy.reference_voltage (Horowitz's 45 nm figures: 0.9 V); the
    // frequency is soc.cluster_clock (leakage power is charged over the
    // run's time at that clock).
    auto& ev = s.add(decl("energy.voltage", value_kind::count, "900",
                          "Supply voltage of the run in mV. Dynamic energies (every per-event energy.* key) scale with "
                          "(voltage / reference_voltage)^2, leakage power with voltage / reference_voltage (first "
                          "order); the frequency point is soc.cluster_clock."));
    ev.min = 100;
    ev.max = 5000;
    auto& er = s.add(decl("energy.reference_voltage", value_kind::count, "900",
                          "Voltage in mV at which the per-event energy.* figures and energy.leakage_power hold (the "
                          "defaults: Horowitz 2014, 45 nm at 0.9 V)."));
    er.min = 100;
    er.max = 5000;

    // Keys a compiled firmware does not depend on: timing (latencies,
    // bandwidths, costs per instruction, the clock and the decoupling
    // quantum), energies, host storage, which model simulates a block, and how a run is
    // watched. The firmware's addresses, sizes and counts come from the
    // others. npuc's tile choice may read timing keys for its cost model, but
    // the firmware it makes is correct at any value of them, which is what
    // lets an architect sweep timing on one compiled network.
    auto ends_with = [](const std::string& k, const char* suffix) {
        const std::size_t n = std::char_traits<char>::length(suffix);
        return k.size() >= n && k.compare(k.size() - n, n, suffix) == 0;
    };
    for (const auto& d : s.keys()) {
        const std::string& k = d.key;
        // Every *latency and *bandwidth key (l2.latency, dma.burst_latency,
        // sa.l1_bandwidth, ...), the instruction costs, and the rest by name.
        const bool timing = ends_with(k, "latency") || ends_with(k, "bandwidth") || k.rfind("core.cpi_", 0) == 0 ||
                            k == "core.l1_bank_conflict_penalty" || k == "core.contended_batch" ||
                            k == "core.sparse_contended_batch" || k == "soc.cluster_clock" || k == "soc.quantum" ||
                            k == "dma.burst_size" || k == "dma.l1_width" || k == "dma.outstanding" ||
                            k == "cluster.l2_outstanding" || k.rfind("icache.", 0) == 0 ||
                            k.rfind("l3.psram_", 0) == 0 || k == "l3.page_size" || k == "l3.interface" ||
                            k == "sa.weight_buffers";
        const bool host = ends_with(k, ".storage") || ends_with(k, ".model") || k.rfind("energy.", 0) == 0;
        const bool watch = k == "soc.max_cycles" || k == "soc.memcheck" || k == "soc.on_bus_error" || k == "sa.rtl_trace";
        if (timing || host || watch) s.exclude_from_fingerprint(k);
    }
    return s;
}

}  // namespace

// Checks between keys that no model may find first: each was a model
// constructor's, so --fingerprint, --dump-config, --print-map, npuc and
// ./npu sweep's up-front check let such a config through and only a run
// refused it. memory_map::build checks the map's own (regions, visibility,
// alias).
static void check_platform(const config& c) {
    // The icache holds whole sets: icache.size / (ways x line) of them.
    const std::uint64_t set = c.count("icache.ways") * c.size("icache.line_bytes");
    if (set > c.size("icache.size"))
        c.fail(blame(c, {"icache.size", "icache.ways", "icache.line_bytes"}),
               "icache.size (" + format_size(c.size("icache.size")) +
                   ") holds less than one set of icache.ways x icache.line_bytes (" +
                   std::to_string(c.count("icache.ways")) + " x " + format_size(c.size("icache.line_bytes")) +
                   " = " + format_size(set) + ")");
    // The DMA's L1 side moves whole bank words, width / bank_width per cycle,
    // or (narrower than a bank) whole parts of one: 5 B beats over 4 B banks
    // straddle words and time the two directions differently.
    const std::uint64_t dw = c.size("dma.l1_width"), bw = c.size("l1.bank_width");
    if (dw % bw != 0 && bw % dw != 0)
        c.fail(blame(c, {"dma.l1_width", "l1.bank_width"}),
               "dma.l1_width (" + format_size(dw) + ") is neither a multiple nor a divisor of l1.bank_width (" +
                   format_size(bw) + "): the DMA's L1 port must move whole bank words (or whole parts of one)");
    // The SA's port books whole bank words per cycle (sa_port_booking) while
    // its closed form divides bytes by the width: they agree on multiples.
    const std::uint64_t sw = c.size("sa.l1_bandwidth");
    if (sw % bw != 0 && bw % sw != 0)
        c.fail(blame(c, {"sa.l1_bandwidth", "l1.bank_width"}),
               "sa.l1_bandwidth (" + format_size(sw) + ") is neither a multiple nor a divisor of l1.bank_width (" +
                   format_size(bw) + "): the array's L1 port must move whole bank words (or whole parts of one)");
    // The RTL array (sa.model rtl or compare) is fixed at Verilation.
    const std::string& model = c.choice("sa.model");
    if (model != "tlm") {
        if (c.count("sa.weight_buffers") != 1)
            c.fail(blame(c, {"sa.weight_buffers", "sa.model"}),
                   "sa.model=" + model + " needs sa.weight_buffers=1 (the RTL array has one weight register per PE; "
                   "sa.weight_buffers=" + std::to_string(c.count("sa.weight_buffers")) +
                   " is the TLM engine's only)");
        if (c.cycles("sa.setup_latency") > 0xFFFF)
            c.fail(blame(c, {"sa.setup_latency", "sa.model"}),
                   "sa.model=" + model + ": sa.setup_latency " + std::to_string(c.cycles("sa.setup_latency")) +
                       " is not below 65536 (the RTL array takes it in 16 bits)");
    } else if (!c.text("sa.rtl_trace").empty()) {
        // A waveform asked for with no RTL to trace would be silently missing.
        c.fail(blame(c, {"sa.rtl_trace", "sa.model"}),
               "--rtl-trace " + c.text("sa.rtl_trace") +
                   ": only the RTL array has a waveform (use --sa.model=rtl or compare)");
    }
}

const schema& platform_schema() {
    static const schema s = [] {
        schema p = make_platform_schema();
        p.set_cross_check(check_platform);
        return p;
    }();
    return s;
}

}  // namespace npu::cfg
