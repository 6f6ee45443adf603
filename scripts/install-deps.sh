#!/usr/bin/env bash
# Installs every build and test dependency of npusim from Debian packages.
# Idempotent: packages already installed are skipped, and apt is not even
# touched when nothing is missing. Works as root or through sudo.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config python3
  libsystemc-dev                      # SystemC 2.3.4 + TLM-2.0
  libboost-program-options-dev libfmt-dev libgtest-dev
  llvm-19-dev llvm-19-tools           # Object/DebugInfo for the ELF loader; lit + FileCheck
  libzstd-dev                         # zstd for LLVM's static LLVMSupport (npusim, NPU_LLVM_STATIC)
  clang-19 lld-19                     # firmware compiler and linker (riscv32)
  libclang-rt-19-dev                  # ASan/UBSan/libFuzzer runtimes (scripts/dev.sh robustness)
  libmlir-19-dev mlir-19-tools        # npuc: libMLIR.so, headers, mlir-tblgen
  picolibc-riscv64-unknown-elf        # C library, rv32imf/ilp32f multilib
  gcc-riscv64-unknown-elf             # libgcc for rv32imf/ilp32f (soft helpers)
  python3-torch python3-numpy         # MLPerf Tiny networks: generator and the PyTorch reference (tests/reference)
  verilator zlib1g-dev                # RTL co-simulation (NPU_RTL, docs/cosim.md); zlib for its FST waveforms
  python3-matplotlib                  # ./npu sweep's plots (docs/architects.md)
  slurm-wlm munge                     # ./npu sweep --backend slurm and its test's one-node Slurm
  gdb-multiarch                       # npusim --gdb, tested with a real debugger (docs/debugging.md)
  libonnx-dev libprotobuf-dev         # npuc's ONNX importer (docs/frontend.md)
  qemu-system-misc                    # qemu-system-riscv32: bench/iss_mips's speed yardstick (docs/cores.md)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
