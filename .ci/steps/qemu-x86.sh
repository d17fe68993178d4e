#!/usr/bin/env bash
# CI step: the x86 dispatch paths on emulated CPUs. Runs the full test
# programs of an existing Release build under qemu-x86_64 -cpu Nehalem (no
# AVX: the library must pick sse2 and never execute an AVX instruction) and
# -cpu Haswell (AVX2, FMA, F16C, no AVX-512: it must pick avx2), and checks
# the ISA the library reports on each.
#   .ci/steps/qemu-x86.sh BUILD_DIR      (a Release build of this tree)
# Each CPU runs every test case of bcast_api_tests, bcast_c99_test, the
# ctypes-vs-numpy and quantized Python tests (the interpreter itself runs
# under the emulator too) and bcast_internal_tests; where this host runs
# that ISA natively, without the kernel sweeps that ran in the README test
# stage on it (the [bit-for-bit] comparisons, the long Python sweeps).
# The two CPUs run at the same time, one per core.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
[ -n "${1:-}" ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(realpath "$1")
cd "$src"
source tools/build-modes.sh  # host_kernel_isas

fail() { echo "qemu-x86 step: FAILED: $*" >&2; exit 1; }
step() { echo "== qemu-x86 step: $*"; }

if ! command -v qemu-x86_64 >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends qemu-user
fi
for f in tools/bcast tests/bcast_internal_tests tests/bcast_api_tests tests/bcast_c99_test \
         capi/libbcast.so.1; do
  [ -e "$build/$f" ] || fail "$build/$f is missing: build the tree first"
done
unset BCAST_MAX_ISA  # the CPU alone decides here

emulate() {
  local cpu=$1
  shift
  qemu-x86_64 -cpu "$cpu" "$@"
}

# The partial-shape rules have no CPU-specific code: their random soundness
# search (3,000 cases natively) runs a tenth as long here.
export BCAST_PARTIAL_CASES=300

# One emulated CPU: every check, failing at the first. Both CPUs run at once
# (one core each but for the thread tests), each into its own log, printed
# in order below.
run_cpu() {
  local cpu=$1 want=$2 start=$SECONDS json isa filter pyfilter

  json=$(emulate "$cpu" "$build/tools/bcast" plan --op add --dtype f32 --rule numpy 1000 1000)
  isa=$(sed -n 's/.*"isa":"\([a-z0-9]*\)".*/\1/p' <<<"$json")
  [ "$isa" = "$want" ] || fail "-cpu $cpu: the library picked '$isa', want '$want' ($json)"
  step "-cpu $cpu picks $isa"

  # The bit-for-bit tests of each ISA's kernels against the portable ones
  # test kernels, not dispatch; where this host runs the ISA natively they
  # already ran in the README test stage, and under emulation they took most
  # of this step (Haswell: most of its 556 s, Nehalem: of its 228 s).
  # [host-cpu] tests compare with /proc/cpuinfo, which is the host's here.
  # The Python tests' long kernel sweeps (every byte pair over long lines
  # and runs, every ISA in turn) likewise ran natively on each capped ISA
  # (ctest); emulated they took 230 of Haswell's 311 s of Python.
  filter="~[host-cpu]"
  pyfilter=()
  if [[ ";$(host_kernel_isas);" == *";$want;"* ]]; then
    filter+="~[bit-for-bit]"
    pyfilter=(-k "not long_runs and not long_repeated_rows and not test_each_isa")
  fi
  step "-cpu $cpu: bcast_internal_tests $filter"
  emulate "$cpu" "$build/tests/bcast_internal_tests" "$filter" || fail "-cpu $cpu: bcast_internal_tests"
  step "-cpu $cpu: bcast_api_tests"
  emulate "$cpu" "$build/tests/bcast_api_tests" || fail "-cpu $cpu: bcast_api_tests"
  step "-cpu $cpu: bcast_c99_test"
  emulate "$cpu" "$build/tests/bcast_c99_test" || fail "-cpu $cpu: bcast_c99_test"
  step "-cpu $cpu: python ctypes vs numpy"
  # numpy (the oracle) keeps to its SSE loops: its AVX2 np.maximum crashes
  # under qemu 7.2's Haswell model (numpy alone: np.maximum of float32
  # (2,4,3) and (1,1,1) arrays, SIGSEGV). bcast still runs its AVX2 kernels.
  NPY_DISABLE_CPU_FEATURES="AVX2 FMA3" BCAST_LIBRARY="$build/capi/libbcast.so.1" \
    PYTHONDONTWRITEBYTECODE=1 emulate "$cpu" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
    "${pyfilter[@]}" tests/python/test_ctypes_numpy.py tests/python/test_quantized.py ||
    fail "-cpu $cpu: python ctypes vs numpy"
  step "-cpu $cpu: passed in $((SECONDS - start)) s"
}

logs=$(mktemp -d /tmp/bcast-qemu-x86.XXXXXX)
trap 'rm -rf "$logs"' EXIT
pids=()
for pair in Nehalem:sse2 Haswell:avx2; do
  run_cpu "${pair%%:*}" "${pair#*:}" > "$logs/${pair%%:*}" 2>&1 &
  pids+=($!)
done
failed=()
cpus=(Nehalem Haswell)
for k in "${!pids[@]}"; do wait "${pids[$k]}" || failed+=("${cpus[$k]}"); done
# qemu warns about host CPU features TCG does not model (pcid, x2apic, ...):
# noise for this step, left out of the logs as they are printed.
for cpu in "${cpus[@]}"; do grep -v "TCG doesn't support requested feature" "$logs/$cpu" || true; done
[ ${#failed[@]} -eq 0 ] || fail "-cpu ${failed[*]}: see the log above"
