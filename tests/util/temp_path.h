// Scratch files of a test process: a path under gtest's TempDir, unique per
// process (ctest runs test cases in parallel processes), removed when the
// process ends, so the suite leaves nothing behind in /tmp.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace npu::test {

// TempDir()/<pid>_<name>; every path handed out is removed at exit.
inline std::string temp_path(const std::string& name) {
    struct registry {
        std::vector<std::string> paths;
        ~registry() {
            for (const auto& p : paths) std::remove(p.c_str());
        }
    };
    static registry files;
    std::string path = ::testing::TempDir() + "/" + std::to_string(getpid()) + "_" + name;
    files.paths.push_back(path);
    return path;
}

}  // namespace npu::test
