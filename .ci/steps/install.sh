#!/usr/bin/env bash
# CI step: install bcast into a temporary prefix and use it the ways users do:
# (a) a C program through pkg-config, shared and fully static; (b) a CMake
# project through find_package(bcast CONFIG REQUIRED); (c) dlopen from Python
# ctypes with RTLD_LOCAL; (d) runs with LD_BIND_NOW=1. Also checks what was
# installed: SONAME and links, no RPATH, a BCAST_1.x node on every export, no xsimd.
#   .ci/steps/install.sh [build-dir]     (default: build; built if needed)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$src/build}")
cd "$src"

tools/install-deps.sh
fail() { echo "install step: FAILED: $*" >&2; exit 1; }
step() { echo "== install step: $*"; }

tmp=$(mktemp -d /tmp/bcast-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix"

pc=$(find "$prefix" -path '*/pkgconfig/bcast.pc')
[ -n "$pc" ] || fail "no bcast.pc installed"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir bcast)
[ "$(pkg-config --variable=prefix bcast)" = "$prefix" ] || fail "bcast.pc prefix is not $prefix"
version=$(pkg-config --modversion bcast)

step "installed files"
for f in "$prefix/include/bcast/bcast.h" "$libdir/libbcast.so.$version" "$libdir/libbcast.a" \
         "$libdir/cmake/bcast/bcastConfig.cmake" "$libdir/cmake/bcast/bcastConfigVersion.cmake"; do
  [ -f "$f" ] || fail "missing $f"
done
[ "$(readlink "$libdir/libbcast.so.1")" = "libbcast.so.$version" ] || fail "libbcast.so.1 link"
[ "$(readlink "$libdir/libbcast.so")" = "libbcast.so.1" ] || fail "libbcast.so link"
readelf -d "$libdir/libbcast.so.$version" | grep -q 'Library soname: \[libbcast.so.1\]' \
  || fail "SONAME is not libbcast.so.1"
for f in "$libdir/libbcast.so.$version" "$prefix/bin/bcast"; do
  [ -f "$f" ] || continue
  if readelf -d "$f" | grep -E 'RPATH|RUNPATH'; then fail "$f has an RPATH"; fi
done
# Every defined dynamic symbol is under a version node BCAST_1.x (objdump -T:
# version column); which node is the ABI step's business (abi/exports.txt).
unversioned=$(objdump -T "$libdir/libbcast.so.$version" | awk '$2 == "g" && $4 != "*UND*" && $6 !~ /^BCAST_1\.[0-9]+$/')
[ -z "$unversioned" ] || fail "exports outside the BCAST_1.x nodes:"$'\n'"$unversioned"
if grep -ril xsimd "$libdir/cmake/bcast" "$pc" "$prefix/include"; then
  fail "xsimd appears in the installed interface"
fi

cc=${CC:-cc}
consumer=tests/install/consumer.c
step "(a) C program with pkg-config --cflags --libs bcast"
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
"$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror "$consumer" \
  $(pkg-config --cflags --libs bcast) -o "$tmp/consumer_shared"
readelf -d "$tmp/consumer_shared" | grep -q 'NEEDED.*\[libbcast.so.1\]' || fail "not linked to libbcast.so.1"
LD_LIBRARY_PATH=$libdir "$tmp/consumer_shared"

step "(a) C program with pkg-config --static, linked statically (libbcast.a, C++ runtime from Libs.private)"
# shellcheck disable=SC2046
"$cc" -std=c99 -static "$consumer" $(pkg-config --static --cflags --libs bcast) -o "$tmp/consumer_static"
if readelf -d "$tmp/consumer_static" 2>/dev/null | grep -q NEEDED; then fail "static consumer has NEEDED entries"; fi
"$tmp/consumer_static"

step "(b) CMake project with find_package(bcast CONFIG REQUIRED)"
cmake -S tests/install/cmake_consumer -B "$tmp/cmake_consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$tmp/cmake_consumer.log" \
  || { cat "$tmp/cmake_consumer.log"; fail "configuring the CMake consumer"; }
cmake --build "$tmp/cmake_consumer"
ctest --test-dir "$tmp/cmake_consumer" --output-on-failure --no-tests=error
if readelf -d "$tmp/cmake_consumer/consumer_static" | grep -q 'NEEDED.*libbcast'; then
  fail "bcast::bcast_static linked libbcast.so"
fi

step "(c) dlopen from Python ctypes with RTLD_LOCAL"
LD_LIBRARY_PATH=$libdir /usr/bin/python3 - "$version" <<'PY'
import ctypes, os, sys
lib = ctypes.CDLL("libbcast.so.1", mode=os.RTLD_LOCAL)
lib.bcast_version.restype = ctypes.c_uint32
lib.bcast_version_string.restype = ctypes.c_char_p
major, minor, patch = (int(x) for x in sys.argv[1].split("."))
got = lib.bcast_version()
if got != major * 10000 + minor * 100 + patch or lib.bcast_version_string().decode() != sys.argv[1]:
    sys.exit(f"bcast_version() = {got}, expected {sys.argv[1]}")
print(f"python ctypes: bcast_version() = {got}")
PY

step "(d) LD_BIND_NOW=1"
LD_BIND_NOW=1 LD_LIBRARY_PATH=$libdir "$tmp/consumer_shared"
LD_BIND_NOW=1 "$tmp/cmake_consumer/consumer_static"
if [ -x "$prefix/bin/bcast" ]; then
  out=$(LD_BIND_NOW=1 LD_LIBRARY_PATH=$libdir "$prefix/bin/bcast" shape --rule numpy 2,1,5 4,1)
  [ "$out" = "(2,4,5)" ] || fail "installed bcast CLI printed '$out'"
fi
LD_BIND_NOW=1 LD_LIBRARY_PATH=$libdir /usr/bin/python3 -c \
  'import ctypes, os; ctypes.CDLL("libbcast.so.1", mode=os.RTLD_LOCAL).bcast_version()'

echo "install step: all checks passed"
