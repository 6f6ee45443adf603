// npusim: build the SoC from a config, load a firmware ELF, run it, report.
//
// Exit codes (base::exit_code): 0 success, 1 firmware exit != 0, 2 bad input,
// 3 bus error, 4 memcheck error, 5 watchdog/deadlock, 6 golden mismatch,
// 7 unhandled trap, 70 internal error.
#include "elf_image.h"
#include "report.h"
#include "soc.h"

#include "base/log.h"
#include "base/sim_services.h"
#include "config/config.h"
#include "config/memory_map.h"

#include <boost/program_options.hpp>
#include <fmt/core.h>

#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

namespace po = boost::program_options;
using npu::base::exit_code;

namespace {

// SystemC prints its banner when the kernel is first touched, before
// sc_main runs; stdout belongs to the firmware's UART.
const bool banner_off = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

int code(exit_code c) { return static_cast<int>(c); }

int bad_input(const std::string& msg) {
    fmt::print(stderr, "npusim: error: {}\n", msg);
    return code(exit_code::bad_input);
}

// SystemC reports go through our exit codes instead of abort().
void install_report_handler() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_DISPLAY | sc_core::SC_THROW);
    // The "simulation stopped by user" info is our normal way to end.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_STOP_MODE_AFTER_START_, sc_core::SC_DO_NOTHING);
}

int run(int argc, char** argv) {
    std::string config_file, elf_path, stats_file, log_level = "warn", on_bus_error, memcheck;
    std::uint64_t max_cycles = 0;
    po::options_description opts("npusim options");
    opts.add_options()
        ("help,h", "show this help")
        ("config", po::value(&config_file), "platform config (INI); default: built-in gap9 defaults")
        ("print-map", "print the memory map per initiator and exit")
        ("config-doc", "print the configuration reference (Markdown) and exit")
        ("dump-config", "print every effective key = value and exit")
        ("max-cycles", po::value(&max_cycles), "watchdog in cluster cycles (same as --soc.max_cycles)")
        ("on-bus-error", po::value(&on_bus_error), "stop|trap (same as --soc.on_bus_error)")
        ("memcheck", po::value(&memcheck), "off|warn|error (same as --soc.memcheck)")
        ("stats", po::value(&stats_file), "write the end-of-run report as JSON to this file")
        ("quiet,q", "no end-of-run summary on stderr (errors are still reported)")
        ("log-level", po::value(&log_level), "error|warn|info|debug|trace")
        ("firmware", po::value(&elf_path), "firmware ELF (positional)");
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
    } catch (const po::error& e) {
        return bad_input(e.what());
    }
    if (vm.count("help")) {
        std::cout << "usage: npusim [--config FILE] [--section.key=VALUE ...] [options] FIRMWARE.elf\n\n" << opts;
        return 0;
    }
    if (vm.count("config-doc")) {
        std::cout << npu::cfg::platform_schema().markdown();
        return 0;
    }
    if (vm.count("max-cycles")) overrides.push_back("soc.max_cycles=" + std::to_string(max_cycles));
    if (vm.count("on-bus-error")) overrides.push_back("soc.on_bus_error=" + on_bus_error);
    if (vm.count("memcheck")) overrides.push_back("soc.memcheck=" + memcheck);

    npu::base::log_level lvl;
    if (!npu::base::parse_log_level(log_level, lvl)) return bad_input("--log-level: '" + log_level + "' is not one of error, warn, info, debug, trace");
    npu::base::set_global_log_level(lvl);

    std::optional<npu::cfg::config> cfg;
    std::optional<npu::cfg::memory_map> map;
    try {
        cfg = npu::cfg::config::load(config_file, overrides);
        map = npu::cfg::memory_map::build(*cfg);
    } catch (const npu::cfg::config_error& e) {
        return bad_input(e.what());
    }
    if (vm.count("print-map")) {
        std::cout << map->print();
        return 0;
    }
    if (vm.count("dump-config")) {
        std::cout << cfg->dump();
        return 0;
    }
    if (elf_path.empty()) return bad_input("no firmware ELF given (usage: npusim [options] FIRMWARE.elf)");

    std::optional<npu::platform::elf_image> image;
    try {
        image = npu::platform::elf_image::load(elf_path);
    } catch (const npu::platform::elf_error& e) {
        return bad_input(e.what());
    }

    install_report_handler();
    npu::platform::report rep(*cfg);
    npu::platform::soc top("soc", *cfg);
    try {
        top.load(*image);
    } catch (const npu::platform::elf_error& e) {
        return bad_input(e.what());
    }
    // An ELF linked for another config usually still runs until its first
    // stack access; say why up front.
    for (const auto& m : top.layout_mismatches(*image))
        fmt::print(stderr, "npusim: warning: {}: firmware {} (rebuild it for this config)\n", elf_path, m);
    const auto result = top.run();

    if (result.code != exit_code::success && result.code != exit_code::bus_error)
        fmt::print(stderr, "npusim: {}\n", result.reason);
    if (!vm.count("quiet")) fmt::print(stderr, "{}", rep.summary(top, result));
    if (!stats_file.empty()) {
        std::ofstream out(stats_file);
        if (!out) return bad_input("cannot write --stats file '" + stats_file + "'");
        out << rep.json(top, result);
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
    } catch (const std::exception& e) {
        fmt::print(stderr, "npusim: internal error: {}\n", e.what());
        return code(exit_code::internal_error);
    }
}
