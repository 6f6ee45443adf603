// Two SoCs in one process: different names, configs and firmware, elaborated
// side by side in one SystemC kernel and run together. Each must produce
// exactly what npusim gives for it alone (exit code, UART output, cycles):
// nothing of one SoC (stop requests, statistics, traffic ids, LR/SC
// reservations, L1 bank stamps, quantum) leaks into the other.
#include "soc.h"

#include "periph/soc_periph.h"
#include "util/temp_path.h"

#include <gtest/gtest.h>
#include <llvm/Support/JSON.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace npu;

namespace {

struct spec {
    const char* name;
    std::string elf;
    std::vector<std::string> overrides;  // on configs/gap9.cfg
};

// The same firmware as a DMA + SA pipeline with weights in L3 and a
// fork/join matmul on every worker; the second SoC's L2 is slower.
const std::vector<spec> specs = {
    {"soc_a", NPU_TILED_MATMUL_ELF, {}},
    {"soc_b", NPU_MATMUL_ELF, {"l2.latency=20", "core.l1_bank_conflict_penalty=2"}},
};

struct single_run {
    int exit_code = -1;
    std::uint64_t cycles = 0;
    std::string stdout_text;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// npusim alone on one SoC: the reference.
single_run run_npusim(const spec& s) {
    const std::string json_path = npu::test::temp_path(std::string(s.name) + ".json"), out_path = npu::test::temp_path(std::string(s.name) + ".out"),
                      err_path = npu::test::temp_path(std::string(s.name) + ".err");
    std::string cmd = std::string(NPUSIM) + " --quiet --config " + NPU_GAP9_CFG + " --stats " + json_path;
    for (const auto& o : s.overrides) cmd += " --" + o;
    cmd += " " + s.elf + " > " + out_path + " 2> " + err_path;
    single_run r;
    const int st = std::system(cmd.c_str());
    r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.stdout_text = slurp(out_path);
    auto json = llvm::json::parse(slurp(json_path));
    if (!json) {
        llvm::consumeError(json.takeError());
        ADD_FAILURE() << s.name << ": npusim wrote no --stats JSON: " << slurp(err_path);
        return r;
    }
    if (auto c = json->getAsObject()->getInteger("cycles")) r.cycles = static_cast<std::uint64_t>(*c);
    return r;
}

}  // namespace

TEST(TwoSocs, EachRunsAsItWouldAlone) {
    std::vector<cfg::config> cfgs;
    cfgs.reserve(specs.size());
    for (const auto& s : specs) cfgs.push_back(cfg::config::load(NPU_GAP9_CFG, s.overrides));
    std::vector<platform::elf_image> images;
    for (const auto& s : specs) images.push_back(platform::elf_image::load(s.elf));

    std::vector<std::unique_ptr<platform::soc>> socs;
    for (std::size_t i = 0; i < specs.size(); ++i)
        socs.push_back(std::make_unique<platform::soc>(specs[i].name, cfgs[i]));
    for (std::size_t i = 0; i < specs.size(); ++i) {
        socs[i]->load(images[i]);
        EXPECT_TRUE(socs[i]->layout_mismatches(images[i]).empty()) << specs[i].name;
    }
    const auto results = platform::soc::run_together({socs[0].get(), socs[1].get()});

    for (std::size_t i = 0; i < specs.size(); ++i) {
        SCOPED_TRACE(specs[i].name);
        const single_run alone = run_npusim(specs[i]);
        EXPECT_EQ(alone.exit_code, 0);
        EXPECT_EQ(static_cast<int>(results[i].code), alone.exit_code) << results[i].reason;
        EXPECT_EQ(results[i].cycles, alone.cycles);
        EXPECT_GT(results[i].cycles, 0u);
        EXPECT_EQ(socs[i]->soc_periph().uart_output(), alone.stdout_text);
        EXPECT_NE(alone.stdout_text.find(i == 0 ? "0 mismatches" : "PASS"), std::string::npos) << alone.stdout_text;
    }
    // The configs differ, so must the runs.
    EXPECT_NE(results[0].cycles, results[1].cycles);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
