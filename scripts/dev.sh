#!/usr/bin/env bash
# The two things a fresh machine needs (see README.md):
#   scripts/dev.sh run   install deps, build, run the tiled-matmul example on gap9
#   scripts/dev.sh test  install deps, build everything, run every test
# BUILD_DIR (default: build) and JOBS (default: 2) can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}

bash scripts/install-deps.sh
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

case "${1:-}" in
  run)
    cmake --build "$BUILD_DIR" -j "$JOBS" --target npusim tiled_matmul
    shift
    exec "$BUILD_DIR/sc_main/npusim" --config configs/gap9.cfg "$@" "$BUILD_DIR/firmware/examples/tiled_matmul.elf"
    ;;
  test)
    cmake --build "$BUILD_DIR" -j "$JOBS"
    cd "$BUILD_DIR"
    exec ctest --output-on-failure -j "$JOBS"
    ;;
  *)
    echo "usage: scripts/dev.sh run|test" >&2
    exit 2
    ;;
esac
