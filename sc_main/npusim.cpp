// npusim: build the SoC from a config, load a firmware ELF, run it, report.
//
// Exit codes (base::exit_code): 0 success, 1 firmware exit != 0, 2 bad input,
// 3 bus error, 4 memcheck error, 5 watchdog/deadlock, 6 golden mismatch,
// 7 unhandled trap, 8 a declared self-check compared nothing, 9 killed from
// the debugger (--gdb), 70 internal error.
//
// --manifest OUT/manifest.json (written by npuc) runs the network's firmware
// on the config it was compiled for and compares every output with
// golden.bin (platform/golden.h): a mismatch, or comparing nothing, is 6.
#include "elf_image.h"
#include "fault_context.h"
#include "gdb_stub.h"
#include "itrace.h"
#include "timeline.h"
#include "vcd_trace.h"
#include "golden.h"
#include "report.h"
#include "soc.h"

#include "base/log.h"
#include "cpu/core.h"
#include "base/sim_services.h"
#include "config/config.h"
#include "config/memory_map.h"

#include <boost/program_options.hpp>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <systemc>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <filesystem>
#include <iostream>

namespace po = boost::program_options;
using npu::base::exit_code;

namespace {

// SystemC prints its banner when the kernel is first touched, before
// sc_main runs; stdout belongs to the firmware's UART.
const bool banner_off = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

int code(exit_code c) { return static_cast<int>(c); }

int bad_input(const std::string& msg) {
    // Control characters from the input (a NUL in a manifest's path, an
    // escape sequence) are shown as \xNN, not cut at or sent to the
    // terminal. fwrite, not fmt::print: a stderr that cannot be written (a
    // full disk) must not turn the error into an exception.
    std::string text = "npusim: error: ";
    for (unsigned char ch : msg) {
        if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f) {
            char esc[5];
            std::snprintf(esc, sizeof esc, "\\x%02x", ch);
            text += esc;
        } else {
            text += static_cast<char>(ch);
        }
    }
    text += '\n';
    std::fwrite(text.data(), 1, text.size(), stderr);
    return code(exit_code::bad_input);
}

// Keys left out of the config fingerprint (run control, timing, host
// storage, the simulating model: schema.cpp) combine with a manifest's
// config instead of replacing it.
bool watch_key(const std::string& override_text) {
    const npu::cfg::key_decl* d = npu::cfg::platform_schema().find(override_text.substr(0, override_text.find('=')));
    return d && !d->fingerprinted;
}

std::string with_overrides(const std::string& file, const std::vector<std::string>& overrides) {
    std::string s = file.empty() ? "the built-in defaults" : file;
    for (const auto& o : overrides) s += " --" + o;
    return s;
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ea, eb;
    const auto ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
    if (ea || eb) return std::filesystem::path(a).lexically_normal() == std::filesystem::path(b).lexically_normal();
    return ca == cb;
}

// Writes `text` to `path`; "" or why it failed (the write, or the close
// that flushes it: a full disk shows there).
std::string write_text_file(const std::string& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return std::strerror(errno);
    const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const int write_errno = errno;
    if (std::fclose(f) != 0 || !wrote) return std::strerror(wrote ? errno : write_errno);
    return {};
}

// The end of a command that only prints (--help, --print-map, ...): 0, or
// bad input when stdout could not take it (a full disk, a closed pipe).
int printed() {
    std::cout.flush();
    if (std::cout) return 0;
    return bad_input(std::string("cannot write to stdout: ") + std::strerror(errno));
}

// SystemC reports go through our exit codes instead of abort().
void install_report_handler() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_DISPLAY | sc_core::SC_THROW);
    // The "simulation stopped by user" info is our normal way to end.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_STOP_MODE_AFTER_START_, sc_core::SC_DO_NOTHING);
}

// A bus error, memcheck error or unhandled trap of a hart: its registers,
// the code around its PC, its call stack and its last branches (stderr).
void print_fault_context(npu::platform::soc& top, exit_code code, int fault_hart) {
    const npu::cpu::core* hart = nullptr;
    if (code == exit_code::bus_error || code == exit_code::memcheck_error) {
        for (const auto& c : top.cores())
            if (static_cast<int>(c->hart_id()) == fault_hart) hart = c.get();
    } else if (code == exit_code::unhandled_trap) {
        for (const auto& c : top.cores())
            if (c->fault_state() && (!hart || c->fault_serial() > hart->fault_serial())) hart = c.get();
    }
    if (!hart || !hart->fault_state()) return;
    try {
        const npu::platform::disassembler dis;
        const std::string who =
            fmt::format("hart {} ({})", hart->hart_id(), hart->is_cluster_controller() ? "cluster controller" : "worker");
        fmt::print(stderr, "{}",
                   npu::platform::fault_context(who, *hart->fault_state(), top.image(),
                                                [&top](std::uint64_t a, void* d, unsigned n) {
                                                    return top.debug_read(a, d, n);
                                                },
                                                dis));
    } catch (const std::runtime_error& e) {
        fmt::print(stderr, "npusim: no fault context: {}\n", e.what());
    }
}

int run(int argc, char** argv) {
    std::string config_file, elf_path, stats_file, stats_csv_file, log_level = "warn", on_bus_error, memcheck, manifest_file, rtl_trace;
    std::string memcheck_limit_text = "20";
    // Text, not unsigned: Boost reads "-5" into an unsigned as 4294967291.
    std::string gdb_port_text;
    std::string trace_file, vcd_file, itrace_file, itrace_harts, itrace_from;
    std::string max_cycles;
    po::options_description opts("npusim options");
    opts.add_options()("help,h", "show this help")("config", po::value(&config_file),
                                                   "platform config (INI); default: built-in gap9 defaults")(
        "manifest", po::value(&manifest_file),
        "npuc manifest.json: run its firmware on the config it names (unless --config/overrides are given, which "
        "must then have its fingerprint) and compare every output with its golden.bin; exit 6 on a mismatch or "
        "when zero elements were compared")("print-map", "print the memory map per initiator and exit")(
        "config-doc", "print the configuration reference (Markdown) and exit")(
        "dump-config", "print every effective key = value and exit")(
        "fingerprint", "print the effective config's fingerprint (what a compiled manifest must match) and exit")(
        "max-cycles", po::value(&max_cycles), "watchdog in cluster cycles (same as --soc.max_cycles)")(
        "on-bus-error", po::value(&on_bus_error), "stop|trap (same as --soc.on_bus_error)")(
        "memcheck", po::value(&memcheck), "off|warn|error|strict (same as --soc.memcheck)")(
        "memcheck-limit", po::value(&memcheck_limit_text)->default_value("20"),
        "memcheck findings printed and listed (one per initiator, PC and contiguous range); the rest are counted")(
        "rtl-trace", po::value(&rtl_trace), "FST or VCD (by the extension: FILE.fst|FILE.vcd) of the RTL systolic array's signals (same as --sa.rtl_trace)")(
        "stats", po::value(&stats_file), "write the end-of-run report as JSON to this file")(
        "stats-csv", po::value(&stats_csv_file),
        "write the run's figures as one flat CSV row under a header (docs/architects.md)")(
        "trace", po::value(&trace_file),
        "write a timeline of harts, DMA channels, the systolic array, trace-marker regions and memory traffic "
        "as Chrome/Perfetto trace-event JSON to this file (docs/debugging.md)")(
        "vcd", po::value(&vcd_file),
        "write the same activity as VCD signals (hart states, engines busy, trace-marker regions) for GTKWave "
        "(docs/debugging.md)")(
        "itrace", po::value(&itrace_file),
        "write one line per executed instruction to this file: cycle, hart, pc, symbol, disassembly, register "
        "written, memory access (docs/debugging.md)")(
        "itrace-harts", po::value(&itrace_harts), "--itrace only these harts, e.g. 8,0-3 (default: all)")(
        "itrace-from", po::value(&itrace_from),
        "--itrace from this cycle, or from the first time a traced hart reaches this symbol")(
        "gdb", po::value(&gdb_port_text)->implicit_value("1234"),
        "--gdb[=PORT]: wait for gdb-multiarch on 127.0.0.1:PORT (default 1234; 0: a free port, printed) and run "
        "under its control (docs/debugging.md)")(
        "quiet,q", "no end-of-run summary on stderr (errors are still reported)")(
        "log-level", po::value(&log_level), "error|warn|info|debug|trace")("firmware", po::value(&elf_path),
                                                                           "firmware ELF (positional)");
    po::positional_options_description pos;
    pos.add("firmware", 1);

    po::variables_map vm;
    std::vector<std::string> overrides;
    try {
        auto parsed = po::command_line_parser(argc, argv).options(opts).positional(pos).allow_unregistered().run();
        po::store(parsed, vm);
        po::notify(vm);
        // Everything else must be a config override: --section.key=value.
        for (const auto& o : parsed.options) {
            if (!o.unregistered) continue;
            std::string key = o.string_key;
            if (key.find('.') == std::string::npos)
                return bad_input("unknown option '" + (o.original_tokens.empty() ? key : o.original_tokens[0]) +
                                 "' (see --help)");
            if (o.value.empty()) return bad_input("config override --" + key + " needs a value (--" + key + "=VALUE)");
            overrides.push_back(key + "=" + o.value.front());
        }
    } catch (const po::error& e) { return bad_input(e.what()); }
    if (vm.count("help")) {
        std::cout
            << "usage: npusim [--config FILE] [--section.key=VALUE ...] [options] FIRMWARE.elf\n"
               "       npusim --manifest OUT/manifest.json [options]   run npuc's firmware, compare its outputs\n"
               "                                                     with golden.bin (docs/getting-started.md)\n\n"
            << opts << "\nexit codes (what each means: docs/robustness.md):\n";
        using npu::base::exit_code;
        for (exit_code c : {exit_code::success, exit_code::firmware_failure, exit_code::bad_input, exit_code::bus_error,
                            exit_code::memcheck_error, exit_code::watchdog, exit_code::golden_mismatch,
                            exit_code::unhandled_trap, exit_code::self_check_failed, exit_code::debugger_kill,
                            exit_code::internal_error})
            std::cout << fmt::format("  {:>2}  {}\n", static_cast<int>(c), npu::base::exit_code_name(c));
        return printed();
    }
    if (vm.count("config-doc")) {
        std::cout << npu::cfg::platform_schema().markdown();
        return printed();
    }
    // The user's own platform choice, before the run-control keys are added:
    // a config file replaces a manifest's; overrides, of any key, go on top of
    // whichever config the run uses (a fingerprinted one then meets the
    // manifest's fingerprint check, against that config).
    const bool user_config = vm.count("config") != 0;
    std::vector<std::string> user_platform_overrides;
    for (const auto& o : overrides)
        if (!watch_key(o)) user_platform_overrides.push_back(o);

    std::optional<npu::platform::manifest> man;
    if (vm.count("manifest")) {
        try {
            man = npu::platform::manifest::load(manifest_file);
        } catch (const npu::platform::manifest_error& e) { return bad_input(e.what()); }
        if (!user_config) {
            // The manifest's config and overrides; run-control keys still apply.
            config_file = man->config_path;
            overrides.insert(overrides.begin(), man->config_overrides.begin(), man->config_overrides.end());
        }
    }
    // Read as text: Boost reads "-1" into an unsigned as 2^64-1.
    std::size_t memcheck_limit = 0;
    if (memcheck_limit_text.empty() || memcheck_limit_text.size() > 9 ||
        memcheck_limit_text.find_first_not_of("0123456789") != std::string::npos)
        return bad_input("--memcheck-limit: '" + memcheck_limit_text +
                         "' is not a count of findings (0 to 999999999)");
    memcheck_limit = std::stoul(memcheck_limit_text);
    if (vm.count("max-cycles")) {
        // Boost reads "-5" into an unsigned as 2^64-5; the config parser
        // checks the text, with its units and 64-bit range.
        if (max_cycles.find('-') != std::string::npos)
            return bad_input("--max-cycles: '" + max_cycles + "' is negative (a cycle count; 0 = no limit)");
        overrides.push_back("soc.max_cycles=" + max_cycles);
    }
    if (vm.count("on-bus-error")) overrides.push_back("soc.on_bus_error=" + on_bus_error);
    if (vm.count("memcheck")) overrides.push_back("soc.memcheck=" + memcheck);
    if (vm.count("rtl-trace")) overrides.push_back("sa.rtl_trace=" + rtl_trace);

    npu::base::log_level lvl;
    if (!npu::base::parse_log_level(log_level, lvl))
        return bad_input("--log-level: '" + log_level + "' is not one of error, warn, info, debug, trace");

    std::optional<npu::cfg::config> cfg;
    std::optional<npu::cfg::memory_map> map;
    try {
        cfg = npu::cfg::config::load(config_file, overrides);
        map = npu::cfg::memory_map::build(*cfg);
    } catch (const npu::cfg::config_error& e) {
        if (man && !user_config)
            return bad_input(std::string(e.what()) + " (the config named by manifest " + manifest_file +
                             (user_platform_overrides.empty() ? "" : ", with this command line's overrides") + ")");
        return bad_input(e.what());
    }
    if (vm.count("print-map")) {
        std::cout << map->print();
        return printed();
    }
    if (vm.count("dump-config")) {
        std::cout << cfg->dump();
        return printed();
    }
    if (vm.count("fingerprint")) {
        std::cout << npu::platform::format_fingerprint(cfg->fingerprint()) << "\n";
        return printed();
    }
    std::vector<unsigned char> golden;
    if (man) {
        const std::uint64_t fp = cfg->fingerprint();
        if (fp != man->fingerprint) {
            // The run's platform: the config file (--config's, else the
            // manifest's with its overrides), then this command line's.
            std::vector<std::string> run_overrides = user_config ? std::vector<std::string>{} : man->config_overrides;
            run_overrides.insert(run_overrides.end(), user_platform_overrides.begin(), user_platform_overrides.end());
            const std::string used = with_overrides(config_file, run_overrides);
            // npuc spells an override --set key=value.
            std::string recompile = "npuc --config " + (config_file.empty() ? std::string("<config>") : config_file);
            for (const auto& o : run_overrides) recompile += " --set " + o;
            return bad_input(fmt::format(
                "manifest {} was compiled for {} (fingerprint {}); this run uses {} (fingerprint {}){}: recompile "
                "with {} (or ./npu run NET --config ... --key=value)",
                manifest_file, with_overrides(man->config, man->config_overrides), man->config_fingerprint, used,
                npu::platform::format_fingerprint(fp),
                user_config || !user_platform_overrides.empty()
                    ? ""
                    : " — the manifest's own config no longer has its fingerprint (changed since npuc ran?)",
                recompile));
        }
        if (elf_path.empty())
            elf_path = man->firmware_path;
        else if (!same_file(elf_path, man->firmware_path))
            return bad_input("firmware " + elf_path + " is not the firmware of manifest " + manifest_file + " (" +
                             man->firmware_path + "): give the manifest alone, or its own ELF");
        try {
            npu::platform::check_outputs_mapped(*man, *map);
            golden = npu::platform::load_golden(*man);
        } catch (const npu::platform::manifest_error& e) { return bad_input(e.what()); }
    }
    if (elf_path.empty()) return bad_input("no firmware ELF given (usage: npusim [options] FIRMWARE.elf)");

    std::optional<npu::platform::elf_image> image;
    try {
        image = npu::platform::elf_image::load(elf_path);
    } catch (const npu::platform::elf_error& e) { return bad_input(e.what()); }

    install_report_handler();
    npu::platform::soc top("soc", *cfg, lvl);
    npu::platform::report rep(*cfg, top);
    rep.set_memcheck_limit(memcheck_limit);
    if (man) {
        rep.set_layer_macs(man->layer_macs);
        std::map<std::string, std::string> sources;
        for (const auto& c : man->checkpoints)
            if (!c.location.empty()) sources.emplace(c.region, c.location);
        rep.set_layer_sources(std::move(sources));
    }
    // The hart whose access ended the run, for the fault context (-1: none, or not a core).
    int fault_hart = -1;
    {
        auto& svc = top.context().services;
        svc.on_bus_error = [next = svc.on_bus_error, &fault_hart](const npu::base::bus_error_info& e) {
            fault_hart = e.who ? e.who->hart : -1;
            if (next) next(e);
        };
        svc.on_memcheck = [next = svc.on_memcheck, &fault_hart](const npu::base::memcheck_info& m) {
            const bool stop = next ? next(m) : false;
            if (stop) fault_hart = m.who ? m.who->hart : -1;
            return stop;
        };
    }
    try {
        top.load(*image);
    } catch (const npu::platform::elf_error& e) { return bad_input(e.what()); }
    // An ELF linked for another config usually still runs until its first
    // stack access; say why up front.
    for (const auto& m : top.layout_mismatches(*image))
        fmt::print(stderr, "npusim: warning: {}: firmware {} (rebuild it for this config)\n", elf_path, m);
    // Built for extensions the cores lack: its first such instruction traps.
    if (const auto missing = top.isa_mismatch(*image); !missing.empty()) {
        // (`none` reads back as itself: the list is never empty here.)
        fmt::print(stderr,
                   "npusim: warning: {}: built for {}, which uses {} that these cores lack "
                   "(core.isa_extensions = {}): executing one of their instructions raises illegal instruction\n",
                   elf_path, image->arch(), fmt::join(missing, ", "),
                   fmt::join(cfg->names("core.isa_extensions"), ","));
    }
    // Per-layer checkpoints are read when their region ends (their buffers
    // are reused later in the run).
    std::optional<npu::platform::checkpoint_recorder> layers;
    auto debug_reader = [&top](std::uint64_t a, void* d, std::uint64_t n) {
        std::uint64_t done = 0;
        while (done < n) {
            const unsigned chunk = static_cast<unsigned>(std::min<std::uint64_t>(n - done, 1u << 20));
            const unsigned got = top.debug_read(a + done, static_cast<char*>(d) + done, chunk);
            done += got;
            if (got != chunk) break;
        }
        return done;
    };
    // Memcheck's shadow: an output no initiator wrote fails whatever its value.
    const npu::platform::written_reader written = [&top](std::uint64_t a, unsigned char* mask, std::uint64_t n) {
        return top.written_mask(a, mask, n);
    };
    if (man && !man->checkpoints.empty()) {
        layers.emplace(*man, debug_reader);
        layers->track_written(written);
        top.on_region_end([&layers](const std::string& name) { layers->region_ended(name); });
    }
    // Every output file, checked before the run: none may be an input or
    // another output (it would be overwritten, or lose one of the two), and
    // each must be writable (not found out after a long run). Opened for
    // appending, so an existing file is not truncated here.
    {
        std::vector<std::pair<std::string, std::string>> outputs;  // option, path
        for (auto [opt, path] : std::vector<std::pair<std::string, std::string>>{{"--stats", stats_file},
                                                                                 {"--stats-csv", stats_csv_file},
                                                                                 {"--trace", trace_file},
                                                                                 {"--vcd", vcd_file},
                                                                                 {"--itrace", itrace_file},
                                                                                 {"--sa.rtl_trace", cfg->text("sa.rtl_trace")}})
            if (!path.empty()) outputs.emplace_back(std::move(opt), std::move(path));
        std::vector<std::pair<std::string, std::string>> inputs = {{"the firmware ELF", elf_path}};
        if (!config_file.empty()) inputs.emplace_back("the config", config_file);
        if (man) {
            inputs.emplace_back("the manifest", manifest_file);
            inputs.emplace_back("the manifest's golden file", man->golden_path);
        }
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            const auto& [opt, path] = outputs[i];
            for (const auto& [what, in] : inputs)
                if (!in.empty() && same_file(path, in))
                    return bad_input(opt + " " + path + " is " + what + ": the output would overwrite it");
            for (std::size_t j = 0; j < i; ++j)
                if (same_file(path, outputs[j].second))
                    return bad_input(outputs[j].first + " and " + opt + " name the same file " + path +
                                     ": one would overwrite the other");
            std::FILE* f = std::fopen(path.c_str(), "a");
            if (!f) return bad_input("cannot write " + opt + " file '" + path + "': " + std::strerror(errno));
            std::fclose(f);
        }
    }
    std::optional<npu::platform::timeline> timeline;
    if (!trace_file.empty()) {
        timeline.emplace(top);
    }
    std::optional<npu::platform::vcd_trace> vcd;
    std::optional<npu::platform::activity_tee> tee;
    if (!vcd_file.empty()) {
        vcd.emplace(top);
        if (timeline) {
            tee.emplace(*timeline, *vcd);
            top.context().activity = &*tee;
        } else {
            top.context().activity = &*vcd;
        }
    }
    std::optional<npu::platform::itrace> itrace;
    if (itrace_file.empty() && (vm.count("itrace-harts") || vm.count("itrace-from")))
        return bad_input("--itrace-harts and --itrace-from need --itrace FILE");
    if (!itrace_file.empty()) {
        std::vector<bool> harts;
        if (std::string why = npu::platform::itrace::parse_harts(
                itrace_harts, static_cast<unsigned>(top.cores().size()), harts);
            !why.empty())
            return bad_input("--itrace-harts: " + why);
        bool from_pc = false;
        std::uint32_t pc = 0;
        std::uint64_t cycle = 0;
        if (vm.count("itrace-from") && itrace_from.empty())
            return bad_input("--itrace-from: empty (a cycle, or a symbol of the firmware, e.g. main)");
        if (!itrace_from.empty()) {
            char* end = nullptr;
            errno = 0;
            cycle = std::strtoull(itrace_from.c_str(), &end, 0);
            if (itrace_from[0] == '-' || *end || errno) {
                const auto a = image->symbol_address(itrace_from);
                if (!a)
                    return bad_input("--itrace-from: '" + itrace_from + "' is neither a cycle nor a symbol of " +
                                     elf_path);
                from_pc = true;
                pc = *a;
            }
        }
        std::FILE* f = std::fopen(itrace_file.c_str(), "w");
        if (!f) return bad_input("cannot write --itrace file '" + itrace_file + "': " + std::strerror(errno));
        itrace.emplace(top, f, std::move(harts), from_pc, pc, cycle);
    }
    std::optional<npu::platform::gdb_stub> gdb;
    if (vm.count("gdb")) {
        const bool digits = !gdb_port_text.empty() && gdb_port_text.size() <= 5 &&
                            gdb_port_text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::stoul(gdb_port_text) > 65535)
            return bad_input(fmt::format("--gdb: '{}' is not a TCP port (0-65535)", gdb_port_text));
        const auto gdb_port = static_cast<unsigned>(std::stoul(gdb_port_text));
        try {
            gdb.emplace(top, gdb_port);
        } catch (const std::runtime_error& e) { return bad_input(e.what()); }
        gdb->add_monitor("report", "the report so far (cycles, per-core figures, traffic)", [&] {
            npu::platform::run_result now;
            now.reason = "stopped in the debugger";
            now.cycles = static_cast<std::uint64_t>(sc_core::sc_time_stamp() / top.cores().front()->clock_period());
            // Stopped by a fault (a bus error, a memcheck finding, the exit):
            // that is the run's status, and it ended at the fault's time; the
            // harts ran ahead of SystemC time up to there (as finish_run).
            const auto& svc = top.context().services;
            if (svc.stop_requested()) {
                now.code = svc.stop_code();
                now.reason = svc.stop_reason() + " (stopped in the debugger)";
                now.firmware_code = svc.firmware_code();
                if (svc.stopped_while_running())
                    now.cycles = std::max(now.cycles, static_cast<std::uint64_t>(
                                                          svc.stop_time() / top.cores().front()->clock_period()));
            }
            for (const auto& c : top.cores()) now.cycles = std::max(now.cycles, c->state().cycle);
            return rep.summary(top, now);
        });
        gdb->add_monitor("map", "the memory map per initiator", [&] { return map->print(); });
        gdb->add_monitor("memcheck", "memcheck findings so far", [&] {
            std::string out = fmt::format("{} memcheck finding(s)\n", rep.memcheck_findings());
            for (const auto& f : rep.memcheck_list()) out += f + (f.empty() || f.back() != '\n' ? "\n" : "");
            return out;
        });
        gdb->set_fault_report([&](const std::string& reason) -> std::string {
            if (reason.rfind("bus error", 0) == 0 && !rep.bus_errors().empty()) return rep.bus_errors().back();
            if (reason.rfind("memcheck", 0) == 0 && !rep.memcheck_list().empty()) return rep.memcheck_list().back();
            return {};
        });
        fmt::print(stderr, "npusim: waiting for gdb on 127.0.0.1:{} (gdb: target remote :{})\n", gdb->port(),
                   gdb->port());
        std::fflush(stderr);
        gdb->accept();
    }
    auto result = top.run();
    if (itrace) {
        const std::string why = itrace->close();  // flushes the trace
        itrace.reset();
        if (!why.empty()) return bad_input("cannot write --itrace file '" + itrace_file + "': " + why);
    }
    if (vcd) {
        top.context().activity = nullptr;  // the run is over: nothing reports any more
        if (std::string why = vcd->write(vcd_file, result.cycles); !why.empty())
            return bad_input("cannot write --vcd file '" + vcd_file + "': " + why);
    }
    if (timeline)
        if (std::string why = timeline->write(trace_file, result.cycles); !why.empty())
            return bad_input("cannot write --trace file '" + trace_file + "': " + why);
    // A declared self-check that compared nothing fails a run that passed.
    if (result.code == exit_code::success)
        if (std::string why = npu::platform::report::self_check_failure(top); !why.empty()) {
            result.code = exit_code::self_check_failed;
            result.reason = why;
        }

    // Golden comparison: only a run that ended cleanly has outputs worth reading.
    std::string golden_block;
    if (man) {
        const std::string title = fmt::format("\n=== golden comparison: {} ({}) ===\n",
                                              man->network.empty() ? "network" : man->network, manifest_file);
        if (result.code == exit_code::success) {
            npu::platform::comparison cmp;
            try {
                cmp = npu::platform::compare_outputs(*man, golden, debug_reader, layers ? &*layers : nullptr, &written);
            } catch (const npu::platform::manifest_error& e) { return bad_input(e.what()); }
            if (!cmp.passed()) {
                result.code = exit_code::golden_mismatch;
                result.reason = "golden mismatch: " + cmp.failure;
            }
            rep.set_golden_json(cmp.json());
            golden_block = title + cmp.text();
        } else {
            const std::string why = fmt::format("the run ended with {} (exit code {})",
                                                npu::base::exit_code_name(result.code), code(result.code));
            golden_block = title + "npusim: outputs not compared: " + why + "\n";
            rep.set_golden_json(fmt::format("{{\"compared_outputs\": false, \"reason\": \"{}\"}}", why));
        }
    }

    if (result.code != exit_code::success && result.code != exit_code::bus_error)
        fmt::print(stderr, "npusim: {}\n", result.reason);
    print_fault_context(top, result.code, fault_hart);
    if (!vm.count("quiet")) fmt::print(stderr, "{}", rep.summary(top, result));
    // The comparison is the answer to what was asked: printed even with -q.
    if (!golden_block.empty()) fmt::print(stderr, "{}", golden_block);
    if (!stats_file.empty())
        if (std::string why = write_text_file(stats_file, rep.json(top, result)); !why.empty())
            return bad_input("cannot write --stats file '" + stats_file + "': " + why);
    if (!stats_csv_file.empty())
        if (std::string why = write_text_file(stats_csv_file, rep.csv(top, result)); !why.empty())
            return bad_input("cannot write --stats-csv file '" + stats_csv_file + "': " + why);
    // The firmware's output (the UART) went to stdout: a write that failed
    // there (a full disk, a closed pipe) lost it.
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        return bad_input(std::string("cannot write the firmware's output (stdout): ") + std::strerror(errno));
    if (gdb) {
        const bool fault = result.code != exit_code::success && result.code != exit_code::firmware_failure &&
                           result.code != exit_code::debugger_kill;
        gdb->finished(code(result.code), fault ? result.reason : std::string());
    }
    return code(result.code);
}

}  // namespace

int sc_main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const npu::cfg::config_error& e) {
        return bad_input(e.what());
    } catch (const npu::platform::elf_error& e) {
        return bad_input(e.what());
    } catch (const npu::platform::manifest_error& e) { return bad_input(e.what()); } catch (const std::system_error& e) {
        // fmt::print on a stream that cannot be written (stderr or stdout on
        // a full disk): the output given to npusim is unusable, not npusim.
        if (std::string(e.what()).find("cannot write to file") != std::string::npos)
            return bad_input(std::string("cannot write the report (stdout/stderr): ") + e.what());
        std::fprintf(stderr, "npusim: internal error: %s\n", e.what());
        return code(exit_code::internal_error);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "npusim: internal error: %s\n", e.what());
        return code(exit_code::internal_error);
    }
}
