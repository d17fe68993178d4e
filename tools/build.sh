#!/usr/bin/env bash
# The README's first command: installs dependencies, builds bcast (Release,
# Ninja) into build/, then runs the main job: the `bcast` CLI resolving the
# spec's examples under each rule and showing one plan.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build

bcast=build/tools/bcast
run() { echo "\$ bcast $*"; "$bcast" "$@" || true; }
run shape --rule numpy 2,1,5 4,1
run shape --rule numpy 3,1,5 4,4,5
run shape --rule pdpd --axis 1 2,3,4,5 3,1
run shape --rule onnx_legacy --axis 0 2,3 2,1
run shape --rule ncnn --ncnn-order 2,3,4 2
run shape --rule unidirectional 2,3,4,5 1,3,1,5
run shape --expand bidirectional 3,1 2,1,6
run plan --op ADD --dtype f32 --rule numpy 8,64,112,112 1,64,1,1
