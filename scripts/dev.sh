#!/usr/bin/env bash
# The two things a fresh machine needs (see README.md):
#   scripts/dev.sh run   install deps, build, compile the SimpleMLP (int8) with npuc and
#                        run + verify it on gap9 (./npu run compiler/networks/mlp_int8.mlir)
#   scripts/dev.sh test  install deps, build everything, run every test
#   scripts/dev.sh build install deps, build everything (then ./npu run <net.mlir>)
#   scripts/dev.sh robustness  ASan+UBSan build in $ASAN_BUILD_DIR (default build-asan, clang-19,
#                        no MLIR compiler): the simulator's and firmware tests under the sanitizers,
#                        then every fuzzer for FUZZ_SECONDS (default 45) each; npuc's fuzzers
#                        (MLIR, ONNX) in $FUZZ_NPUC_BUILD_DIR (default build-fuzz-npuc) (docs/robustness.md)
# BUILD_DIR (default: build) and JOBS (default: 2) can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}

bash scripts/install-deps.sh
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

case "${1:-}" in
  run)
    cmake --build "$BUILD_DIR" -j "$JOBS" --target npusim npuc
    shift
    NPU_BUILD_DIR="$BUILD_DIR" exec ./npu run compiler/networks/mlp_int8.mlir --config configs/gap9.cfg "$@"
    ;;
  test)
    cmake --build "$BUILD_DIR" -j "$JOBS"
    cd "$BUILD_DIR"
    exec ctest --output-on-failure -j "$JOBS"
    ;;
  build)
    cmake --build "$BUILD_DIR" -j "$JOBS"
    ;;
  robustness)
    ASAN_BUILD_DIR=${ASAN_BUILD_DIR:-build-asan}
    CC=clang-19 CXX=clang++-19 cmake -S . -B "$ASAN_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DNPU_SANITIZE=ON -DNPU_FUZZ=ON >/dev/null
    cmake --build "$ASAN_BUILD_DIR" -j "$JOBS"
    # SystemC's QuickThreads coroutines announce their stack switches to ASan
    # (weak __sanitizer_*_switch_fiber), so nothing is suppressed. Fake stacks
    # for use-after-return are off for memory and time; leak checking is off
    # for the simulations because a run ends with SystemC threads suspended
    # mid-function, their locals' heap blocks referenced only from coroutine
    # stacks LeakSanitizer does not scan (docs/robustness.md). The fuzzers
    # (no SystemC) keep it on.
    export ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=0:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    # npuc is not built here: its lit/e2e tests, the Python references and every test
    # labelled npuc (e.g. rtl.mlp_*.compare, which compile with npuc) are the main build's.
    (cd "$ASAN_BUILD_DIR" && ctest --output-on-failure -j "$JOBS" -E '^(npuc|reference)' -LE '^npuc$')
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 bash scripts/fuzz-smoke.sh "$ASAN_BUILD_DIR" "${FUZZ_SECONDS:-45}"
    # npuc's input (MLIR text, ONNX): coverage + ASan + UBSan on npuc's own code,
    # libMLIR.so uninstrumented, in a build dir of its own.
    FUZZ_NPUC_BUILD_DIR=${FUZZ_NPUC_BUILD_DIR:-build-fuzz-npuc}
    CC=clang-19 CXX=clang++-19 cmake -S . -B "$FUZZ_NPUC_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DNPU_FUZZ_NPUC=ON -DNPU_RTL=OFF >/dev/null
    cmake --build "$FUZZ_NPUC_BUILD_DIR" -j "$JOBS" --target npuc-fuzzers
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 bash scripts/fuzz-smoke.sh "$FUZZ_NPUC_BUILD_DIR" "${FUZZ_SECONDS:-45}" mlir onnx
    ;;
  *)
    echo "usage: scripts/dev.sh run|test|build|robustness" >&2
    exit 2
    ;;
esac
