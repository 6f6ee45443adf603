// platform/golden: manifest parsing and the element-by-element comparison,
// on plain buffers (no SystemC).
#include "golden.h"

#include "config/config.h"
#include "config/memory_map.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

namespace {

using namespace npu::platform;
namespace fs = std::filesystem;

template <typename T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
    std::vector<unsigned char> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());  // host is little-endian like the target
    return b;
}

template <typename T>
tensor_desc tensor(const std::string& name, element_type t, std::vector<std::uint64_t> shape, const std::vector<T>& v) {
    tensor_desc d;
    d.name = name;
    d.type = t;
    d.shape = std::move(shape);
    d.bytes = v.size() * sizeof(T);
    return d;
}

template <typename T>
output_result run(element_type t, std::vector<std::uint64_t> shape, const std::vector<T>& got,
                  const std::vector<T>& exp, tolerance tol, std::vector<std::string>& first) {
    auto d = tensor("out", t, std::move(shape), got);
    auto g = bytes_of(got), e = bytes_of(exp);
    return compare_tensor(d, g.data(), e.data(), tol, first);
}

TEST(GoldenIndex, RowMajorMultiDimensional) {
    EXPECT_EQ(format_index({4, 10}, 0), "[0,0]");
    EXPECT_EQ(format_index({4, 10}, 37), "[3,7]");
    EXPECT_EQ(format_index({2, 3, 4}, 23), "[1,2,3]");
    EXPECT_EQ(format_index({2, 3, 4}, 4), "[0,1,0]");
    EXPECT_EQ(format_index({7}, 6), "[6]");
    EXPECT_EQ(format_index({}, 0), "[]");  // a scalar
}

TEST(GoldenCompare, IntegersExactlyEveryType) {
    std::vector<std::string> first;
    auto r8 = run<std::int8_t>(element_type::i8, {2, 2}, {1, -2, 127, -128}, {1, -2, 127, -128}, {}, first);
    EXPECT_EQ(r8.compared, 4u);
    EXPECT_EQ(r8.mismatches, 0u);
    auto r16 = run<std::int16_t>(element_type::i16, {3}, {-300, 0, 32767}, {-300, 1, 32767}, {}, first);
    EXPECT_EQ(r16.mismatches, 1u);
    EXPECT_EQ(r16.max_abs_err, 1.0);
    auto r32 = run<std::int32_t>(element_type::i32, {2}, {100000, -5}, {100000, -5}, {}, first);
    EXPECT_EQ(r32.mismatches, 0u);
    auto r64 = run<std::int64_t>(element_type::i64, {2}, {1ll << 40, -1}, {(1ll << 40) + 1, -1}, {}, first);
    EXPECT_EQ(r64.mismatches, 1u);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[0], "  out[1]: got 0, expected 1");
    EXPECT_EQ(first[1], "  out[0]: got 1099511627776, expected 1099511627777");
}

TEST(GoldenCompare, Int8PrintsNumbersNotCharacters) {
    std::vector<std::string> first;
    auto r = run<std::int8_t>(
        element_type::i8, {4, 10}, std::vector<std::int8_t>(40, 65),
        [] {
            std::vector<std::int8_t> v(40, 65);
            v[37] = -66;
            return v;
        }(),
        {}, first);
    EXPECT_EQ(r.mismatches, 1u);
    EXPECT_EQ(r.max_abs_err, 131.0);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0], "  out[3,7]: got 65, expected -66");
}

TEST(GoldenCompare, IntegersIgnoreTolerance) {
    // A tolerance is for floats: an integer off by one is a mismatch anyway.
    std::vector<std::string> first;
    auto r = run<std::int32_t>(element_type::i32, {1}, {10}, {11}, {5, 1}, first);
    EXPECT_EQ(r.mismatches, 1u);
}

TEST(GoldenCompare, FloatToleranceAbsoluteAndRelative) {
    std::vector<std::string> first;
    // |got - exp| <= atol + rtol * |exp|
    EXPECT_EQ(run<float>(element_type::f32, {1}, {1.00005f}, {1.0f}, {1e-4, 0}, first).mismatches, 0u);
    EXPECT_EQ(run<float>(element_type::f32, {1}, {1.001f}, {1.0f}, {1e-4, 0}, first).mismatches, 1u);
    EXPECT_EQ(run<float>(element_type::f32, {1}, {100.05f}, {100.0f}, {0, 1e-3}, first).mismatches, 0u);
    EXPECT_EQ(run<float>(element_type::f32, {1}, {100.5f}, {100.0f}, {0, 1e-3}, first).mismatches, 1u);
    // Relative to the expected value, not the one we got.
    EXPECT_EQ(run<double>(element_type::f64, {1}, {2.0}, {1.0}, {0, 0.6}, first).mismatches, 1u);
    EXPECT_EQ(run<double>(element_type::f64, {1}, {1.0}, {2.0}, {0, 0.6}, first).mismatches, 0u);
    // Exact by default.
    EXPECT_EQ(run<double>(element_type::f64, {1}, {1.0 + 1e-15}, {1.0}, {}, first).mismatches, 1u);
    auto r = run<float>(element_type::f32, {2}, {0.5f, 0.75f}, {0.5f, 0.751f}, {1e-4, 0}, first);
    EXPECT_NEAR(r.max_abs_err, 0.001, 1e-6);
    EXPECT_EQ(first.back(), "  out[1]: got 0.75, expected 0.751");
}

TEST(GoldenCompare, NaNAndInfinity) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<std::string> first;
    auto same = run<float>(element_type::f32, {3}, {nan, inf, -inf}, {nan, inf, -inf}, {1, 1}, first);
    EXPECT_EQ(same.mismatches, 0u);
    EXPECT_EQ(same.max_abs_err, 0.0);
    // NaN vs a number is a mismatch whatever the tolerance; so is inf vs a finite value
    // (atol + rtol*|inf| would otherwise accept anything).
    auto diff = run<float>(element_type::f32, {4}, {nan, 1.0f, 5.0f, inf}, {1.0f, nan, inf, -inf}, {1e9, 1e9}, first);
    EXPECT_EQ(diff.mismatches, 4u);
    EXPECT_TRUE(std::isinf(diff.max_abs_err));
    EXPECT_EQ(first[0], "  out[0]: got nan, expected 1");
    EXPECT_EQ(first[1], "  out[1]: got 1, expected nan");
}

TEST(GoldenCompare, FirstTenMismatchesAcrossOutputs) {
    std::vector<std::string> first;
    std::vector<std::int32_t> got(30, 0), exp(30, 1);
    auto r = run<std::int32_t>(element_type::i32, {3, 10}, got, exp, {}, first);
    EXPECT_EQ(r.mismatches, 30u);
    EXPECT_EQ(first.size(), comparison::max_reported);
    EXPECT_EQ(first[9], "  out[0,9]: got 0, expected 1");
    run<std::int32_t>(element_type::i32, {1}, {0}, {1}, {}, first);
    EXPECT_EQ(first.size(), comparison::max_reported);  // the list is shared and stays capped
}

// --- manifest -------------------------------------------------------------------------------

std::string manifest_text(const std::string& outputs, const std::string& extra = "") {
    return R"({"format": "npuc-manifest/1", "network": "net", "config": "/cfg/gap9.cfg",
              "config_overrides": ["l1.size=16KiB"], "config_fingerprint": "0x0123456789abcdef",
              "firmware": "firmware.elf", "golden_file": "golden.bin",
              "tolerance": {"f32": {"atol": 1e-4, "rtol": 2e-4}}, )" +
           extra + R"("outputs": )" + outputs + R"(, "memory_plan": {"whatever": [1, 2]}})";
}

const char* one_output = R"([{"name": "output0", "shape": [4, 10], "element_type": "i8",
                              "address": 469762048, "bytes": 40, "golden_offset": 8}])";

std::string error_of(const std::string& text) {
    try {
        manifest::parse(text, "out/manifest.json");
    } catch (const manifest_error& e) { return e.what(); }
    return "(no error)";
}

TEST(GoldenManifest, ParsesEveryField) {
    auto m = manifest::parse(
        manifest_text(
            one_output,
            R"("inputs": [{"name": "input0", "shape": [4], "element_type": "f32", "address": "0x1c000100", "bytes": 16}], )"),
        "out/dir/manifest.json");
    EXPECT_EQ(m.network, "net");
    EXPECT_EQ(m.config, "/cfg/gap9.cfg");
    EXPECT_EQ(m.config_path, "/cfg/gap9.cfg");
    ASSERT_EQ(m.config_overrides.size(), 1u);
    EXPECT_EQ(m.config_overrides[0], "l1.size=16KiB");
    EXPECT_EQ(m.fingerprint, 0x0123456789abcdefull);
    EXPECT_EQ(format_fingerprint(m.fingerprint), "0x0123456789abcdef");
    EXPECT_EQ(m.firmware_path, "out/dir/firmware.elf");
    EXPECT_EQ(m.golden_path, "out/dir/golden.bin");
    EXPECT_DOUBLE_EQ(m.tolerance_for(element_type::f32).atol, 1e-4);
    EXPECT_DOUBLE_EQ(m.tolerance_for(element_type::f32).rtol, 2e-4);
    EXPECT_EQ(m.tolerance_for(element_type::f64).atol, 0.0);  // absent: exact
    ASSERT_EQ(m.outputs.size(), 1u);
    EXPECT_EQ(m.outputs[0].name, "output0");
    EXPECT_EQ(m.outputs[0].address, 469762048u);
    EXPECT_EQ(m.outputs[0].elements(), 40u);
    EXPECT_EQ(m.outputs[0].golden_offset, 8u);
    ASSERT_EQ(m.inputs.size(), 1u);
    EXPECT_EQ(m.inputs[0].address, 0x1c000100u);
}

TEST(GoldenManifest, ErrorsNameFileAndProblem) {
    EXPECT_EQ(error_of("{\"format\": \"npuc-manifest/1\",\n \"outputs\": [}"),
              "out/manifest.json: malformed JSON: line 2, column 14: Invalid JSON value");
    EXPECT_EQ(error_of("[1, 2]"), "out/manifest.json: top level: expected an object, got an array");
    EXPECT_EQ(error_of(R"({"format": "npuc-manifest/1"})"), "out/manifest.json: missing key 'config'");
    EXPECT_EQ(error_of(R"({"format": "npuc-manifest/2"})"),
              "out/manifest.json: format: 'npuc-manifest/2' is not a manifest format this npusim reads "
              "(npuc-manifest/1)");
    EXPECT_EQ(error_of(manifest_text(R"({"name": "x"})")),
              "out/manifest.json: outputs: expected an array, got an object");
    std::string bad_type = one_output;
    bad_type.replace(bad_type.find("\"i8\""), 4, "\"bf16\"");
    EXPECT_EQ(error_of(manifest_text(bad_type)),
              "out/manifest.json: outputs[0].element_type: 'bf16' is not one of i8, i16, i32, i64, f32, f64");
    std::string no_offset = one_output;
    no_offset.replace(no_offset.find(", \"golden_offset\": 8"), 19, "");
    EXPECT_EQ(error_of(manifest_text(no_offset)), "out/manifest.json: outputs[0]: missing key 'golden_offset'");
    std::string wrong_bytes = one_output;
    wrong_bytes.replace(wrong_bytes.find("\"bytes\": 40"), 11, "\"bytes\": 160");
    EXPECT_EQ(error_of(manifest_text(wrong_bytes)),
              "out/manifest.json: outputs[0]: 'output0' has bytes = 160, but shape [4,10] of i8 takes 40 bytes");
    std::string neg = one_output;
    neg.replace(neg.find("[4, 10]"), 7, "[4, -1]");
    EXPECT_EQ(error_of(manifest_text(neg)),
              "out/manifest.json: outputs[0].shape[1]: expected a non-negative integer, got -1");
    EXPECT_EQ(error_of(manifest_text(one_output, R"("tolerance": {"i8": {"atol": 1}}, )")),
              "out/manifest.json: tolerance.i8: integers are compared exactly; a tolerance applies to f32 and f64 "
              "only");
    std::string nul = manifest_text(one_output);
    nul.replace(nul.find("\"golden.bin\""), 12, "null");
    EXPECT_NE(error_of(nul).find("golden_file: null"), std::string::npos);
    std::string fp = manifest_text(one_output);
    fp.replace(fp.find("0x0123456789abcdef"), 18, "12345");
    EXPECT_EQ(error_of(fp), "out/manifest.json: config_fingerprint: '12345' is not a 0x-prefixed 64-bit hex number");
}

TEST(GoldenManifest, OutputsMustBeInAMemory) {
    auto cfg = npu::cfg::config::load("", {});
    auto map = npu::cfg::memory_map::build(cfg);
    auto m = manifest::parse(manifest_text(one_output), "m.json");
    const std::uint64_t l2 = map.find_region("l2")->base, l2_size = map.find_region("l2")->size;
    m.outputs[0].address = l2;
    EXPECT_NO_THROW(check_outputs_mapped(m, map));
    m.outputs[0].address = 0x40;
    try {
        check_outputs_mapped(m, map);
        FAIL() << "no error for an unmapped output";
    } catch (const manifest_error& e) {
        EXPECT_NE(std::string(e.what()).find("output 'output0' [0x00000040, +40 bytes) is not in any memory region"),
                  std::string::npos)
            << e.what();
    }
    m.outputs[0].address = l2 + l2_size - 8;
    try {
        check_outputs_mapped(m, map);
        FAIL() << "no error for an output past the end of L2";
    } catch (const manifest_error& e) {
        EXPECT_NE(std::string(e.what()).find("runs 32 bytes past the end of l2"), std::string::npos) << e.what();
    }
    // The edge: the 40 bytes may end exactly at L2's end, not one byte later.
    m.outputs[0].address = l2 + l2_size - 40;
    EXPECT_NO_THROW(check_outputs_mapped(m, map));
    m.outputs[0].address = l2 + l2_size - 39;
    try {
        check_outputs_mapped(m, map);
        FAIL() << "no error for an output one byte past the end of L2";
    } catch (const manifest_error& e) {
        EXPECT_NE(std::string(e.what()).find("runs 1 bytes past the end of l2"), std::string::npos) << e.what();
    }
}

TEST(GoldenCompareOutputs, CountsVerdictsAndText) {
    const fs::path dir = fs::temp_directory_path() / ("npu_golden_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    auto m = manifest::parse(manifest_text(one_output), (dir / "manifest.json").string());
    std::vector<std::int8_t> dev(40);
    for (int i = 0; i < 40; ++i) dev[i] = static_cast<std::int8_t>(i - 20);
    std::vector<unsigned char> golden(8, 0xee);
    auto b = bytes_of(dev);
    golden.insert(golden.end(), b.begin(), b.end());
    { std::ofstream(dir / "golden.bin", std::ios::binary).write(reinterpret_cast<const char*>(golden.data()), 47); }
    try {
        load_golden(m);
        FAIL() << "short golden.bin accepted";
    } catch (const manifest_error& e) {
        EXPECT_NE(std::string(e.what()).find("holds 47 bytes, but output 'output0' needs bytes [8, 48)"),
                  std::string::npos)
            << e.what();
    }
    {
        std::ofstream(dir / "golden.bin", std::ios::binary)
            .write(reinterpret_cast<const char*>(golden.data()), static_cast<std::streamsize>(golden.size()));
    }
    const auto loaded = load_golden(m);
    ASSERT_EQ(loaded, golden);

    std::uint64_t read_addr = 0;
    auto reader = [&](std::uint64_t a, void* d, std::uint64_t n) {
        read_addr = a;
        std::memcpy(d, dev.data(), n);
        return n;
    };
    auto c = compare_outputs(m, loaded, reader);
    EXPECT_EQ(read_addr, 469762048u);
    EXPECT_TRUE(c.passed());
    EXPECT_EQ(c.compared, 40u);
    EXPECT_NE(c.text().find("\ncompared 40 of 40 elements, 0 mismatches, max abs err 0\n"), std::string::npos)
        << c.text();
    EXPECT_NE(c.json().find("\"passed\":true"), std::string::npos) << c.json();

    dev[37] = 99;
    c = compare_outputs(m, loaded, reader);
    EXPECT_FALSE(c.passed());
    EXPECT_EQ(c.mismatches, 1u);
    EXPECT_NE(c.text().find("compared 40 of 40 elements, 1 mismatches, max abs err 82\n  output0[3,7]: got 99, "
                            "expected 17\n"),
              std::string::npos)
        << c.text();

    // A reader that comes back short is an error, not a silent partial compare.
    EXPECT_THROW(compare_outputs(m, loaded, [](std::uint64_t, void*, std::uint64_t n) { return n / 2; }),
                 manifest_error);

    // Zero elements compared is a failure, with the reason.
    m.outputs.clear();
    c = compare_outputs(m, loaded, reader);
    EXPECT_FALSE(c.passed());
    EXPECT_NE(c.text().find("compared 0 of 0 elements, 0 mismatches, max abs err 0"), std::string::npos);
    EXPECT_NE(c.failure.find("compared zero elements is a failure"), std::string::npos);
    fs::remove_all(dir);
}

// A training manifest (npuc --train) lists one f32 loss per step: a loss
// left out of the outputs would go unchecked, so the manifest is refused.
TEST(GoldenManifest, TrainingStepsNeedEveryLoss) {
    const auto loss = [](int s) {
        return fmt::format(R"({{"name": "loss.step{}", "shape": [], "element_type": "f32", "address": {},
                              "bytes": 4, "golden_offset": {}}})",
                           s, 469762048 + 4 * s, 4 * s);
    };
    const std::string two = "[" + loss(0) + ", " + loss(1) + "]";
    const auto m = manifest::parse(manifest_text(two, R"("training": {"steps": 2, "lr": 0.01}, )"), "m.json");
    EXPECT_EQ(m.training_steps, 2u);
    EXPECT_EQ(error_of(manifest_text("[" + loss(0) + "]", R"("training": {"steps": 2}, )")),
              "out/manifest.json: training.steps: 2 steps, but outputs list no loss.step1: every step's loss is "
              "compared");
    EXPECT_EQ(error_of(manifest_text(two, R"("training": {"steps": 1}, )")),
              "out/manifest.json: training.steps: output 'loss.step1' is no step's loss of 1 steps (loss.step0 to "
              "loss.step0)");
    EXPECT_EQ(error_of(manifest_text(two, R"("training": {"steps": 0}, )")),
              "out/manifest.json: training.steps: a training run has at least one step");
    // Without a training block, losses are outputs like any other.
    EXPECT_EQ(manifest::parse(manifest_text("[" + loss(1) + "]"), "m.json").training_steps, 0u);
}

// A golden reference that holds NaN (a training run that diverged, the
// reference's too) verifies nothing: the device's NaN "matching" it is a
// failure that says so, not a pass.
TEST(GoldenCompareOutputs, NonFiniteGoldenFails) {
    auto m = manifest::parse(manifest_text(R"([{"name": "loss.step0", "shape": [], "element_type": "f32",
                                                "address": 469762048, "bytes": 4, "golden_offset": 0},
                                               {"name": "w", "shape": [2], "element_type": "f32",
                                                "address": 469762052, "bytes": 8, "golden_offset": 4}])",
                                             R"("training": {"steps": 1}, )"),
                             "m.json");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> dev{nan, 1.0f, std::numeric_limits<float>::infinity()};
    const std::vector<unsigned char> golden = bytes_of(dev);
    auto reader = [&](std::uint64_t a, void* d, std::uint64_t n) {
        std::memcpy(d, reinterpret_cast<const unsigned char*>(dev.data()) + (a - 469762048), n);
        return n;
    };
    auto c = compare_outputs(m, golden, reader);
    EXPECT_FALSE(c.passed());
    EXPECT_EQ(c.mismatches, 0u);
    EXPECT_EQ(c.failure,
              "2 elements of the golden reference are NaN or infinite (first loss.step0[]: nan): a reference that "
              "diverged or overflowed verifies nothing (the training diverged: a smaller --lr?)");
    // Finite golden values compare as before.
    dev = {0.5f, 1.0f, 2.0f};
    const std::vector<unsigned char> finite = bytes_of(dev);
    EXPECT_TRUE(compare_outputs(m, finite, reader).passed());
}

TEST(GoldenCheckpoints, SnapshotAtTheNthRegionEndAndCompare) {
    // Two layer results in one reused buffer at 0x1c000000: layer1.matmul's
    // (read at its region's end) and layer2.matmul's (the 2nd end of a
    // region named the same way in this test), then the output.
    auto m =
        manifest::parse(manifest_text(R"([{"name": "output0", "shape": [2], "element_type": "i32", "address": 469762304,
                           "bytes": 8, "golden_offset": 0}])",
                                      R"("checkpoints": [
                           {"name": "layer1.matmul", "region": "mm", "occurrence": 1, "shape": [2],
                            "element_type": "i32", "address": 469762048, "bytes": 8, "golden_offset": 16},
                           {"name": "layer2.matmul", "region": "mm", "occurrence": 2, "shape": [2],
                            "element_type": "i32", "address": 469762048, "bytes": 8, "golden_offset": 32}], )"),
                        "out/manifest.json");
    ASSERT_EQ(m.checkpoints.size(), 2u);
    EXPECT_EQ(m.checkpoints[1].region, "mm");
    EXPECT_EQ(m.checkpoints[1].occurrence, 2u);

    std::vector<std::int32_t> buffer{0, 0}, output{7, 8};
    auto reader = [&](std::uint64_t a, void* d, std::uint64_t n) {
        std::memcpy(d, a == 469762304u ? output.data() : buffer.data(), n);
        return n;
    };
    std::vector<std::int32_t> g{7, 8, 0, 0, 1, 2, 0, 0, 3, 4};  // output, pad, layer1, pad, layer2
    const auto golden = bytes_of(g);

    checkpoint_recorder rec(m, reader);
    buffer = {1, 2};
    rec.region_ended("other");
    rec.region_ended("mm");  // layer1 read now
    buffer = {3, 4};
    rec.region_ended("mm");  // layer2 read now
    buffer = {9, 9};         // the buffer is reused later: too late to read
    auto c = compare_outputs(m, golden, reader, &rec);
    EXPECT_TRUE(c.passed()) << c.text();
    EXPECT_EQ(c.layer_compared, 4u);
    EXPECT_NE(c.text().find("layers: compared 4 of 4 elements, 0 mismatches"), std::string::npos) << c.text();

    // A wrong layer fails the run although the outputs match.
    checkpoint_recorder bad(m, reader);
    buffer = {1, 5};
    bad.region_ended("mm");
    buffer = {3, 4};
    bad.region_ended("mm");
    c = compare_outputs(m, golden, reader, &bad);
    EXPECT_EQ(c.mismatches, 0u);
    EXPECT_FALSE(c.passed());
    EXPECT_NE(c.failure.find("the outputs match, but 1 of 4 elements of the layer checkpoints differ"),
              std::string::npos)
        << c.failure;
    EXPECT_NE(c.text().find("  layer1.matmul[1]: got 5, expected 2"), std::string::npos) << c.text();

    // A checkpoint whose region never ended is a failure too.
    checkpoint_recorder never(m, reader);
    never.region_ended("mm");
    c = compare_outputs(m, golden, reader, &never);
    EXPECT_FALSE(c.passed());
    EXPECT_NE(c.failure.find("never reached layer checkpoint layer2.matmul (end 2 of region 'mm')"), std::string::npos)
        << c.failure;

    // occurrence counts from 1.
    EXPECT_NE(error_of(manifest_text(one_output, R"("checkpoints": [{"name": "x", "region": "r", "occurrence": 0,
              "shape": [1], "element_type": "i8", "address": 469762048, "bytes": 1, "golden_offset": 0}], )"))
                  .find("checkpoints[0].occurrence: counts from 1"),
              std::string::npos);
}

TEST(GoldenNeverWritten, OutputsAndLayersNoInitiatorWroteFailWhateverTheirValue) {
    // One i32 output of 4 and a checkpoint of 2; golden all zeros, memory all
    // zeros: the values match, but what the written mask says decides.
    auto m =
        manifest::parse(manifest_text(R"([{"name": "output0", "shape": [4], "element_type": "i32", "address": 469762304,
                           "bytes": 16, "golden_offset": 0}])",
                                      R"("checkpoints": [
                           {"name": "layer1.matmul", "region": "mm", "occurrence": 1, "shape": [2],
                            "element_type": "i32", "address": 469762048, "bytes": 8, "golden_offset": 16}], )"),
                        "out/manifest.json");
    const std::vector<unsigned char> golden(24, 0);
    auto reader = [](std::uint64_t, void* d, std::uint64_t n) {
        std::memset(d, 0, n);
        return n;
    };
    std::vector<unsigned char> out_mask(16, 0), layer_mask(8, 1);
    written_reader written = [&](std::uint64_t a, unsigned char* mask, std::uint64_t n) {
        const auto& src = a == 469762304u ? out_mask : layer_mask;
        std::memcpy(mask, src.data(), n);
        return true;
    };
    checkpoint_recorder rec(m, reader);
    rec.track_written(written);
    rec.region_ended("mm");

    auto c = compare_outputs(m, golden, reader, &rec, &written);
    EXPECT_FALSE(c.passed());
    EXPECT_EQ(c.mismatches, 0u);
    EXPECT_EQ(c.failure, "output0: 4 of 4 elements never written") << c.failure;
    EXPECT_NE(c.text().find("compared 4 of 4 elements, 0 mismatches, max abs err 0, 4 never written\n"),
              std::string::npos)
        << c.text();
    EXPECT_NE(c.json().find("\"never_written\":[\"output0: 4 of 4 elements never written\"]"), std::string::npos)
        << c.json();

    // One byte of one element unwritten: that element counts.
    std::fill(out_mask.begin(), out_mask.end(), 1);
    out_mask[9] = 0;
    c = compare_outputs(m, golden, reader, &rec, &written);
    EXPECT_EQ(c.failure, "output0: 1 of 4 elements never written") << c.failure;

    // All written: passes, the text and JSON as before.
    out_mask[9] = 1;
    c = compare_outputs(m, golden, reader, &rec, &written);
    EXPECT_TRUE(c.passed()) << c.failure;
    EXPECT_EQ(c.text().find("never written"), std::string::npos) << c.text();
    EXPECT_EQ(c.json().find("never_written"), std::string::npos) << c.json();

    // A layer checkpoint is judged by its mask at the snapshot, not at the end.
    checkpoint_recorder early(m, reader);
    early.track_written(written);
    layer_mask.assign(8, 0);
    early.region_ended("mm");
    layer_mask.assign(8, 1);
    c = compare_outputs(m, golden, reader, &early, &written);
    EXPECT_EQ(c.failure, "layer1.matmul: 2 of 2 elements never written") << c.failure;

    // Unknown (memcheck off): nothing is checked.
    written_reader unknown = [](std::uint64_t, unsigned char*, std::uint64_t) { return false; };
    out_mask.assign(16, 0);
    c = compare_outputs(m, golden, reader, &rec, &unknown);
    EXPECT_TRUE(c.passed()) << c.failure;
}

// A training step's outputs (npuc --train): the losses get a line each,
// got / expected, and the run fails at the first step whose loss differs,
// else names the trained tensor that differs.
TEST(GoldenCompare, TrainingLossesPerStep) {
    manifest m;
    auto out = [&](const std::string& name, std::vector<std::uint64_t> shape, std::uint64_t offset) {
        tensor_desc d;
        d.name = name;
        d.type = element_type::f32;
        d.shape = std::move(shape);
        d.bytes = d.elements() * 4;
        d.address = 0x1000 + offset;
        d.golden_offset = offset;
        m.outputs.push_back(d);
    };
    out("loss.step0", {1, 1}, 0);
    out("loss.step1", {1, 1}, 4);
    out("layer1.bias", {2}, 8);
    const std::vector<float> expected{2.5f, 1.5f, 0.25f, -0.5f};
    const auto golden = bytes_of(expected);
    std::vector<float> dev = expected;
    auto reader = [&](std::uint64_t a, void* d, std::uint64_t n) {
        std::memcpy(d, reinterpret_cast<const unsigned char*>(dev.data()) + (a - 0x1000), n);
        return n;
    };

    auto c = compare_outputs(m, golden, reader);
    EXPECT_TRUE(c.passed()) << c.failure;
    EXPECT_NE(c.text().find("losses: compared 2 of 2, max abs err 0\n  loss.step0: got 2.500000, expected "
                            "2.500000\n  loss.step1: got 1.500000, expected 1.500000\n"),
              std::string::npos)
        << c.text();

    dev[1] = 3.0f;  // step 1 collapses, step 0 still exact
    c = compare_outputs(m, golden, reader);
    EXPECT_FALSE(c.passed());
    EXPECT_EQ(c.failure, "loss.step1 differs first: got 3.000000, expected 1.500000");
    EXPECT_NE(c.text().find("  loss.step1: got 3.000000, expected 1.500000  <- differs\nlosses: 1 of 2 differ\n"),
              std::string::npos)
        << c.text();

    dev[1] = 1.5f;
    dev[3] = 0.0f;  // every loss right, a trained weight wrong
    c = compare_outputs(m, golden, reader);
    EXPECT_EQ(c.failure, "every loss matches, but layer1.bias differs after the last step (1 of 2 elements)");
}

}  // namespace
