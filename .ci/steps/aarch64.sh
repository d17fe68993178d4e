#!/usr/bin/env bash
# CI step: the NEON kernels on aarch64, cross-compiled and run under qemu.
# Cross-builds a Release tree with cmake/toolchain-aarch64-linux-gnu.cmake,
# runs every test that needs no native Python under qemu-aarch64 (ctest puts
# the toolchain's emulator in front of the test programs), and checks that
# the library chose the NEON kernels there.
#   .ci/steps/aarch64.sh [build-dir]     (default: a temporary one)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src"

fail() { echo "aarch64 step: FAILED: $*" >&2; exit 1; }
step() { echo "== aarch64 step: $*"; }

# The host packages (cmake, ninja, and the header-only catch2 and xsimd the
# cross build reads), then the cross compiler, its C library and qemu.
tools/install-deps.sh
cross=(g++-aarch64-linux-gnu libc6-dev-arm64-cross libstdc++-12-dev-arm64-cross qemu-user)
missing=()
for p in "${cross[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ -n "${1:-}" ]; then
  build=$(realpath -m "$1")
  mkdir -p "$build"
else
  build=$(mktemp -d /tmp/bcast-aarch64.XXXXXX)
  trap 'rm -rf "$build"' EXIT
fi

step "cross-configure and build (Release) in $build"
# The benchmarks are left out: they only time things, which an emulator
# cannot do meaningfully, and their ctest smoke pass runs bcast_bench
# without the emulator.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-aarch64-linux-gnu.cmake" \
  -DBCAST_BUILD_BENCH=OFF > "$build/configure.log" || { cat "$build/configure.log"; fail "configure"; }
cmake --build "$build" -j 2
readelf -h "$build/capi/libbcast.so.1" | grep -q 'Machine: *AArch64' || fail "libbcast.so.1 is not an aarch64 library"

# Left out, because they need a native Python: an x86 python3 cannot dlopen an
# aarch64 libbcast.so.1 (python: ctypes vs numpy, python: package (pytest),
# examples: Python), and test_cli_run.py starts the aarch64 CLI from Python
# without the emulator (cli: run ... (vs numpy)). And the pool's fork test:
# qemu-user cannot run the forked child of a multi-threaded process (its TCG
# asserts, the child exits 127); it runs natively in every other step.
exclude='^python: |^examples: Python$|^cli: run .* \(vs numpy\)$|^threads:a forked child'
for group in '^internal:' '^api:' '^c99:' '^cli:'; do
  count=$(ctest --test-dir "$build" -N -R "$group" -E "$exclude" | sed -n 's/^Total Tests: //p')
  [ "${count:-0}" -gt 0 ] || fail "no tests matching '$group' were registered"
done
step "ctest under qemu-aarch64 (all but: $exclude)"
# The partial-shape rules' random soundness search (3,000 cases natively, 96 s
# emulated) runs a tenth as long: its code has no architecture-specific path.
BCAST_PARTIAL_CASES=300 ctest --test-dir "$build" --output-on-failure --no-tests=error -j 2 -E "$exclude"

# The emulator of the toolchain file, for the checks ctest does not make.
emulator=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
cli=$build/tools/bcast
step "the library chose NEON: bcast plan under qemu-aarch64"
plan=$("${emulator[@]}" "$cli" plan --op add --dtype f32 --rule numpy 64,1000 1000)
echo "$plan"
grep -q '"isa":"neon"' <<< "$plan" || fail "bcast plan did not report \"isa\":\"neon\""
# ... and the cap still works (so the check above can fail).
plan=$(BCAST_MAX_ISA=scalar "${emulator[@]}" "$cli" plan --op add --dtype f32 --rule numpy 64,1000 1000)
grep -q '"isa":"scalar"' <<< "$plan" || fail "BCAST_MAX_ISA=scalar did not give \"isa\":\"scalar\""

echo "aarch64 step: all checks passed"
