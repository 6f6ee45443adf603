#!/usr/bin/env bash
# Hunts the rare heap corruption in docs/robustness.md ("Open finding"):
# runs fuzz_mlir of a build WITHOUT ASan on glibc's malloc with its debug
# checks, recording every input before it runs (NPU_FUZZ_RECORD: the last 64
# are kept, since glibc's abort leaves libFuzzer no chance to save one, and
# the writer may be an earlier input than the one that aborts). When the run
# stops on anything, the recorded inputs are replayed in order, in one
# process, under valgrind, whose report names the invalid write and its stack.
#   scripts/fuzz-heap-hunt.sh BUILD_DIR [SECONDS]   (default 3600)
# BUILD_DIR: configured with -DNPU_FUZZ_NPUC=ON -DNPU_FUZZ_NPUC_ASAN=OFF
# (clang-19), target fuzz_mlir. Output in BUILD_DIR/fuzz/heap-hunt: fuzz.log,
# record/ (the ring), corpus/ (scratch corpus, kept between runs),
# valgrind.log. Exit 0: the run ended on time without a finding; 1: a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:?usage: scripts/fuzz-heap-hunt.sh BUILD_DIR [SECONDS]}
SECS=${2:-3600}
bin="$BUILD/fuzz/fuzz_mlir"
work="$BUILD/fuzz/heap-hunt"
rm -rf "$work/record"
mkdir -p "$work/record" "$work/corpus"
debug_malloc=/lib/x86_64-linux-gnu/libc_malloc_debug.so.0
[ -r "$debug_malloc" ] || { echo "fuzz-heap-hunt: $debug_malloc missing (glibc >= 2.34)" >&2; exit 2; }
echo "fuzz-heap-hunt: fuzz_mlir for ${SECS}s, log $work/fuzz.log"
status=0
# No SEGV/abort handlers: a SEGV inside malloc (a corrupt free list) holds
# the arena lock, and the handlers allocate, so the process would hang.
# malloc check 3: a guard byte after each block, checked on free, and abort
# with a message; perturb fills allocated and freed blocks, so a read of
# freed memory sees garbage instead of stale data.
NPU_FUZZ_RECORD="$work/record" LD_PRELOAD="$debug_malloc" MALLOC_CHECK_=3 \
  GLIBC_TUNABLES=glibc.malloc.check=3:glibc.malloc.perturb=165 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:handle_segv=0:handle_abort=0 \
  "$bin" "$work/corpus" fuzz/corpus/mlir -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
  -max_len=65536 -artifact_prefix="$work/" -print_final_stats=1 -handle_segv=0 -handle_bus=0 \
  -handle_abrt=0 >"$work/fuzz.log" 2>&1 || status=$?
if [ "$status" = 0 ]; then
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$work/fuzz.log" | tr '\n' ' '
  echo
  exit 0
fi
echo "fuzz-heap-hunt: fuzz_mlir stopped (exit $status):" >&2
grep -E "malloc|free\(|corrupt|ERROR|runtime error|==[0-9]+==|#[0-9]+ " "$work/fuzz.log" | head -20 >&2
# The ring's names carry the input's number: replay in the order they ran.
mapfile -t ring < <(ls "$work/record" | sort -t- -k3,3n | sed "s|^|$work/record/|")
echo "fuzz-heap-hunt: replaying the last ${#ring[@]} inputs under valgrind ($work/valgrind.log)" >&2
# valgrind gives up on clang-19's DWARF 5 ("Possibly corrupted debuginfo
# file"): it gets a copy without it (stacks keep the symbol names).
llvm-objcopy-19 --strip-debug "$bin" "$work/fuzz_mlir.nodebug"
if valgrind --error-exitcode=9 "$work/fuzz_mlir.nodebug" "${ring[@]}" >"$work/valgrind.log" 2>&1; then
  echo "fuzz-heap-hunt: valgrind saw no error in the replay" >&2
else
  grep -E -A25 "Invalid (write|read)|Conditional jump|uninitialised" "$work/valgrind.log" | head -60 >&2
fi
exit 1
