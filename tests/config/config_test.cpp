// The config library: units, every error class (naming key and file:line),
// overrides, the memory map's validation and per-initiator lookup, and the
// generated reference in docs/config.md matching the schema.
#include "config/config.h"
#include "config/memory_map.h"
#include "util/temp_path.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>
#include <fstream>
#include <sstream>
#include <string>

using namespace npu::cfg;

namespace {

std::string write_temp(const std::string& text) {
    // ctest runs test cases in parallel processes: names must not collide.
    static int n = 0;
    std::string path = npu::test::temp_path("npu_cfg_" + std::to_string(++n) + ".cfg");
    std::ofstream(path) << text;
    return path;
}

// Expects load() to fail with a message containing every fragment.
void expect_error(const std::string& file_text, const std::vector<std::string>& overrides,
                  const std::vector<std::string>& fragments) {
    std::string path = file_text.empty() ? "" : write_temp(file_text);
    try {
        auto c = config::load(path, overrides);
        memory_map::build(c);
        ADD_FAILURE() << "no error for: " << file_text;
    } catch (const config_error& e) {
        std::string msg = e.what();
        for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
        if (!path.empty() && msg.find("<command line>") == std::string::npos &&
            msg.find("<default>") == std::string::npos) {
            EXPECT_NE(msg.find(path), std::string::npos) << "file not named in: " << msg;
        }
    }
}

}  // namespace

TEST(Units, Sizes) {
    EXPECT_EQ(parse_size("64KiB", "k"), 65536u);
    EXPECT_EQ(parse_size("1.5MiB", "k"), 1572864u);
    EXPECT_EQ(parse_size("4096", "k"), 4096u);
    EXPECT_EQ(parse_size("0x1000", "k"), 4096u);
    EXPECT_EQ(parse_size("2 GiB", "k"), 2147483648ull);
    EXPECT_EQ(parse_size("8B", "k"), 8u);
    EXPECT_THROW(parse_size("64kb", "k"), config_error);
    EXPECT_THROW(parse_size("1.3B", "k"), config_error);  // not a whole byte
    EXPECT_THROW(parse_size("abc", "k"), config_error);
    EXPECT_THROW(parse_size("99999999999999999999", "k"), config_error);
    EXPECT_THROW(parse_size("17179869184GiB", "k"), config_error);  // overflows 64 bits
}

TEST(Units, TimesFrequenciesCycles) {
    EXPECT_EQ(parse_time_ps("10us", "k"), 10000000u);
    EXPECT_EQ(parse_time_ps("2.5ns", "k"), 2500u);
    EXPECT_EQ(parse_time_ps("1ms", "k"), 1000000000u);
    EXPECT_THROW(parse_time_ps("10", "k"), config_error);  // a time needs a unit
    EXPECT_THROW(parse_time_ps("10 min", "k"), config_error);
    EXPECT_EQ(parse_frequency_hz("370MHz", "k"), 370000000u);
    EXPECT_EQ(parse_frequency_hz("1.2GHz", "k"), 1200000000u);
    EXPECT_EQ(parse_frequency_hz("32kHz", "k"), 32000u);
    EXPECT_THROW(parse_frequency_hz("370mhz", "k"), config_error);
    EXPECT_EQ(parse_integer("12", "k"), 12u);
    EXPECT_EQ(parse_integer("12 cycles", "k"), 12u);
    EXPECT_THROW(parse_integer("12ns", "k"), config_error);
    EXPECT_THROW(parse_integer("1.5", "k"), config_error);
}

TEST(Config, DefaultsAreGap9) {
    auto c = config::load("", {});
    EXPECT_EQ(c.count("cluster.workers"), 8u);
    EXPECT_EQ(c.size("l1.size"), 128u * 1024);
    EXPECT_EQ(c.address("l1.base"), 0x10000000u);
    EXPECT_EQ(c.size("l2.size"), 1536u * 1024);
    EXPECT_EQ(c.address("l3.base"), 0x80000000u);
    EXPECT_EQ(c.frequency_hz("soc.cluster_clock"), 370000000u);
}

TEST(Config, FileAndOverrides) {
    std::string p = write_temp("[l1]\nsize = 64KiB\n; comment\n[cluster]\nworkers = 4\n");
    auto c = config::load(p, {"l1.size=32KiB", "--l2.latency=9"});
    EXPECT_EQ(c.size("l1.size"), 32u * 1024);  // command line wins
    EXPECT_EQ(c.count("cluster.workers"), 4u);
    EXPECT_EQ(c.cycles("l2.latency"), 9u);
    EXPECT_EQ(c.where("cluster.workers").line, 5);
    EXPECT_EQ(c.where("l1.size").file, "<command line>");
}

TEST(Config, ShippedConfigsLoad) {
    for (const char* f : {"gap9.cfg", "siracusa.cfg", "gap9-alias.cfg"}) {
        auto c = config::load(std::string(NPU_SOURCE_DIR) + "/configs/" + f, {});
        EXPECT_NO_THROW(memory_map::build(c)) << f;
    }
    auto s = config::load(std::string(NPU_SOURCE_DIR) + "/configs/siracusa.cfg", {});
    EXPECT_EQ(s.size("l1.size"), 256u * 1024);
    EXPECT_EQ(s.size("l2.size"), 2u * 1024 * 1024);
}

TEST(ConfigErrors, UnknownKeyNamesKeyFileAndLine) {
    expect_error("[l1]\nsize = 64KiB\nsise = 3\n", {}, {"unknown key", "l1.sise", ":3"});
    expect_error("", {"l1.colour=red"}, {"unknown key", "l1.colour", "<command line>"});
    expect_error("[nosuchsection]\nx = 1\n", {}, {"unknown key", "nosuchsection.x", ":2"});
}

// The error names the line of the second setting and the first's (it named
// the first line twice: "dup.cfg:2: ... set twice (first at line 2)").
TEST(ConfigErrors, KeySetTwiceNamesBothLines) {
    expect_error("[l1]\nsize = 64KiB\nsize = 128KiB\n", {}, {":3: key 'l1.size' set twice (first at line 2)"});
    expect_error("[l1]\nsize = 64KiB\n[l2]\nsize = 1MiB\n[l1]\n\nsize = 32KiB\n", {},
                 {":7: key 'l1.size' set twice (first at line 2)"});
}

TEST(ConfigErrors, MalformedLines) {
    expect_error("[l1]\nsize 64KiB\n", {}, {":2", "expected 'key = value'"});
    expect_error("[l1\nsize = 64KiB\n", {}, {":1", "malformed section header"});
}

TEST(ConfigErrors, BadUnit) {
    expect_error("[l2]\nsize = 12 parsecs\n", {}, {"l2.size", "bad size unit", "parsecs", ":2"});
    expect_error("[soc]\nquantum = 10\n", {}, {"soc.quantum", "bad time unit"});
    expect_error("", {"soc.cluster_clock=fast"}, {"soc.cluster_clock", "not a number"});
}

TEST(ConfigErrors, NotPowerOfTwoWhereRequired) {
    expect_error("", {"l1.size=3KiB"}, {"l1.size", "not a power of two"});
    expect_error("[l1]\nbanks = 12\n", {}, {"l1.banks", "not a power of two", ":2"});
    // 1 = 2^0 is one: the smallest power of two is accepted.
    EXPECT_NO_THROW(memory_map::build(config::load("", {"l1.banks=1"})));
    // L2 is not banked: 1.5 MiB is fine there.
    EXPECT_NO_THROW(config::load("", {"l2.size=1.5MiB"}));
}

TEST(ConfigErrors, ZeroAndOverflow) {
    expect_error("[l2]\nsize = 0\n", {}, {"l2.size", "must not be zero"});
    expect_error("", {"l3.size=99999999999999999999999"}, {"l3.size", "overflows"});
    expect_error("", {"cluster.workers=64"}, {"cluster.workers", "above the maximum"});
}

TEST(ConfigErrors, OverlappingRegions) { expect_error("[l2]\nbase = 0x10010000\n", {}, {"overlaps", "l1", "l2"}); }

TEST(ConfigErrors, OutsideAddressSpace) {
    expect_error("[l3]\nbase = 0x100000000\n", {}, {"l3.base", "outside the 32-bit address space"});
    expect_error("", {"l3.base=0xF0000000", "l3.size=512MiB"}, {"l3", "past the 32-bit address space"});
    // The edge: a region may end exactly at 4 GiB; one byte more is past the
    // address space (reported as such, not only as the misalignment it also is).
    EXPECT_NO_THROW(config::load("", {"l3.base=0xFF800000"}));
    expect_error("", {"l3.base=0xFFFFFFFC", "l3.size=5B"}, {"l3", "past the 32-bit address space", "0x100000001"});
}

TEST(ConfigErrors, BadChoiceAndVisibility) {
    expect_error("", {"soc.memcheck=loud"}, {"soc.memcheck", "not one of", "off, warn, error"});
    expect_error("", {"visibility.core=l1,l4"}, {"visibility.core", "unknown region 'l4'"});
    expect_error("", {"visibility.loader=l1,soc_periph"}, {"visibility.loader", "peripheral"});
    expect_error("[l1]\nsize = 64KiB\n[l1]\nsize = 32KiB\n", {}, {"l1.size"});
}

TEST(ConfigErrors, ExtensionListNamesKnownExtensionsOnce) {
    expect_error("", {"core.isa_extensions=c,q"}, {"core.isa_extensions", "'q' is not one of", "c"});
    expect_error("", {"core.isa_extensions=c,c"}, {"core.isa_extensions", "'c' is listed twice"});
    expect_error("[core]\nisa_extensions = z\n", {}, {"core.isa_extensions", "'z'"});
    expect_error("", {"core.isa_extensions=c,none"}, {"core.isa_extensions", "'none' is not one of"});
    EXPECT_EQ(config::load("", {"core.isa_extensions=none"}).names("core.isa_extensions"),
              std::vector<std::string>{"none"});
}

TEST(MemoryMap, VisibilityPerInitiator) {
    auto c = config::load("", {});
    auto m = memory_map::build(c);
    auto l3 = m.lookup(initiator_class::core, 0x80000010);
    EXPECT_EQ(l3.what, address_info::status::not_visible);
    EXPECT_NE(l3.describe().find("not visible"), std::string::npos);
    EXPECT_EQ(m.lookup(initiator_class::dma, 0x80000010).what, address_info::status::mapped);
    EXPECT_EQ(m.lookup(initiator_class::sa, 0x1C000000).what, address_info::status::not_visible);
    EXPECT_EQ(m.lookup(initiator_class::sa, 0x10000100).what, address_info::status::mapped);
    auto null = m.lookup(initiator_class::core, 0x0);
    EXPECT_EQ(null.what, address_info::status::unmapped);
    ASSERT_NE(null.nearest, nullptr);
    EXPECT_EQ(null.nearest->name, "l1");
    EXPECT_EQ(null.distance, 0x10000000u);
    auto past_l2 = m.lookup(initiator_class::core, 0x1C180004);
    EXPECT_EQ(past_l2.what, address_info::status::unmapped);
    EXPECT_EQ(past_l2.nearest->name, "l2");
    EXPECT_EQ(past_l2.distance, 5u);
    EXPECT_NE(past_l2.describe().find("above the end of l2"), std::string::npos);
}

TEST(MemoryMap, AliasWindow) {
    auto strict = memory_map::build(config::load("", {}));
    EXPECT_EQ(strict.lookup(initiator_class::core, 0x40).what, address_info::status::unmapped);
    auto c = config::load("", {"alias.enable=true"});
    auto m = memory_map::build(c);
    auto a = m.lookup(initiator_class::core, 0x40);
    EXPECT_EQ(a.what, address_info::status::mapped);
    EXPECT_TRUE(a.via_alias);
    EXPECT_EQ(a.target->name, "l1");
    EXPECT_EQ(a.offset, 0x40u);
    // The DMA is not in alias.initiators: NULL stays unmapped for it.
    EXPECT_EQ(m.lookup(initiator_class::dma, 0x40).what, address_info::status::unmapped);
    expect_error("", {"alias.enable=true", "alias.base=0x1C000000"}, {"alias", "overlaps"});
    expect_error("", {"alias.enable=true", "alias.target=l9"}, {"alias.target", "unknown region"});
}

TEST(MemoryMap, PrintListsEveryRegionAndView) {
    auto m = memory_map::build(config::load("", {}));
    std::string p = m.print();
    for (const char* s : {"l1", "l2", "l3", "soc_periph", "cluster_periph", "0x10000000", "0x1c000000", "0x80000000",
                          "core", "dma", "l3:no", "l3:yes"})
        EXPECT_NE(p.find(s), std::string::npos) << s;
}

TEST(ConfigDoc, CheckedInReferenceMatchesSchema) {
    std::ifstream in(std::string(NPU_SOURCE_DIR) + "/docs/config.md");
    ASSERT_TRUE(in) << "docs/config.md missing";
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_TRUE(ss.str() == platform_schema().markdown())
        << "docs/config.md is stale: regenerate with `cmake --build build --target config-doc`";
}

TEST(Config, FingerprintIgnoresSpelling) {
    auto a = config::load("", {"l1.size=64KiB"});
    auto b = config::load("", {"l1.size=65536"});
    auto c = config::load("", {"l1.size=32KiB"});
    EXPECT_EQ(a.fingerprint(), b.fingerprint());
    EXPECT_NE(a.fingerprint(), c.fingerprint());
    // A list is a set of names: spaces and order do not change it (configs/
    // gap9.cfg writes "l1, l2, ...", the built-in default "l1,l2,..."; they
    // hashed differently, so a manifest compiled with one was refused with
    // the other). A different set does.
    const auto d = config::load("", {"visibility.sa=l1,l2"});
    EXPECT_EQ(config::load("", {"visibility.sa=l1, l2"}).fingerprint(), d.fingerprint());
    EXPECT_EQ(config::load("", {"visibility.sa=l2 l1"}).fingerprint(), d.fingerprint());
    EXPECT_NE(config::load("", {"visibility.sa=l1"}).fingerprint(), d.fingerprint());
    EXPECT_EQ(config::load("", {"visibility.core=l1, l2, soc_periph, cluster_periph, event_unit, dma_ctrl, sa_ctrl"})
                  .fingerprint(),
              config::load("", {}).fingerprint());
}

// Timing, host storage, the simulating model and run control are not what a
// firmware is compiled against: a compiled manifest runs at any value of
// them, so an architect sweeps them on one compile (npu sweep).
TEST(Config, FingerprintLeavesOutTimingOnlyKeys) {
    const auto base = config::load("", {}).fingerprint();
    for (const char* o : {"l2.latency=20", "l3.bandwidth=1B", "dma.bandwidth=2B", "dma.burst_size=64B",
                          "core.cpi_div=35", "soc.cluster_clock=240MHz", "soc.quantum=1us", "sa.l1_bandwidth=32B",
                          "l2.storage=sparse", "sa.model=rtl", "soc.memcheck=off", "interconnect.hop_latency=3",
                          "dma.burst_latency=9", "sa.setup_latency=2"})
        EXPECT_EQ(config::load("", {o}).fingerprint(), base) << o;
    for (const char* o : {"l1.size=64KiB", "sa.rows=8", "cluster.workers=4", "l2.base=0x1C100000",
                          "firmware.stack_size=4KiB", "dma.channels=4", "visibility.sa=l1,l2"})
        EXPECT_NE(config::load("", {o}).fingerprint(), base) << o;
    // Every key says which it is, and docs/config.md says so too.
    EXPECT_FALSE(platform_schema().find("l2.latency")->fingerprinted);
    EXPECT_TRUE(platform_schema().find("l2.size")->fingerprinted);
}

// --- issue 14: every key bounded, cross-key errors blame the right key ----------

TEST(ConfigLimits, UnboundedKeysHaveAMaximum) {
    // 2^24 banks allocated 8 GiB of timing slots before failing with bad_alloc.
    expect_error("", {"l1.banks=16777216"}, {"l1.banks", "above the maximum 1024"});
    expect_error("", {"l1.bank_width=1GiB"}, {"l1.bank_width", "above the maximum 64"});
    expect_error("", {"l1.latency=100001"}, {"l1.latency", "above the maximum"});
    expect_error("", {"dma.burst_latency=1000000"}, {"dma.burst_latency", "above the maximum"});
    expect_error("", {"soc.quantum=2s"}, {"soc.quantum", "above the maximum"});
    // The edge itself is accepted.
    EXPECT_NO_THROW(memory_map::build(config::load("", {"l1.banks=1024", "l1.size=128KiB"})));
    // Every numeric key has a finite bound (soc.max_cycles: any 64-bit count).
    for (const auto& d : platform_schema().keys())
        if (d.kind != value_kind::address && d.kind != value_kind::boolean && d.kind != value_kind::choice &&
            d.kind != value_kind::name_list && d.kind != value_kind::text && d.key != "soc.max_cycles") {
            EXPECT_NE(d.max, UINT64_MAX) << d.key << " has no maximum";
        }
}

TEST(ConfigLimits, MaxCyclesTakesTheFull64BitRange) {
    EXPECT_EQ(config::load("", {"soc.max_cycles=18446744073709551615"}).cycles("soc.max_cycles"), UINT64_MAX);
    expect_error("", {"soc.max_cycles=18446744073709551616"}, {"soc.max_cycles", "overflows 64 bits"});
}

TEST(ConfigLimits, DenseMemoryIsBounded) {
    expect_error("", {"l2.size=512MiB", "l2.base=0x40000000"}, {"l2.size", "dense storage", "sparse"});
    EXPECT_NO_THROW(memory_map::build(config::load("", {"l2.size=512MiB", "l2.base=0x40000000", "l2.storage=sparse"})));
}

TEST(ConfigLimits, L1GeometryAndAlignment) {
    expect_error("", {"l1.base=0x10000001"}, {"l1.base", "not word-aligned"});
    expect_error("", {"l1.bank_width=64B", "l1.base=0x10000020"}, {"l1.base", "not aligned to l1.bank_width"});
    expect_error("", {"l1.size=32B", "l1.banks=16"}, {"l1.banks", "exceeds l1.size"});
}

TEST(ConfigLimits, CodeRegionAndAliasTarget) {
    expect_error("", {"firmware.code_region=nosuch"}, {"firmware.code_region", "'nosuch' is not a memory region"});
    expect_error("", {"firmware.code_region=soc_periph"}, {"firmware.code_region", "not a memory region"});
    expect_error("", {"visibility.core="}, {"visibility.core", "cannot see firmware.code_region 'l2'"});
    expect_error("", {"firmware.code_region=l3"}, {"firmware.code_region", "cannot see firmware.code_region 'l3'"});
    expect_error("", {"alias.enable=true", "alias.target=soc_periph"}, {"alias.target", "peripheral"});
}

TEST(ConfigLimits, CrossKeyErrorsBlameTheLatestSetting) {
    // The override, not the default size it collides with.
    expect_error("", {"l1.base=0xFFFFF000"}, {"<command line>", "l1.base", "past the 32-bit address space"});
    // The override, not the file's cluster_periph.base that it now overlaps.
    expect_error("[cluster_periph]\nbase = 0x10200000\n", {"l1.size=1GiB", "l1.storage=sparse"},
                 {"<command line>", "l1.size", "overlaps"});
}

TEST(ConfigLimits, FileMustBeRegularAndSmall) {
    try {
        config::load("/dev/zero", {});
        ADD_FAILURE() << "/dev/zero accepted as a config";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
    try {
        config::load(::testing::TempDir(), {});
        ADD_FAILURE() << "a directory accepted as a config";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
    }
}

// --- the architect's review (cross-key checks at load, units, syntax) --------

// Cross-key checks run in config::load, so every entry point that loads a
// config (--fingerprint, --dump-config, --print-map, npuc, ./npu sweep's
// up-front check) refuses what a run refuses, in the usual format.
TEST(CrossKey, IcacheSizeHoldsOneSetAtLoad) {
    try {
        config::load("", {"icache.size=8B"});
        ADD_FAILURE() << "icache.size=8B accepted";
    } catch (const config_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "<command line>: icache.size: icache.size (8 B) holds less than one set of icache.ways x "
                  "icache.line_bytes (4 x 16 B = 64 B)");
    }
    // Blamed on the key set last: here the ways.
    expect_error("[icache]\nsize = 64B\n", {"icache.ways=8"}, {"<command line>: icache.ways:", "less than one set"});
    EXPECT_NO_THROW(config::load("", {"icache.size=64B"}));  // exactly one set
}

TEST(CrossKey, DmaL1WidthIsWholeBankWords) {
    expect_error("", {"dma.l1_width=5B"}, {"<command line>: dma.l1_width:", "dma.l1_width (5 B)", "l1.bank_width (4 B)"});
    expect_error("[l1]\nbank_width = 8B\n", {"dma.l1_width=12B"}, {"dma.l1_width", "l1.bank_width (8 B)"});
    expect_error("[dma]\nl1_width = 6B\n", {"l1.bank_width=4B"}, {"<command line>: l1.bank_width:", "dma.l1_width (6 B)"});
    for (const char* ok : {"dma.l1_width=4B", "dma.l1_width=12B", "dma.l1_width=64B"})
        EXPECT_NO_THROW(config::load("", {ok})) << ok;
    // Narrower than a bank: whole parts of its word (64 B banks, 8 B DMA).
    EXPECT_NO_THROW(config::load("", {"l1.bank_width=64B", "dma.l1_width=8B"}));
    expect_error("", {"l1.bank_width=64B", "dma.l1_width=24B"}, {"dma.l1_width", "l1.bank_width (64 B)"});
}

TEST(CrossKey, SaL1BandwidthIsWholeBankWords) {
    expect_error("", {"sa.l1_bandwidth=6B"}, {"<command line>: sa.l1_bandwidth:", "sa.l1_bandwidth (6 B)", "l1.bank_width (4 B)"});
    for (const char* ok : {"sa.l1_bandwidth=4B", "sa.l1_bandwidth=32B", "sa.l1_bandwidth=128B"})
        EXPECT_NO_THROW(config::load("", {ok})) << ok;
    EXPECT_NO_THROW(config::load("", {"l1.bank_width=64B", "sa.l1_bandwidth=32B"}));  // half a bank word per cycle
}

TEST(CrossKey, RtlArrayKeysAtLoad) {
    expect_error("", {"sa.model=rtl", "sa.weight_buffers=2"}, {"sa.weight_buffers", "sa.model=rtl needs sa.weight_buffers=1"});
    expect_error("", {"sa.model=compare", "sa.setup_latency=70000"}, {"sa.setup_latency", "not below 65536"});
    expect_error("", {"sa.rtl_trace=/tmp/x.fst"}, {"sa.rtl_trace", "only the RTL array has a waveform"});
}

TEST(Units, KbMbGbAreAmbiguous) {
    for (const char* v : {"1000KB", "1MB", "2GB"}) {
        try {
            parse_size(v, "<command line>: l2.size");
            ADD_FAILURE() << v << " accepted";
        } catch (const config_error& e) {
            const std::string m = e.what();
            EXPECT_NE(m.find("<command line>: l2.size: bad size unit"), std::string::npos) << m;
            EXPECT_NE(m.find("ambiguous"), std::string::npos) << m;
            EXPECT_NE(m.find("KiB, MiB or GiB"), std::string::npos) << m;
        }
    }
    expect_error("[l2]\nsize = 1000KB\n", {}, {":2: l2.size", "ambiguous"});
    EXPECT_EQ(parse_size("1000KiB", "k"), 1000u * 1024);
}

TEST(Units, NegativeValuesSaySo) {
    for (const char* o : {"l1.size=-1", "l1.latency=-1", "energy.l1_read_byte=-5", "soc.cluster_clock=-1MHz",
                          "soc.quantum=-1us", "l1.base=-0x10"})
        expect_error("", {o}, {"<command line>", "is negative (negative values are not allowed)"});
}

TEST(ConfigFile, InlineSemicolonCommentsAreComments) {
    const std::string path = write_temp("[l1]\nsize = 64KiB ; comment\nlatency = 2 # comment\n[l2] ; the L2\nlatency = 7;x\n");
    const config c = config::load(path, {});
    EXPECT_EQ(c.size("l1.size"), 64u * 1024);
    EXPECT_EQ(c.cycles("l1.latency"), 2u);
    EXPECT_EQ(c.cycles("l2.latency"), 7u);
    expect_error("[l1]\nsize = 64 parsecs ; comment\n", {}, {":2: l1.size", "bad size unit 'parsecs'"});
}

TEST(ConfigFile, SectionNamesAreTrimmedAndErrorsKeepTheLine) {
    const config c = config::load(write_temp("[ l1 ]\n  size = 64KiB\n"), {});
    EXPECT_EQ(c.size("l1.size"), 64u * 1024);
    EXPECT_EQ(c.where("l1.size").line, 2);
    expect_error("[ l1 ]\n  sise = 64KiB\n", {}, {":2: unknown key 'l1.sise'"});
    expect_error("[ ]\nsize = 1\n", {}, {":1", "empty section header"});
}

TEST(ConfigFile, LeadingByteOrderMarkIsSkipped) {
    const config c = config::load(write_temp("\xEF\xBB\xBF[l1]\nsize = 64KiB\n"), {});
    EXPECT_EQ(c.size("l1.size"), 64u * 1024);
    // Only at the start of the file: elsewhere it is text.
    expect_error("[l1]\n\xEF\xBB\xBFsize = 64KiB\n", {}, {":2", "unknown key"});
}

TEST(ConfigFile, AddressesNeedTheHexPrefix) {
    expect_error("[l1]\nbase = 10000000\n", {}, {":2: l1.base", "'10000000' is not a hex address", "0x prefix"});
    expect_error("", {"alias.base=0"}, {"<command line>: alias.base", "0x prefix"});
    EXPECT_EQ(config::load("", {"l1.base=0X10000000"}).address("l1.base"), 0x10000000u);
    EXPECT_EQ(config::load("", {"alias.base=0x0"}).address("alias.base"), 0u);
}
