#!/usr/bin/env bash
# CI step: the ABI gate. Builds libbcast.so.1 with debug info and compares it
# with the committed baseline: abidiff against abi/libbcast.abi (functions,
# their parameter and return types, SONAME, symbol versions) and nm -D against
# abi/exports.txt. ANY difference fails, additions included: an intended ABI
# change updates abi/ in the same commit (tools/update-abi-baseline.sh).
# Then against every released version's ABI (abi/released/): additions only.
#   .ci/steps/abi.sh [build-dir]            check (build-dir default: a temporary one)
#   .ci/steps/abi.sh --update [build-dir]   rewrite abi/libbcast.abi and abi/exports.txt
# An existing build-dir must be Release with -DBCAST_ABI_DEBUG_INFO=ON and is not
# reconfigured; a new one is configured here (library only).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src"
mode=check
if [ "${1:-}" = "--update" ]; then mode=update; shift; fi

fail() { echo "abi step: FAILED: $*" >&2; exit 1; }
tools/install-deps.sh
if ! command -v abidiff > /dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends abigail-tools
fi

if [ -n "${1:-}" ]; then
  build=$(realpath -m "$1")
else
  build=$(mktemp -d /tmp/bcast-abi.XXXXXX)
  trap 'rm -rf "$build"' EXIT
fi
# The release build, with debug info on the C API boundary: abidw/abidiff read
# the exported functions' types from it. An existing build (tools/test.sh's
# build/) is checked as it is, never reconfigured: other steps use it too.
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
if [ -f "$build/CMakeCache.txt" ]; then
  [ "$(cached CMAKE_BUILD_TYPE)" = Release ] || fail "$build is not a Release build"
  [ "$(cached BCAST_ABI_DEBUG_INFO)" = ON ] || fail "$build lacks -DBCAST_ABI_DEBUG_INFO=ON"
else
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBCAST_ABI_DEBUG_INFO=ON \
    -DBCAST_BUILD_TESTS=OFF -DBCAST_BUILD_TOOLS=OFF -DBCAST_BUILD_BENCH=OFF > /dev/null
fi
cmake --build "$build" --target bcast
lib=$build/capi/libbcast.so.1
# abidiff 2.2 ignores --fail-no-debug-info and would compare symbols only.
readelf -S "$lib" | grep -q '\.debug_info' || fail "$lib has no debug info"

if [ "$mode" = update ]; then
  # Only what the public header declares, no source locations: the file
  # changes only when the ABI does.
  abidw --headers-dir include/bcast --drop-private-types --exported-interfaces-only \
    --no-corpus-path --no-comp-dir-path --no-show-locs --type-id-style hash \
    --out-file abi/libbcast.abi "$lib"
  abi/exports.sh "$lib" > abi/exports.txt
  echo "abi step: wrote abi/libbcast.abi and abi/exports.txt; review 'git diff abi/' and commit them"
  exit 0
fi

rc=0
abidiff --headers-dir2 include/bcast --drop-private-types --exported-interfaces-only \
  abi/libbcast.abi "$lib" || rc=$?
if [ "$rc" -ne 0 ]; then
  # abidiff's exit status is a bit set: 1 error, 2 usage, 4 ABI change,
  # 8 incompatible change (e.g. a removed function: 12).
  echo "abi step: abidiff exited $rc: the ABI differs from abi/libbcast.abi." >&2
  echo "abi step: if intended, run tools/update-abi-baseline.sh and commit abi/ with the change." >&2
  exit 1
fi
abi/exports.sh --check "$lib"
echo "abi step: libbcast.so.1 matches abi/libbcast.abi and abi/exports.txt"

# Every released version's ABI (abi/released/<version>/, kept as released):
# the library may only add to it. abidiff against it may report additions
# (exit 4) but no removed or changed function (exit 12, or a non-zero
# "Removed"/"Changed" count), and every export it had is still there.
for released in abi/released/*/; do
  version=$(basename "$released")
  rc=0
  report=$(abidiff --headers-dir2 include/bcast --drop-private-types --exported-interfaces-only \
    "$released/libbcast.abi" "$lib") || rc=$?
  echo "$report" | sed -n '/Functions changes summary/p;/Variables changes summary/p'
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ]; then
    echo "$report" >&2
    fail "abidiff against released $version exited $rc: not an addition only"
  fi
  if echo "$report" | grep -Eq '[1-9][0-9]* (Removed|Changed)'; then
    echo "$report" >&2
    fail "a function of released $version was removed or changed"
  fi
  missing=$(LC_ALL=C comm -23 "$released/exports.txt" <(abi/exports.sh "$lib"))
  [ -z "$missing" ] || fail "exports of released $version are gone: $missing"
  echo "abi step: against released $version: additions only"
done
