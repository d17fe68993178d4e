#!/usr/bin/env bash
# The dynamic exports of a libbcast.so, one per line, sorted: every function
# as name@@BCAST_1.0, plus the version node itself.
#   abi/exports.sh LIB           print the list (how abi/exports.txt is made)
#   abi/exports.sh --check LIB   fail, showing a diff, unless it equals abi/exports.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

list() { nm -D --defined-only "$1" | awk '{ print $NF }' | LC_ALL=C sort; }

if [ "${1:-}" = "--check" ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --check LIB" >&2; exit 2; }
  exports=$(list "$2")
  if ! diff -u "$here/exports.txt" - <<<"$exports"; then
    echo "abi: the exports of $2 differ from abi/exports.txt (-committed +built)." >&2
    echo "abi: if the change is intended, run tools/update-abi-baseline.sh and commit abi/." >&2
    exit 1
  fi
  echo "abi: $(wc -l <<<"$exports") exports, exactly abi/exports.txt"
else
  [ $# -eq 1 ] || { echo "usage: $0 [--check] LIB" >&2; exit 2; }
  list "$1"
fi
