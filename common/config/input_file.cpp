#include "input_file.h"

#include "config.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace npu::cfg {

std::string check_input_file(const std::string& path, std::uint64_t max_bytes, const std::string& what) {
    // `what` comes with its article ("an ELF file"); "cannot open" goes without.
    const std::string noun = what.substr(what.rfind("a ", 0) == 0 ? 2 : what.rfind("an ", 0) == 0 ? 3 : 0);
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return "cannot open " + noun + " (" + std::strerror(errno) + ")";
    if (S_ISDIR(st.st_mode)) return "is a directory, not " + what;
    if (!S_ISREG(st.st_mode)) return "is not a regular file (a device, pipe or socket), not " + what;
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        return "is " + format_size(static_cast<std::uint64_t>(st.st_size)) + ", over the " + format_size(max_bytes) +
               " limit for " + what;
    return "";
}

}  // namespace npu::cfg
