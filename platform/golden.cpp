#include "golden.h"

#include "config/input_file.h"

#include <fmt/format.h>

#include <llvm/Support/Error.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <unordered_set>

namespace npu::platform {

namespace fs = std::filesystem;
namespace json = llvm::json;

const char* element_type_name(element_type t) {
    switch (t) {
    case element_type::i8: return "i8";
    case element_type::i16: return "i16";
    case element_type::i32: return "i32";
    case element_type::i64: return "i64";
    case element_type::f32: return "f32";
    case element_type::f64: return "f64";
    }
    return "?";
}

std::optional<element_type> parse_element_type(const std::string& s) {
    for (auto t : {element_type::i8, element_type::i16, element_type::i32, element_type::i64, element_type::f32,
                   element_type::f64})
        if (s == element_type_name(t)) return t;
    return std::nullopt;
}

unsigned element_size(element_type t) {
    switch (t) {
    case element_type::i8: return 1;
    case element_type::i16: return 2;
    case element_type::i32:
    case element_type::f32: return 4;
    case element_type::i64:
    case element_type::f64: return 8;
    }
    return 1;
}

std::uint64_t tensor_desc::elements() const {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

tolerance manifest::tolerance_for(element_type t) const {
    auto it = tolerances.find(t);
    return it == tolerances.end() ? tolerance{} : it->second;
}

std::string format_fingerprint(std::uint64_t fp) { return fmt::format("0x{:016x}", fp); }

// --- manifest parsing ------------------------------------------------------------------

namespace {

const char* kind_text(const json::Value& v) {
    switch (v.kind()) {
    case json::Value::Null: return "null";
    case json::Value::Boolean: return "a boolean";
    case json::Value::Number: return "a number";
    case json::Value::String: return "a string";
    case json::Value::Array: return "an array";
    case json::Value::Object: return "an object";
    }
    return "?";
}

std::string printable(const std::string& s);

// Reads typed fields, every error naming the file and the key path.
struct reader {
    std::string file;

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw manifest_error(file + ": " + (where.empty() ? "" : where + ": ") + what);
    }

    const json::Value& need(const json::Object& o, const std::string& where, const std::string& key) const {
        const json::Value* v = o.get(key);
        if (!v) fail(where, "missing key '" + key + "'");
        return *v;
    }
    static std::string sub(const std::string& where, const std::string& key) {
        return where.empty() ? key : where + "." + key;
    }

    std::string string(const json::Object& o, const std::string& where, const std::string& key) const {
        const json::Value& v = need(o, where, key);
        auto s = v.getAsString();
        if (!s) fail(sub(where, key), std::string("expected a string, got ") + kind_text(v));
        return s->str();
    }
    std::uint64_t unsigned_int(const json::Value& v, const std::string& where) const {
        if (auto s = v.getAsString()) {  // "0x1c000000" in a hand-written manifest
            const std::string t = s->str();
            char* end = nullptr;
            errno = 0;
            unsigned long long x = std::strtoull(t.c_str(), &end, 0);
            if (!t.empty() && t[0] != '-' && end && *end == 0 && errno == 0) return x;
            fail(where, "'" + t + "' is not a non-negative integer");
        }
        if (auto i = v.getAsInteger()) {
            if (*i < 0) fail(where, "expected a non-negative integer, got " + std::to_string(*i));
            return static_cast<std::uint64_t>(*i);
        }
        if (auto u = v.getAsUINT64()) return *u;
        if (auto d = v.getAsNumber(); d && std::isfinite(*d) && *d == std::floor(*d))
            fail(where, fmt::format("{} is not a 64-bit unsigned integer (at most 2^64-1)", *d));
        if (v.kind() == json::Value::Number) fail(where, "expected an integer, got a fractional number");
        fail(where, std::string("expected a non-negative integer, got ") + kind_text(v));
    }
    std::uint64_t unsigned_int(const json::Object& o, const std::string& where, const std::string& key) const {
        return unsigned_int(need(o, where, key), sub(where, key));
    }
    double number(const json::Value& v, const std::string& where) const {
        auto d = v.getAsNumber();
        if (!d) fail(where, std::string("expected a number, got ") + kind_text(v));
        if (!std::isfinite(*d) || *d < 0) fail(where, "expected a finite number >= 0");
        return *d;
    }
    const json::Object& object(const json::Value& v, const std::string& where) const {
        const json::Object* o = v.getAsObject();
        if (!o) fail(where, std::string("expected an object, got ") + kind_text(v));
        return *o;
    }
    const json::Array& array(const json::Value& v, const std::string& where) const {
        const json::Array* a = v.getAsArray();
        if (!a) fail(where, std::string("expected an array, got ") + kind_text(v));
        return *a;
    }

    tensor_desc tensor(const json::Value& v, const std::string& where, bool output) const {
        const json::Object& o = object(v, where);
        tensor_desc t;
        t.name = printable(string(o, where, "name"));
        const json::Array& shape = array(need(o, where, "shape"), sub(where, "shape"));
        for (std::size_t i = 0; i < shape.size(); ++i)
            t.shape.push_back(unsigned_int(shape[i], fmt::format("{}.shape[{}]", where, i)));
        const std::string et = string(o, where, "element_type");
        auto parsed = parse_element_type(et);
        if (!parsed) fail(sub(where, "element_type"), "'" + et + "' is not one of i8, i16, i32, i64, f32, f64");
        t.type = *parsed;
        t.address = unsigned_int(o, where, "address");
        t.bytes = unsigned_int(o, where, "bytes");
        if (output) t.golden_offset = unsigned_int(o, where, "golden_offset");
        // Every later `golden_offset + bytes` is then free of wrap-around.
        if (t.golden_offset > (1ull << 62) || t.bytes > (1ull << 62))
            fail(where, fmt::format("'{}' has golden_offset = {} and bytes = {}: beyond any golden file", t.name,
                                    t.golden_offset, t.bytes));
        // Overflow-safe: shape product times element size must be `bytes`.
        long double need_bytes = element_size(t.type);
        for (auto d : t.shape) need_bytes *= static_cast<long double>(d);
        if (need_bytes != static_cast<long double>(t.bytes))
            fail(where,
                 fmt::format("'{}' has bytes = {}, but shape [{}] of {} takes {} bytes", t.name, t.bytes,
                             fmt::join(t.shape, ","), element_type_name(t.type), static_cast<double>(need_bytes)));
        if (t.address + t.bytes > (1ull << 32))
            fail(where, fmt::format("'{}' at 0x{:x} + {} bytes runs past the 32-bit address space", t.name, t.address,
                                    t.bytes));
        return t;
    }
};

// Names come from a file and go to the terminal: control characters and
// non-ASCII bytes are shown as \xNN instead of being sent raw.
std::string printable(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out += static_cast<char>(c);
        else
            out += fmt::format("\\x{:02x}", c);
    }
    return out;
}

// llvm::json::parse recurses once per nesting level: bound the depth before
// parsing, so a hostile file is an error rather than a stack overflow.
constexpr int max_json_depth = 64;

bool too_deep(const std::string& text) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_json_depth) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

std::string resolve(const fs::path& dir, const std::string& p) {
    fs::path q(p);
    if (q.is_absolute()) return q.lexically_normal().string();
    return (dir / q).lexically_normal().string();
}

std::string parse_error_text(llvm::Error e) {
    std::string msg = llvm::toString(std::move(e));
    // LLVM: "[line:col, byte=N]: message"
    std::smatch m;
    static const std::regex rx(R"(^\[(\d+):(\d+), byte=\d+\]: (.*)$)");
    if (std::regex_match(msg, m, rx)) return "line " + m[1].str() + ", column " + m[2].str() + ": " + m[3].str();
    return msg;
}

}  // namespace

manifest manifest::parse(const std::string& text, const std::string& path) {
    reader r{path};
    if (too_deep(text)) r.fail("", fmt::format("malformed JSON: nested deeper than {} levels", max_json_depth));
    auto parsed = json::parse(text);
    if (!parsed) r.fail("", "malformed JSON: " + parse_error_text(parsed.takeError()));
    const json::Object& root = r.object(*parsed, "top level");

    manifest m;
    m.path = path;
    const fs::path dir = fs::path(path).parent_path();

    m.format = r.string(root, "", "format");
    if (m.format != "npuc-manifest/1")
        r.fail("format", "'" + m.format + "' is not a manifest format this npusim reads (npuc-manifest/1)");
    if (root.get("network")) m.network = r.string(root, "", "network");

    m.config = r.string(root, "", "config");
    if (m.config.empty()) r.fail("config", "empty path");
    m.config_path = resolve(dir, m.config);
    // npuc records the path it was given; if it is relative and not found
    // beside the manifest, it was relative to where npuc ran.
    if (!fs::path(m.config).is_absolute() && !fs::exists(m.config_path) && fs::exists(m.config))
        m.config_path = m.config;
    if (const json::Value* ov = root.get("config_overrides")) {
        const json::Array& a = r.array(*ov, "config_overrides");
        for (std::size_t i = 0; i < a.size(); ++i) {
            auto s = a[i].getAsString();
            const std::string where = fmt::format("config_overrides[{}]", i);
            if (!s) r.fail(where, std::string("expected a \"key=value\" string, got ") + kind_text(a[i]));
            if (s->find('=') == llvm::StringRef::npos) r.fail(where, "'" + s->str() + "' is not key=value");
            m.config_overrides.push_back(s->str());
        }
    }
    m.config_fingerprint = r.string(root, "", "config_fingerprint");
    {
        const std::string& f = m.config_fingerprint;
        char* end = nullptr;
        errno = 0;
        m.fingerprint = std::strtoull(f.c_str(), &end, 16);
        if (f.size() < 3 || f.compare(0, 2, "0x") != 0 || *end != 0 || errno != 0)
            r.fail("config_fingerprint", "'" + f + "' is not a 0x-prefixed 64-bit hex number");
    }

    m.firmware = r.string(root, "", "firmware");
    if (m.firmware.empty()) r.fail("firmware", "empty path");
    m.firmware_path = resolve(dir, m.firmware);
    {
        const json::Value& g = r.need(root, "", "golden_file");
        if (g.kind() == json::Value::Null)
            r.fail("golden_file", "null: the network was compiled without a golden reference (npuc --golden=false)");
        m.golden_file = r.string(root, "", "golden_file");
        if (m.golden_file.empty()) r.fail("golden_file", "empty path");
        m.golden_path = resolve(dir, m.golden_file);
    }

    if (const json::Value* tv = root.get("tolerance")) {
        const json::Object& to = r.object(*tv, "tolerance");
        for (const auto& [k, v] : to) {
            const std::string key = k.str(), where = "tolerance." + key;
            auto t = parse_element_type(key);
            if (!t) r.fail(where, "'" + key + "' is not an element type (i8, i16, i32, i64, f32, f64)");
            const json::Object& o = r.object(v, where);
            for (const auto& [f, unused] : o)
                if (f != "atol" && f != "rtol") r.fail(where, "unknown key '" + f.str() + "' (atol, rtol)");
            tolerance tol;
            if (const json::Value* a = o.get("atol")) tol.atol = r.number(*a, where + ".atol");
            if (const json::Value* a = o.get("rtol")) tol.rtol = r.number(*a, where + ".rtol");
            if (!is_float(*t) && (tol.atol != 0 || tol.rtol != 0))
                r.fail(where, "integers are compared exactly; a tolerance applies to f32 and f64 only");
            m.tolerances[*t] = tol;
        }
    }

    const json::Array& outs = r.array(r.need(root, "", "outputs"), "outputs");
    std::unordered_set<std::string> output_names;
    for (std::size_t i = 0; i < outs.size(); ++i) {
        const std::string where = fmt::format("outputs[{}]", i);
        m.outputs.push_back(r.tensor(outs[i], where, true));
        if (!output_names.insert(m.outputs.back().name).second)
            r.fail(where, "output '" + m.outputs.back().name + "' is listed twice");
    }
    if (const json::Value* cv = root.get("checkpoints")) {
        const json::Array& cs = r.array(*cv, "checkpoints");
        for (std::size_t i = 0; i < cs.size(); ++i) {
            const std::string where = fmt::format("checkpoints[{}]", i);
            checkpoint_desc c;
            static_cast<tensor_desc&>(c) = r.tensor(cs[i], where, true);
            const json::Object& o = r.object(cs[i], where);
            c.region = r.string(o, where, "region");
            c.occurrence = r.unsigned_int(o, where, "occurrence");
            if (c.occurrence == 0) r.fail(where + ".occurrence", "counts from 1");
            if (o.get("location")) c.location = r.string(o, where, "location");
            m.checkpoints.push_back(std::move(c));
        }
    }
    if (const json::Value* lv = root.get("layers")) {
        const json::Array& ls = r.array(*lv, "layers");
        for (std::size_t i = 0; i < ls.size(); ++i) {
            const std::string where = fmt::format("layers[{}]", i);
            const json::Object& o = r.object(ls[i], where);
            m.layer_macs.emplace_back(r.string(o, where, "region"), r.unsigned_int(o, where, "macs"));
        }
    }
    if (const json::Value* tv = root.get("training")) {
        const json::Object& o = r.object(*tv, "training");
        m.training_steps = r.unsigned_int(o, "training", "steps");
        if (m.training_steps == 0) r.fail("training.steps", "a training run has at least one step");
        // One loss per step, each an f32 scalar: a loss left out would
        // otherwise go unchecked, and the run still pass.
        std::uint64_t losses = 0;
        for (const auto& t : m.outputs) {
            llvm::StringRef name(t.name);
            if (!name.consume_front("loss.step")) continue;
            std::uint64_t step = 0;
            if (name.getAsInteger(10, step) || step >= m.training_steps)
                r.fail("training.steps", fmt::format("output '{}' is no step's loss of {} steps (loss.step0 to "
                                                     "loss.step{})",
                                                     t.name, m.training_steps, m.training_steps - 1));
            if (t.type != element_type::f32 || t.bytes != 4)
                r.fail("training.steps", fmt::format("output '{}' is not one f32 (a step's loss)", t.name));
            ++losses;
        }
        if (losses != m.training_steps)
            for (std::uint64_t step = 0; step < m.training_steps; ++step)
                if (!output_names.count(fmt::format("loss.step{}", step)))
                    r.fail("training.steps",
                           fmt::format("{} steps, but outputs list no loss.step{}: every step's loss is compared",
                                       m.training_steps, step));
    }
    if (const json::Value* iv = root.get("inputs")) {
        const json::Array& ins = r.array(*iv, "inputs");
        for (std::size_t i = 0; i < ins.size(); ++i)
            m.inputs.push_back(r.tensor(ins[i], fmt::format("inputs[{}]", i), false));
    }
    return m;
}

manifest manifest::load(const std::string& path) {
    if (auto why = cfg::check_input_file(path, cfg::max_manifest_file_bytes, "a manifest"); !why.empty())
        throw manifest_error(path + ": " + why);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw manifest_error(path + ": cannot open manifest (" + std::strerror(errno) + ")");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw manifest_error(path + ": cannot read manifest");
    return parse(text.str(), path);
}

void check_outputs_mapped(const manifest& m, const cfg::memory_map& map) {
    std::vector<std::pair<const tensor_desc*, const char*>> all;
    for (const auto& t : m.outputs) all.emplace_back(&t, "output");
    for (const auto& t : m.checkpoints) all.emplace_back(&t, "checkpoint");
    for (const auto& [tp, kind] : all) {
        const tensor_desc& t = *tp;
        if (t.bytes == 0) continue;  // nothing to read; counted as zero elements
        const auto info = map.lookup(cfg::initiator_class::loader, t.address);
        const std::string what =
            fmt::format("{}: {} '{}' [0x{:08x}, +{} bytes)", m.path, kind, t.name, t.address, t.bytes);
        if (info.what == cfg::address_info::status::unmapped)
            throw manifest_error(what + " is not in any memory region: " + info.describe());
        if (info.target->kind != cfg::region_kind::memory)
            throw manifest_error(what + " falls in " + info.target->name + ", which is not a memory");
        if (info.what == cfg::address_info::status::not_visible)
            throw manifest_error(what + " falls in " + info.target->name + ", which the loader cannot read");
        if (info.offset + t.bytes > info.target->size)
            throw manifest_error(what + fmt::format(" runs {} bytes past the end of {} (this config: {} at 0x{:08x})",
                                                    info.offset + t.bytes - info.target->size, info.target->name,
                                                    cfg::format_size(info.target->size), info.target->base));
    }
}

std::vector<unsigned char> load_golden(const manifest& m) {
    if (auto why = cfg::check_input_file(m.golden_path, cfg::max_golden_file_bytes, "a golden data file"); !why.empty())
        throw manifest_error(m.path + ": golden_file " + m.golden_path + ": " + why);
    std::ifstream in(m.golden_path, std::ios::binary);
    if (!in)
        throw manifest_error(m.path + ": golden_file " + m.golden_path + ": cannot open (" + std::strerror(errno) +
                             ")");
    std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto check = [&](const tensor_desc& t, const char* kind) {
        if (t.golden_offset + t.bytes > data.size())
            throw manifest_error(fmt::format("{}: golden_file {} holds {} bytes, but {} '{}' needs bytes [{}, {})",
                                             m.path, m.golden_path, data.size(), kind, t.name, t.golden_offset,
                                             t.golden_offset + t.bytes));
    };
    for (const auto& t : m.outputs) check(t, "output");
    for (const auto& t : m.checkpoints) check(t, "checkpoint");
    return data;
}

// --- comparison ---------------------------------------------------------------------------

std::string format_index(const std::vector<std::uint64_t>& shape, std::uint64_t flat) {
    if (shape.empty()) return "[]";
    std::vector<std::uint64_t> idx(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::uint64_t n = shape[d] ? shape[d] : 1;
        idx[d] = flat % n;
        flat /= n;
    }
    return fmt::format("[{}]", fmt::join(idx, ","));
}

namespace {

template <typename T>
T load_le(const unsigned char* p) {
    using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                 std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    U u = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) u |= static_cast<U>(static_cast<U>(p[i]) << (8 * i));
    T v;
    std::memcpy(&v, &u, sizeof v);
    return v;
}

// Returns the absolute error, or +inf for a NaN/inf mismatch; sets `equal`.
template <typename T>
double compare_element(T got, T exp, const tolerance& tol, bool& equal) {
    if constexpr (std::is_floating_point_v<T>) {
        const bool gn = std::isnan(got), en = std::isnan(exp);
        if (gn || en) {
            equal = gn && en;
            return equal ? 0.0 : std::numeric_limits<double>::infinity();
        }
        if (got == exp) {
            equal = true;
            return 0.0;
        }
        if (std::isinf(got) || std::isinf(exp)) {
            equal = false;
            return std::numeric_limits<double>::infinity();
        }
        const double err = std::fabs(static_cast<double>(got) - static_cast<double>(exp));
        equal = err <= tol.atol + tol.rtol * std::fabs(static_cast<double>(exp));
        return err;
    } else {
        equal = got == exp;
        return std::fabs(static_cast<double>(got) - static_cast<double>(exp));
    }
}

template <typename T>
void compare_as(const tensor_desc& t, const unsigned char* got, const unsigned char* exp, const tolerance& tol,
                output_result& r, std::vector<std::string>& first) {
    const std::uint64_t n = t.elements();
    for (std::uint64_t i = 0; i < n; ++i) {
        const T g = load_le<T>(got + i * sizeof(T)), e = load_le<T>(exp + i * sizeof(T));
        bool equal = false;
        const double err = compare_element(g, e, tol, equal);
        ++r.compared;
        if constexpr (std::is_floating_point_v<T>)
            if (!std::isfinite(e) && r.nonfinite_golden++ == 0)
                r.first_nonfinite = fmt::format("{}{}: {}", t.name, format_index(t.shape, i), e);
        if (err > r.max_abs_err) r.max_abs_err = err;
        if (equal) continue;
        ++r.mismatches;
        if (first.size() < comparison::max_reported) {
            if constexpr (sizeof(T) == 1)  // int8_t would print as a character
                first.push_back(fmt::format("  {}{}: got {}, expected {}", t.name, format_index(t.shape, i),
                                            static_cast<int>(g), static_cast<int>(e)));
            else
                first.push_back(fmt::format("  {}{}: got {}, expected {}", t.name, format_index(t.shape, i), g, e));
        }
    }
}

// Integral errors exactly ("1", "700014"), others to 6 significant digits.
std::string number_text(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
    return fmt::format("{:.6g}", v);
}

}  // namespace

output_result compare_tensor(const tensor_desc& t, const unsigned char* got, const unsigned char* expected,
                             const tolerance& tol, std::vector<std::string>& first) {
    output_result r;
    r.name = t.name;
    r.type = t.type;
    r.shape = t.shape;
    r.address = t.address;
    r.expected = t.elements();
    switch (t.type) {
    case element_type::i8: compare_as<std::int8_t>(t, got, expected, tol, r, first); break;
    case element_type::i16: compare_as<std::int16_t>(t, got, expected, tol, r, first); break;
    case element_type::i32: compare_as<std::int32_t>(t, got, expected, tol, r, first); break;
    case element_type::i64: compare_as<std::int64_t>(t, got, expected, tol, r, first); break;
    case element_type::f32: compare_as<float>(t, got, expected, tol, r, first); break;
    case element_type::f64: compare_as<double>(t, got, expected, tol, r, first); break;
    }
    return r;
}

std::uint64_t count_never_written(const tensor_desc& t, const unsigned char* mask) {
    const unsigned es = element_size(t.type);
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i + es <= t.bytes; i += es)
        for (unsigned b = 0; b < es; ++b)
            if (!mask[i + b]) {
                ++n;
                break;
            }
    return n;
}

checkpoint_recorder::checkpoint_recorder(const manifest& m, memory_reader read)
    : m_(m), read_(std::move(read)), snapshots_(m.checkpoints.size()), written_snapshots_(m.checkpoints.size()) {
    // Each checkpoint's bytes and written mask, allocated (and their host
    // pages mapped, by the zero fill) here, before the run: a layer's end
    // then copies into them instead of allocating in the middle of the
    // simulation (each new heap page was a page fault there).
    bytes_.reserve(m.checkpoints.size());
    masks_.reserve(m.checkpoints.size());
    for (const checkpoint_desc& c : m.checkpoints) {
        bytes_.emplace_back(c.bytes);
        masks_.emplace_back(c.bytes);
    }
}

void checkpoint_recorder::region_ended(const std::string& name) {
    if (m_.checkpoints.empty()) return;
    const std::uint64_t n = ++ends_[name];
    for (std::size_t i = 0; i < m_.checkpoints.size(); ++i) {
        const checkpoint_desc& c = m_.checkpoints[i];
        if (c.region != name || c.occurrence != n || snapshots_[i]) continue;
        std::vector<unsigned char>& bytes = bytes_[i];
        // A short read leaves the snapshot short; the comparison says so.
        bytes.resize(c.bytes ? read_(c.address, bytes.data(), c.bytes) : 0);
        snapshots_[i] = std::move(bytes);
        std::vector<unsigned char>& mask = masks_[i];
        if (written_ && c.bytes && written_(c.address, mask.data(), c.bytes)) written_snapshots_[i] = std::move(mask);
    }
}

comparison compare_outputs(const manifest& m, const std::vector<unsigned char>& golden, const memory_reader& read,
                           const checkpoint_recorder* layers, const written_reader* written) {
    comparison c;
    auto note_never_written = [&c](output_result& r) {
        if (r.never_written)
            c.never_written.push_back(
                fmt::format("{}: {} of {} elements never written", r.name, r.never_written, r.expected));
    };
    for (std::size_t i = 0; layers && i < m.checkpoints.size(); ++i) {
        const checkpoint_desc& t = m.checkpoints[i];
        const auto& snap = layers->snapshots()[i];
        if (!snap) {
            c.unreached.push_back(fmt::format("{} (end {} of region '{}')", t.name, t.occurrence, t.region));
            continue;
        }
        if (snap->size() != t.bytes || t.golden_offset + t.bytes > golden.size())
            throw manifest_error(fmt::format("{}: checkpoint '{}': only {} of {} bytes at 0x{:08x} could be read",
                                             m.path, t.name, snap->size(), t.bytes, t.address));
        output_result r = compare_tensor(t, snap->data(), golden.data() + t.golden_offset, m.tolerance_for(t.type),
                                         c.first_mismatches);
        if (const auto& mask = layers->written_snapshots()[i]; mask.size() == t.bytes && t.bytes)
            r.never_written = count_never_written(t, mask.data());
        note_never_written(r);
        r.location = t.location;
        c.layer_compared += r.compared;
        c.layer_expected += r.expected;
        c.layer_mismatches += r.mismatches;
        c.layer_max_abs_err = std::max(c.layer_max_abs_err, r.max_abs_err);
        c.layers.push_back(std::move(r));
    }
    std::vector<unsigned char> buf;
    for (const auto& t : m.outputs) {
        if (t.golden_offset + t.bytes > golden.size())
            throw manifest_error(fmt::format("{}: golden data holds {} bytes, output '{}' needs bytes [{}, {})", m.path,
                                             golden.size(), t.name, t.golden_offset, t.golden_offset + t.bytes));
        buf.assign(t.bytes, 0);
        const std::uint64_t n = t.bytes ? read(t.address, buf.data(), t.bytes) : 0;
        if (n != t.bytes)
            throw manifest_error(fmt::format("{}: output '{}': only {} of {} bytes at 0x{:08x} could be read", m.path,
                                             t.name, n, t.bytes, t.address));
        output_result r =
            compare_tensor(t, buf.data(), golden.data() + t.golden_offset, m.tolerance_for(t.type), c.first_mismatches);
        if (written && *written && t.bytes) {
            std::vector<unsigned char> mask(t.bytes);
            if ((*written)(t.address, mask.data(), t.bytes)) r.never_written = count_never_written(t, mask.data());
        }
        if (llvm::StringRef(t.name).starts_with("loss.step") && t.type == element_type::f32 && t.bytes == 4) {
            comparison::loss_step s{t.name};
            std::memcpy(&s.got, buf.data(), 4);
            std::memcpy(&s.expected, golden.data() + t.golden_offset, 4);
            s.compared = r.compared == 1;
            s.equal = s.compared && r.mismatches == 0;
            if (r.compared) c.loss_max_abs_err = std::max(c.loss_max_abs_err, r.max_abs_err);
            c.losses.push_back(std::move(s));
        }
        note_never_written(r);
        c.compared += r.compared;
        c.expected += r.expected;
        c.mismatches += r.mismatches;
        c.max_abs_err = std::max(c.max_abs_err, r.max_abs_err);
        c.outputs.push_back(std::move(r));
    }
    if (m.outputs.empty())
        c.failure = "a comparison that compared zero elements is a failure: the manifest lists no outputs";
    else if (c.compared == 0)
        c.failure = "a comparison that compared zero elements is a failure: every output has zero elements";
    else if (c.compared != c.expected)
        c.failure = fmt::format("only {} of {} elements were compared", c.compared, c.expected);
    else if (const auto bad = std::find_if(c.outputs.begin(), c.outputs.end(),
                                           [](const output_result& r) { return r.nonfinite_golden != 0; });
             bad != c.outputs.end()) {
        std::uint64_t n = 0;
        for (const auto& r : c.outputs) n += r.nonfinite_golden;
        c.failure = fmt::format("{} element{} of the golden reference {} NaN or infinite (first {}): a reference "
                                "that diverged or overflowed verifies nothing{}",
                                n, n == 1 ? "" : "s", n == 1 ? "is" : "are", bad->first_nonfinite,
                                c.losses.empty() ? "" : " (the training diverged: a smaller --lr?)");
    }
    else if (!c.never_written.empty())
        c.failure = fmt::format("{}", fmt::join(c.never_written, "; "));
    else if (c.mismatches) {
        c.failure = fmt::format("{} of {} elements differ from the golden reference", c.mismatches, c.compared);
        // A training run fails at its first wrong step: the first loss that
        // differs, else the first tensor (the weights after the last step).
        auto bad_loss = std::find_if(c.losses.begin(), c.losses.end(), [](const auto& s) { return !s.equal; });
        auto bad_out = std::find_if(c.outputs.begin(), c.outputs.end(), [](const auto& r) { return r.mismatches; });
        if (bad_loss != c.losses.end())
            c.failure = fmt::format("{} differs first: got {:.6f}, expected {:.6f}", bad_loss->name, bad_loss->got,
                                    bad_loss->expected);
        else if (!c.losses.empty() && bad_out != c.outputs.end())
            c.failure = fmt::format("every loss matches, but {} differs after the last step ({} of {} elements)",
                                    bad_out->name, bad_out->mismatches, bad_out->compared);
    }
    else if (!c.unreached.empty())
        c.failure = fmt::format("the run never reached layer checkpoint {}", c.unreached.front());
    else if (c.layer_mismatches)
        c.failure = fmt::format("the outputs match, but {} of {} elements of the layer checkpoints differ",
                                c.layer_mismatches, c.layer_compared);
    return c;
}

std::string comparison::text() const {
    std::string o;
    // A layer's line ends with where its op came from (the .mlir line, or
    // the ONNX node of an imported model).
    auto line = [](const output_result& r) {
        return fmt::format("  {} ({}[{}] at 0x{:08x}): compared {} of {} elements, {} mismatches, max abs err {}{}{}\n",
                           r.name, element_type_name(r.type), fmt::join(r.shape, "x"), r.address, r.compared,
                           r.expected, r.mismatches, number_text(r.max_abs_err),
                           r.never_written ? fmt::format(", {} never written", r.never_written) : "",
                           r.location.empty() ? "" : " (from " + r.location + ")");
    };
    if (!layers.empty() || !unreached.empty()) {
        o += "per layer (snapshot at the end of the layer's region):\n";
        for (const auto& r : layers) o += line(r);
        for (const auto& u : unreached) o += "  " + u + ": never reached\n";
        o += fmt::format("layers: compared {} of {} elements, {} mismatches, max abs err {}\n", layer_compared,
                         layer_expected, layer_mismatches, number_text(layer_max_abs_err));
        o += "outputs:\n";
    }
    for (const auto& r : outputs) o += line(r);
    o += fmt::format("compared {} of {} elements, {} mismatches, max abs err {}\n", compared, expected, mismatches,
                     number_text(max_abs_err));
    if (!losses.empty()) {
        std::size_t equal = 0, n = 0;
        for (const auto& s : losses) equal += s.equal, n += s.compared;
        o += fmt::format("losses: compared {} of {}, max abs err {}\n", n, losses.size(),
                         number_text(loss_max_abs_err));
        for (const auto& s : losses)
            o += fmt::format("  {}: got {:.6f}, expected {:.6f}{}\n", s.name, s.got, s.expected,
                             s.equal ? "" : "  <- differs");
        if (equal != losses.size()) o += fmt::format("losses: {} of {} differ\n", losses.size() - equal, losses.size());
    }
    for (const auto& l : first_mismatches) o += l + "\n";
    if (mismatches > first_mismatches.size())
        o += fmt::format("  ... and {} more mismatches\n", mismatches - first_mismatches.size());
    o += passed() ? "golden comparison: PASS\n" : "golden comparison: FAIL: " + failure + "\n";
    return o;
}

std::string comparison::json() const {
    auto num = [](double v) -> json::Value {
        if (std::isfinite(v)) return v;
        return nullptr;  // JSON has no inf
    };
    auto result_json = [&num](const output_result& r) {
        json::Array shape;
        for (auto d : r.shape) shape.push_back(static_cast<std::int64_t>(d));
        return json::Object{{"name", r.name},
                            {"element_type", element_type_name(r.type)},
                            {"shape", std::move(shape)},
                            {"address", static_cast<std::int64_t>(r.address)},
                            {"compared", static_cast<std::int64_t>(r.compared)},
                            {"expected", static_cast<std::int64_t>(r.expected)},
                            {"mismatches", static_cast<std::int64_t>(r.mismatches)},
                            {"max_abs_err", num(r.max_abs_err)},
                            {"location", r.location}};
    };
    json::Array outs, lays;
    for (const auto& r : outputs) outs.push_back(result_json(r));
    for (const auto& r : layers) lays.push_back(result_json(r));
    json::Array unreached_json;
    for (const auto& u : unreached) unreached_json.push_back(u);
    json::Array firsts;
    for (const auto& l : first_mismatches) firsts.push_back(llvm::StringRef(l).ltrim().str());
    json::Array never_written_json;
    for (const auto& n : never_written) never_written_json.push_back(n);
    json::Object o{{"compared_outputs", true},
                   {"passed", passed()},
                   {"compared", static_cast<std::int64_t>(compared)},
                   {"expected", static_cast<std::int64_t>(expected)},
                   {"mismatches", static_cast<std::int64_t>(mismatches)},
                   {"max_abs_err", num(max_abs_err)},
                   {"failure", failure},
                   {"outputs", std::move(outs)},
                   {"layers", std::move(lays)},
                   {"unreached_layers", std::move(unreached_json)},
                   {"first_mismatches", std::move(firsts)}};
    // Only when there are any: the --stats of passing runs stay as they were.
    if (!never_written_json.empty()) o["never_written"] = std::move(never_written_json);
    std::string s;
    llvm::raw_string_ostream os(s);
    os << json::Value(std::move(o));
    return os.str();
}

}  // namespace npu::platform
