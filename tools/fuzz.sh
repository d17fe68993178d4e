#!/usr/bin/env bash
# Runs one libFuzzer harness (or all) for a bounded time, in the sanitizer
# build that `tools/test.sh --sanitize` uses (build-asan/, configured and
# built here if needed). The committed corpus is copied, never modified.
#   tools/fuzz.sh NAME SECONDS     NAME: shapes, plan_execute, npy, capi, expr, partial, tuning, or all
# Runs as many harnesses at once as there are cores. Prints the executions of
# each run; exits non-zero on any finding, leaving the crashing input in
# build-asan/fuzz-findings/NAME/ (see docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."

all=(shapes plan_execute npy capi expr partial tuning)
if [ $# -ne 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 NAME SECONDS (NAME: ${all[*]} or all)" >&2
  exit 2
fi
names=("$1")
[ "$1" = all ] && names=("${all[@]}")

source tools/build-modes.sh
build_mode sanitize
tools/install-deps.sh
cmake -S . -B "$dir" -G Ninja "${flags[@]}" > /dev/null
cmake --build "$dir" --target "${names[@]/#/fuzz_}"

# One harness per core at a time (each is single-threaded); the reports are
# printed in the order of the names, whichever run ends first.
fuzz_one() {  # NAME SECONDS REPORT: runs one harness, writes its report
  local name=$1 seconds=$2 report=$3 work findings log
  work=$(mktemp -d /tmp/bcast-fuzz-"$name".XXXXXX)
  cp -r "tests/fuzz/corpus/$name/." "$work/"
  findings="$dir/fuzz-findings/$name"
  mkdir -p "$findings"
  log=$work.log
  {
    echo "== fuzz $name for $seconds s"
    if "$dir/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -print_final_stats=1 \
         -artifact_prefix="$findings/" "$work" > "$log" 2>&1; then
      echo "   $(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}') executions, no finding"
    else
      tail -n 40 "$log"
      echo "   FINDING: see $findings/ ($(ls "$findings" | tr '\n' ' '))"
      echo FAILED > "$report.failed"
    fi
  } > "$report"
  rm -rf "$work" "$log"
}

reports=$(mktemp -d /tmp/bcast-fuzz-reports.XXXXXX)
trap 'rm -rf "$reports"' EXIT
jobs_max=$(nproc)
pids=()
for name in "${names[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  echo "== fuzz $name started ($(date -u +%H:%M:%S))"
  fuzz_one "$name" "$2" "$reports/$name" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for name in "${names[@]}"; do
  if [ ! -e "$reports/$name" ]; then
    echo "   fuzz $name: did not run (see the errors above)" >&2
    status=1
    continue
  fi
  cat "$reports/$name"
  if [ -e "$reports/$name.failed" ]; then
    echo "   FINDING in $name: see $dir/fuzz-findings/$name/" >&2
    status=1
  fi
done
exit $status
