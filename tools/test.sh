#!/usr/bin/env bash
# The README's test command: builds (if needed) and runs the tests with ctest.
#   tools/test.sh              GCC Release build in build/, every test
#   tools/test.sh --sanitize   clang ASan + UBSan (+ libFuzzer instrumentation)
#                              in build-asan/: every test, the fuzz corpora
#                              replayed, allocation-failure injection, leaks
#   tools/test.sh --tsan       clang ThreadSanitizer in build-tsan/: the
#                              thread tests ('threads:')
# Each mode has its own build directory and always configures it with its
# own options, so no other step's cached settings (a build without tests,
# say) can leak in; ctest fails when it finds no test.
set -euo pipefail
cd "$(dirname "$0")/.."

source tools/build-modes.sh
ctest_args=()
case "${1:-}" in
  "") build_mode release ;;
  --sanitize) build_mode sanitize ;;
  --tsan) build_mode tsan; ctest_args=(-R '^threads:') ;;
  *) echo "usage: $0 [--sanitize | --tsan]" >&2; exit 2 ;;
esac

tools/install-deps.sh
cmake -S . -B "$dir" -G Ninja "${flags[@]}"
cmake --build "$dir" ${targets[@]:+--target "${targets[@]}"}
ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$(nproc)" "${ctest_args[@]}"
