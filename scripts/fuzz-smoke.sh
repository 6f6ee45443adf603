#!/usr/bin/env bash
# Runs every libFuzzer target of a -DNPU_FUZZ=ON build for a bounded time on
# its seed corpus (fuzz/corpus/<name>). New inputs go to a scratch corpus in
# the build dir, never into the repository; a crash leaves its input in
# <build>/fuzz/artifacts and fails the run (turn it into a regression test:
# docs/robustness.md).
#   scripts/fuzz-smoke.sh BUILD_DIR [SECONDS_PER_TARGET [TARGET...]]
# (default 45 s; targets: elf config manifest of a -DNPU_FUZZ=ON build; give
# "mlir onnx" for a -DNPU_FUZZ_NPUC=ON build). fuzz_onnx's seeds are written
# into the build dir by fuzz/gen_onnx_seeds.py, the others' are in the repo.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:?usage: scripts/fuzz-smoke.sh BUILD_DIR [SECONDS [TARGET...]]}
SECS=${2:-45}
shift $(( $# < 2 ? $# : 2 ))
TARGETS=${*:-elf config manifest}
mkdir -p "$BUILD/fuzz/artifacts"
# UBSan findings abort (-fno-sanitize-recover); leaks are findings too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for name in $TARGETS; do
  bin="$BUILD/fuzz/fuzz_$name"
  work="$BUILD/fuzz/corpus-$name"
  seeds="fuzz/corpus/$name"
  mkdir -p "$work"
  # npuc's targets link the uninstrumented libMLIR.so: LLVM's BumpPtrAllocator
  # poisons its slabs from our (instrumented) inline code and libMLIR's
  # copy hands the memory out without unpoisoning it, and std containers'
  # overflow annotations exist on one side only; both would be false reports.
  # Real overflows of our code's heap objects are still caught.
  asan=$ASAN_OPTIONS
  case $name in
    mlir | onnx) asan=$ASAN_OPTIONS:allow_user_poisoning=0:detect_container_overflow=0 ;;
  esac
  if [ "$name" = onnx ]; then
    seeds="$BUILD/fuzz/seeds-onnx"
    /usr/bin/python3 fuzz/gen_onnx_seeds.py "$seeds"
  fi
  echo "fuzz-smoke: fuzz_$name for ${SECS}s"
  if ! ASAN_OPTIONS=$asan "$bin" "$work" "$seeds" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
       -max_len=65536 -artifact_prefix="$BUILD/fuzz/artifacts/$name-" -print_final_stats=1 \
       >"$BUILD/fuzz/fuzz_$name.log" 2>&1; then
    echo "fuzz-smoke: fuzz_$name FOUND A CRASH (log: $BUILD/fuzz/fuzz_$name.log)" >&2
    tail -40 "$BUILD/fuzz/fuzz_$name.log" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$BUILD/fuzz/fuzz_$name.log" | tr '\n' ' '
    echo
  fi
done
exit $status
