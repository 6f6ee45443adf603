// Every file npusim and npuc read (config, ELF, manifest, golden data) passes
// this check before any byte is read: a directory, a device (/dev/zero reads
// forever) or a pipe is refused, and so is a file larger than its limit, so a
// bad path is one clear error instead of an exhausted host.
#pragma once

#include <cstdint>
#include <string>

namespace npu::cfg {

// Limits per input class (docs/robustness.md).
inline constexpr std::uint64_t max_config_file_bytes = 1ull << 20;
inline constexpr std::uint64_t max_manifest_file_bytes = 64ull << 20;
inline constexpr std::uint64_t max_elf_file_bytes = 256ull << 20;
inline constexpr std::uint64_t max_golden_file_bytes = 4ull << 30;
inline constexpr std::uint64_t max_network_file_bytes = 256ull << 20;  // npuc's MLIR input

// "" when `path` is a regular file of at most max_bytes; otherwise why not.
// `what` names the input with its article: "an ELF file" gives "is a
// directory, not an ELF file", "is 5 GiB, over the 256 MiB limit for an ELF
// file", "cannot open ELF file (No such file or directory)".
std::string check_input_file(const std::string& path, std::uint64_t max_bytes, const std::string& what);

}  // namespace npu::cfg
