#!/usr/bin/env bash
# The two things a fresh machine needs (see README.md):
#   scripts/dev.sh run   install deps, build, compile the SimpleMLP (int8) with npuc and
#                        run + verify it on gap9 (./npu run compiler/networks/mlp_int8.mlir)
#   scripts/dev.sh test  install deps, build everything, run every test
#   scripts/dev.sh build install deps, build everything (then ./npu run <net.mlir>)
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
  *)
    echo "usage: scripts/dev.sh run|test|build" >&2
    exit 2
    ;;
esac
