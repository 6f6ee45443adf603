// Golden comparison of a compiled network's outputs: the npuc manifest
// (manifest.json: firmware, config + fingerprint, outputs with address,
// shape, element type and offset into golden.bin, float tolerances), the
// check that every output lies in a memory, and the element-by-element
// comparison of the simulated memory with golden.bin.
//
// No SystemC here: memory is read through a callback (npusim passes the
// SoC's loader debug port), so the parser and the comparison are unit-tested
// on plain buffers. Every problem with the manifest or golden.bin is a
// manifest_error naming the file and what is wrong; npusim maps it to the
// bad-input exit code. A comparison that compares zero elements fails.
#pragma once

#include "config/memory_map.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace npu::platform {

class manifest_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// MLIR spelling, as npuc writes it.
enum class element_type { i8, i16, i32, i64, f32, f64 };
const char* element_type_name(element_type t);
std::optional<element_type> parse_element_type(const std::string& s);
unsigned element_size(element_type t);
inline bool is_float(element_type t) { return t == element_type::f32 || t == element_type::f64; }

struct tensor_desc {
    std::string name;
    std::vector<std::uint64_t> shape;
    element_type type = element_type::i8;
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
    std::uint64_t golden_offset = 0;  // outputs only
    std::uint64_t elements() const;
};

// A layer's result inside the network (docs/bug-classes.md, item 6: errors per layer, not
// just per output): its buffer is reused later, so npusim reads it when the
// firmware ends trace region `region` for the `occurrence`-th time (npuc puts
// each layer's op in such a region) and compares it with golden.bin at
// golden_offset.
struct checkpoint_desc : tensor_desc {
    std::string region;
    std::uint64_t occurrence = 1;
    // Where the layer's op came from, as npuc wrote it: file:line:col of a
    // .mlir network, or the ONNX node's name of an imported model; "" if the
    // manifest gives none.
    std::string location;
};

// |got - expected| <= atol + rtol * |expected|
struct tolerance {
    double atol = 0;
    double rtol = 0;
};

struct manifest {
    std::string path;          // as given
    std::string format;        // "npuc-manifest/1"
    std::string network;
    std::string config;        // as written in the manifest
    std::string config_path;   // resolved: relative to the manifest's directory
    std::vector<std::string> config_overrides;  // "key=value"
    std::string config_fingerprint;             // as written ("0x...")
    std::uint64_t fingerprint = 0;
    std::string firmware;      // as written
    std::string firmware_path; // resolved
    std::string golden_file;   // as written
    std::string golden_path;   // resolved
    std::map<element_type, tolerance> tolerances;  // float types; absent = exact
    std::vector<tensor_desc> outputs;
    std::vector<tensor_desc> inputs;
    std::vector<checkpoint_desc> checkpoints;  // optional
    // A training run's steps (npuc --train: the "training" block), 0 for
    // inference: its outputs must hold one loss per step, loss.step0 to
    // loss.step<steps-1>.
    std::uint64_t training_steps = 0;
    // Multiply-accumulates per trace region (npuc's "layers", optional): the
    // report's MAC/cycle per layer.
    std::vector<std::pair<std::string, std::uint64_t>> layer_macs;

    tolerance tolerance_for(element_type t) const;

    // Reads and validates; throws manifest_error ("<path>: ...").
    static manifest load(const std::string& path);
    // The same from text; `path` locates relative paths and names errors.
    static manifest parse(const std::string& text, const std::string& path);
};

// Every output (and checkpoint) must lie entirely inside one memory the loader can read:
// throws manifest_error naming the output and what its address is.
void check_outputs_mapped(const manifest& m, const cfg::memory_map& map);

// Reads golden.bin and checks it holds every output's range; throws
// manifest_error when it is missing, unreadable or too short.
std::vector<unsigned char> load_golden(const manifest& m);

// "[3,7]": the row-major multi-dimensional index of flat element `flat`.
std::string format_index(const std::vector<std::uint64_t>& shape, std::uint64_t flat);

struct output_result {
    std::string name;
    element_type type = element_type::i8;
    std::vector<std::uint64_t> shape;
    std::uint64_t address = 0;
    std::uint64_t compared = 0;
    std::uint64_t expected = 0;
    std::uint64_t mismatches = 0;
    double max_abs_err = 0;
    // Elements not every byte of which an initiator (or the loader) wrote
    // (memcheck's shadow), whatever their value; 0 when unknown.
    std::uint64_t never_written = 0;
    // Elements whose golden value is NaN or infinite (floats), and the
    // first one ("loss.step4: nan"): a reference that diverged or
    // overflowed verifies nothing, whatever the device computed.
    std::uint64_t nonfinite_golden = 0;
    std::string first_nonfinite;
    std::string location;  // layers: the op's source (checkpoint_desc::location)
};

struct comparison {
    static constexpr std::size_t max_reported = 10;

    // Per-layer checkpoints, in program order; `unreached` names those whose
    // region never ended.
    std::vector<output_result> layers;
    std::vector<std::string> unreached;
    std::uint64_t layer_compared = 0, layer_expected = 0, layer_mismatches = 0;
    double layer_max_abs_err = 0;

    std::vector<output_result> outputs;
    std::uint64_t compared = 0;
    std::uint64_t expected = 0;
    std::uint64_t mismatches = 0;
    double max_abs_err = 0;
    std::vector<std::string> first_mismatches;  // "  output0[3,7]: got 12, expected 13"
    std::string failure;                        // why it failed, "" if it passed
    // "output0: 16 of 16 elements never written", per output and layer with
    // any; a failure even where the memory happens to hold the golden value.
    std::vector<std::string> never_written;

    // A training step's losses (outputs named loss.step<s>, npuc --train):
    // one line per step, got / expected, and their own count and error.
    struct loss_step {
        std::string name;
        float got = 0, expected = 0;
        bool compared = false, equal = false;
    };
    std::vector<loss_step> losses;
    double loss_max_abs_err = 0;

    bool passed() const { return failure.empty(); }
    // Per-output lines, the total line, the first mismatches, the verdict.
    std::string text() const;
    // A JSON object (no trailing newline), for the --stats report.
    std::string json() const;
};

// Compares one tensor; `got` and `expected` hold t.bytes bytes each
// (little-endian, the target's byte order). Appends up to
// comparison::max_reported mismatch lines to `first` (shared by outputs).
output_result compare_tensor(const tensor_desc& t, const unsigned char* got, const unsigned char* expected,
                             const tolerance& tol, std::vector<std::string>& first);

// Reads one range of simulated memory; returns the bytes read.
using memory_reader = std::function<std::uint64_t(std::uint64_t addr, void* data, std::uint64_t size)>;
// Which bytes of a range were written (soc::written_mask): mask[i] = 1 for a
// written byte; false when nobody knows (memcheck off), and then nothing is
// checked.
using written_reader = std::function<bool(std::uint64_t addr, unsigned char* mask, std::uint64_t size)>;

// Counts the elements of `t` with a byte `mask` (t.bytes long) says was never written.
std::uint64_t count_never_written(const tensor_desc& t, const unsigned char* mask);

// Reads each checkpoint of a manifest when its region ends during the run.
class checkpoint_recorder {
public:
    checkpoint_recorder(const manifest& m, memory_reader read);
    // Every region end of the run, in order (soc::on_region_end).
    void region_ended(const std::string& name);
    // Per checkpoint: its bytes, or empty if its region end never came.
    const std::vector<std::optional<std::vector<unsigned char>>>& snapshots() const { return snapshots_; }
    // Also records, at each snapshot, which of its bytes were written.
    void track_written(written_reader w) { written_ = std::move(w); }
    // Per checkpoint: its written mask at the snapshot, or empty if unknown.
    const std::vector<std::vector<unsigned char>>& written_snapshots() const { return written_snapshots_; }

private:
    const manifest& m_;
    memory_reader read_;
    std::map<std::string, std::uint64_t> ends_;  // region -> ends seen
    std::vector<std::optional<std::vector<unsigned char>>> snapshots_;
    written_reader written_;
    std::vector<std::vector<unsigned char>> written_snapshots_;
    // Per checkpoint: its snapshot's and its mask's storage until taken.
    std::vector<std::vector<unsigned char>> bytes_, masks_;
};

// Compares every output of `m` read through `read` with `golden` (from
// load_golden), and every checkpoint `layers` recorded. Throws
// manifest_error if an output cannot be read. A layer mismatch or an
// unreached checkpoint fails the comparison like an output mismatch; so does
// an element `written` says no initiator wrote.
comparison compare_outputs(const manifest& m, const std::vector<unsigned char>& golden, const memory_reader& read,
                           const checkpoint_recorder* layers = nullptr, const written_reader* written = nullptr);

// Text of a fingerprint as npuc writes it: 0x%016llx.
std::string format_fingerprint(std::uint64_t fp);

}  // namespace npu::platform
