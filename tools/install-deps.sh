#!/usr/bin/env bash
# Installs the Debian packages bcast builds and tests with (bookworm). Does
# nothing when they are all present; needs root (or sudo) otherwise.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  catch2 libxsimd-dev
  python3 python3-numpy python3-pytest
  python3-dev  # the Python package's extension (python/bcast/_fastcall.c)
  python3-onnx  # ONNX's shape inference: the partial-shape semantics are checked against it
  python3-matplotlib  # draws docs/throughput.png (bench/plot_throughput.py, run by a test)
  binutils
  clang libclang-rt-14-dev  # second compiler: sanitizers, libFuzzer, ThreadSanitizer
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bcast: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
