// The platform configuration shared by npusim and npuc.
//
// One schema declares every key (type, default, unit, constraints, meaning);
// INI files and command-line overrides are validated against it before any
// model is built, so a typo or a bad unit is an error naming the key and the
// file:line, never a silently ignored setting. This library depends on
// neither SystemC nor MLIR so the compiler and the simulator read sizes and
// addresses from exactly the same code.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace npu::cfg {

enum class value_kind {
    size,        // bytes: 64KiB, 1.5MiB, 4096, 0x1000
    address,     // 32-bit bus address: 0x1C000000
    time,        // ps ns us ms s
    frequency,   // Hz kHz MHz GHz
    cycles,      // plain integer number of clock cycles
    count,       // plain integer
    boolean,     // true/false, on/off, yes/no, 1/0
    choice,      // one of a fixed set of words
    name_list,   // comma-separated names
    text,        // free text
};

const char* kind_name(value_kind k);

struct key_decl {
    std::string key;          // "section.name"
    value_kind kind;
    std::string default_value;
    std::string description;
    bool power_of_two = false;
    bool nonzero = false;
    std::uint64_t min = 0;
    std::uint64_t max = UINT64_MAX;
    std::vector<std::string> choices;  // for value_kind::choice
    // false: the key changes how fast a run goes or how it is watched, never
    // what the firmware was compiled against (addresses, sizes, counts), so it
    // is left out of the config fingerprint: a compiled manifest runs with
    // any value of it (`npusim --manifest m.json --l2.latency=20`).
    bool fingerprinted = true;
};

// Where a value came from, for error messages.
struct source_loc {
    std::string file;  // "<default>", "<command line>" or a path
    int line = 0;
    std::string str() const;
};

// Every configuration problem is a config_error whose message names the key
// and where it was set. npusim and npuc map it to the bad-input exit code.
class config_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class config;

class schema {
public:
    key_decl& add(key_decl d);
    const key_decl* find(const std::string& key) const;
    const std::vector<key_decl>& keys() const { return keys_; }
    void exclude_from_fingerprint(const std::string& key);
    // Markdown reference of every key (docs/config.md is this text).
    std::string markdown() const;
    // Checks between keys (a value valid alone, wrong with another key's),
    // run by config::load after the file and the overrides: every entry
    // point (npusim's run, --fingerprint, --dump-config and --print-map,
    // npuc, ./npu sweep's up-front check) refuses such a config the same way.
    void set_cross_check(std::function<void(const config&)> check) { cross_check_ = std::move(check); }
    void cross_check(const config& c) const {
        if (cross_check_) cross_check_(c);
    }

private:
    std::vector<key_decl> keys_;
    std::function<void(const config&)> cross_check_;
    std::map<std::string, std::size_t> index_;
};

// The schema of the platform: every key any model or the compiler reads.
const schema& platform_schema();

// Unit parsing; each throws config_error with `what` in the message.
std::uint64_t parse_size(const std::string& text, const std::string& what);
std::uint64_t parse_integer(const std::string& text, const std::string& what);
std::uint64_t parse_time_ps(const std::string& text, const std::string& what);
std::uint64_t parse_frequency_hz(const std::string& text, const std::string& what);
bool parse_boolean(const std::string& text, const std::string& what);
std::vector<std::string> parse_name_list(const std::string& text);

// Of the keys that together cause an error, the one to name: the user's
// latest word (command line over file over default), so a bad override is
// blamed rather than the file value it collides with. Ties go to the first.
std::string blame(const config& c, std::initializer_list<std::string> keys);

// Pretty "128 KiB" style size for reports.
std::string format_size(std::uint64_t bytes);
// A schema bound (key_decl::max) in the unit of its kind: "64 B", "1 s", "100 GHz".
std::string format_bound(value_kind kind, std::uint64_t v);

class config {
public:
    // Reads `file` (INI, sections become key prefixes) if not empty, then
    // applies "key=value" overrides. Throws config_error on the first problem.
    static config load(const std::string& file, const std::vector<std::string>& overrides,
                       const schema& s = platform_schema());

    // Typed getters; the key must be declared with the matching kind.
    std::uint64_t size(const std::string& key) const;
    std::uint32_t address(const std::string& key) const;
    std::uint64_t time_ps(const std::string& key) const;
    std::uint64_t frequency_hz(const std::string& key) const;
    std::uint64_t cycles(const std::string& key) const;
    std::uint64_t count(const std::string& key) const;
    bool boolean(const std::string& key) const;
    const std::string& choice(const std::string& key) const;
    std::vector<std::string> names(const std::string& key) const;
    const std::string& text(const std::string& key) const;

    const std::string& raw(const std::string& key) const;
    const source_loc& where(const std::string& key) const;
    const std::string& file() const { return file_; }
    // Canonical "key = value" text of every key, sorted: what a run used.
    std::string dump() const;
    // Stable 64-bit fingerprint of the effective configuration, so a
    // manifest compiled for one config is refused by another.
    std::uint64_t fingerprint() const;

    // Error naming the key and where its value was set.
    [[noreturn]] void fail(const std::string& key, const std::string& msg) const;

private:
    struct entry {
        std::string value;
        source_loc loc;
        std::uint64_t number = 0;  // parsed numeric value, when numeric
    };
    const entry& get(const std::string& key, value_kind kind) const;
    void set(const key_decl& d, const std::string& value, const source_loc& loc);

    const schema* schema_ = nullptr;
    std::string file_;
    std::map<std::string, entry> values_;
};

}  // namespace npu::cfg
