#!/usr/bin/env bash
# The whole test suite, again and again, with every core held by a busy loop in another process:
# a test that fails once under load is a bug to find, and this is how they are found.
#
#   scripts/stress-tests.sh [--runs N] [--jobs J] [--build-dir DIR] [--preset P] [-- CTEST ARGS...]
#
#   --runs N       suite runs (default 20); every one must pass
#   --jobs J       ctest -j (default: the number of cores)
#   --load K       busy loops beside the suite (default: the number of cores)
#   --preset P     build preset (default ci); the suite is built first (scripts/build.sh)
#   anything after -- goes to ctest (e.g. -R Replay to stress a few tests)
#
# Writes build/stress/<date>/run-N.log for each run and summary.txt (each run's result, the
# failed tests by name with how often). Exit 0 when every run passed, 1 when any failed, 2 on a
# usage error. Ctrl-C stops the suite and the busy loops.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=20
jobs=$(nproc)
load=$(nproc)
preset=ci
ctest_args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) runs=${2:-}; shift 2 ;;
    --jobs) jobs=${2:-}; shift 2 ;;
    --load) load=${2:-}; shift 2 ;;
    --preset) preset=${2:-}; shift 2 ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "stress-tests.sh: unknown flag $1 (--help)" >&2; exit 2 ;;
  esac
done
for v in "$runs" "$jobs" "$load"; do
  [[ $v =~ ^[0-9]+$ ]] || { echo "stress-tests.sh: --runs, --jobs and --load take whole numbers" >&2; exit 2; }
done
[[ $runs -ge 1 && $jobs -ge 1 ]] || { echo "stress-tests.sh: --runs and --jobs must be at least 1" >&2; exit 2; }

scripts/build.sh "$preset"
out=build/stress/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"

loops=()
stop_load() {
  for p in "${loops[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${loops[@]}"; do wait "$p" 2>/dev/null || true; done
  loops=()
}
trap 'stop_load; exit 130' INT TERM
trap stop_load EXIT
for _ in $(seq "$load"); do
  # A busy loop in its own process: the suite competes for every core, as on a loaded CI machine.
  bash -c 'while :; do :; done' &
  loops+=($!)
done
echo "stress: $runs suite runs, ctest -j$jobs, $load busy loop(s) beside them; logs in $out"

passed=0
: >"$out/failures.txt"
for i in $(seq "$runs"); do
  start=$(date +%s)
  if ctest --preset "$preset" -j"$jobs" --output-on-failure "${ctest_args[@]}" >"$out/run-$i.log" 2>&1; then
    passed=$((passed + 1))
    verdict=pass
  else
    verdict=FAIL
    # ctest's summary lists each failed test as "<n> - <name> (Failed)".
    sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) .*/\1/p' "$out/run-$i.log" >>"$out/failures.txt"
  fi
  line="run $i/$runs: $verdict ($(grep -o '[0-9]* tests failed out of [0-9]*\|100% tests passed, 0 tests failed out of [0-9]*' "$out/run-$i.log" | tail -n1), $(($(date +%s) - start)) s)"
  echo "$line" | tee -a "$out/summary.txt"
done
{
  echo "passed $passed of $runs runs"
  if [[ -s $out/failures.txt ]]; then
    echo "failed tests (times):"
    sort "$out/failures.txt" | uniq -c | sort -rn
  fi
} | tee -a "$out/summary.txt"
[[ $passed -eq $runs ]]
