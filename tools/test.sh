#!/usr/bin/env bash
# The README's test command: builds (if needed) and runs every test with ctest.
#   tools/test.sh              Release build in build/
#   tools/test.sh --sanitize   AddressSanitizer + UBSan build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."

dir=build
# -g on the C API objects only, so the ABI gate can reuse this build.
flags=(-DCMAKE_BUILD_TYPE=Release -DBCAST_ABI_DEBUG_INFO=ON)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug -DBCAST_SANITIZE=ON)
fi

tools/install-deps.sh
cmake -S . -B "$dir" -G Ninja "${flags[@]}"
cmake --build "$dir"
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
