// An installed npuc (cmake --install; cmake/NpuInstall.cmake) links with the
// SDK installed beside it, not with the build tree it was compiled in: when
// <prefix>/lib/npusim/firmware/crt0.o exists next to <prefix>/bin/npuc, every
// path option the command line left at its build-tree default moves there.
#pragma once

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <string>

namespace npuc {

struct SdkPath {
  llvm::cl::opt<std::string> &option;
  const char *relative; // to the prefix
};

inline void useInstalledSdk(const char *argv0, void *mainAddr,
                            std::initializer_list<SdkPath> paths) {
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0, mainAddr);
  llvm::SmallString<256> prefix(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::SmallString<256> marker(prefix);
  llvm::sys::path::append(marker, "lib/npusim/firmware/crt0.o");
  if (exe.empty() || !llvm::sys::fs::exists(marker))
    return; // running from the build tree
  for (const SdkPath &p : paths) {
    if (p.option.getNumOccurrences())
      continue;
    llvm::SmallString<256> full(prefix);
    llvm::sys::path::append(full, p.relative);
    p.option = std::string(full);
  }
}

} // namespace npuc
