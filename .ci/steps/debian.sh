#!/usr/bin/env bash
# CI step: build the Debian packages (libbcast1, libbcast-dev, bcast-tools,
# python3-bcast)
# from a copy of the tree with dpkg-buildpackage, require lintian to report no
# errors, install them, then build tests/install/consumer.c against the
# installed packages with pkg-config alone, run the installed CLI and the
# issue's Python command against the installed module. The
# packages are purged again at the end. Needs root (or sudo) for apt.
#   .ci/steps/debian.sh
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "debian step: FAILED: $*" >&2; exit 1; }
step() { echo "== debian step: $*"; }
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

step "build dependencies"
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends dpkg-dev debhelper lintian pkg-config gcc
$sudo apt-get build-dep -y -qq "$src"

tmp=$(mktemp -d /tmp/bcast-debian.XXXXXX)
packages=(libbcast1 libbcast-dev bcast-tools python3-bcast)
cleanup() {
  $sudo apt-get purge -y -qq "${packages[@]}" > /dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# dpkg-buildpackage writes next to the source directory: build in a copy,
# without the version control data and build trees.
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
tree=$tmp/bcast-${version%-*}
mkdir "$tree"
tar -C "$src" --exclude-vcs --exclude='./build*' --exclude='__pycache__' -cf - . | tar -C "$tree" -xf -

step "dpkg-buildpackage -us -uc -b"
(cd "$tree" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b)
changes=$(ls "$tmp"/bcast_*.changes)

step "lintian (errors fail, warnings are listed)"
lintian --fail-on error --display-info "$changes" || fail "lintian reported errors"

step "install the packages"
debs=()
for p in "${packages[@]}"; do debs+=("$(ls "$tmp/${p}_"*.deb)"); done
$sudo apt-get install -y -qq "${debs[@]}"

step "consumer.c against the installed packages, with pkg-config alone"
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
cc -std=c99 -Wall -Wextra -Werror "$src/tests/install/consumer.c" $(pkg-config --cflags --libs bcast) \
  -o "$tmp/consumer"
LD_BIND_NOW=1 "$tmp/consumer"
# shellcheck disable=SC2046
cc -std=c99 -static "$src/tests/install/consumer.c" $(pkg-config --static --cflags --libs bcast) \
  -o "$tmp/consumer_static"
"$tmp/consumer_static"

step "bcast shape --rule numpy 2,1,5 4,1"
out=$(bcast shape --rule numpy 2,1,5 4,1)
echo "$out"
[ "$out" = "(2,4,5)" ] || fail "bcast printed '$out', expected (2,4,5)"
step "python3 -c 'import bcast ...' from the installed python3-bcast"
# From an empty directory with no BCAST_LIBRARY, so only the installed module
# and the system's libbcast.so.1 can be found. Debian's python3, not a
# user-installed one on PATH.
out=$(cd "$tmp" && env -u BCAST_LIBRARY -u PYTHONPATH /usr/bin/python3 -c \
  "import bcast, numpy as np; print(bcast.add(np.ones((2,3,4,5),'f4'), np.ones((3,1),'f4'), rule='pdpd', axis=1).shape)")
echo "$out"
[ "$out" = "(2, 3, 4, 5)" ] || fail "python printed '$out', expected (2, 3, 4, 5)"
where=$(cd "$tmp" && env -u PYTHONPATH /usr/bin/python3 -c "import bcast; print(bcast.__file__)")
case "$where" in
  /usr/lib/python3/dist-packages/bcast/*) echo "imported from $where" ;;
  *) fail "bcast was imported from $where, not the package" ;;
esac
# The package's compiled call path is installed and used (bcast/_extension.py).
fastcall=$(cd "$tmp" && env -u PYTHONPATH -u BCAST_EXTENSION /usr/bin/python3 -c \
  "from bcast import _extension; print(_extension.fastcall.__file__)") \
  || fail "the installed bcast runs without its extension bcast._fastcall"
echo "compiled call path: $fastcall"
echo "debian step: packages built, lintian clean of errors, installed and used"
