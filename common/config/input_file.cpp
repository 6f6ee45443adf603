#include "input_file.h"

#include "config.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace npu::cfg {

std::string check_input_file(const std::string& path, std::uint64_t max_bytes, const std::string& what) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return "cannot open " + what + " (" + std::strerror(errno) + ")";
    if (S_ISDIR(st.st_mode)) return "is a directory, not a " + what;
    if (!S_ISREG(st.st_mode)) return "is not a regular file (a device, pipe or socket), not a " + what;
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        return "is " + format_size(static_cast<std::uint64_t>(st.st_size)) + ", over the " + format_size(max_bytes) + " limit for a " + what;
    return "";
}

}  // namespace npu::cfg
