#!/usr/bin/env bash
# Builds steerd with GCC (build/gcc-release) and Clang (build/clang-release), Release both, and
# checks that the two give the same world: the headless state hash of every shipped scenario, the
# built-in default and a 2,000-agent crowd, with 1 and 2 threads, equal between compilers (and
# between thread counts). Box2D v3 holds its determinism across compilers; so must steerd.
#
#   scripts/compilers.sh [--ticks N] [--tests]
#
#   --ticks N   ticks per run (default 300)
#   --tests     also build the test suite with Clang and run it (ctest -j, much longer)
#
# Exit 0: every hash equal; 1: a difference (the runs that differ are printed); 2: usage or build.
set -euo pipefail
cd "$(dirname "$0")/.."
ticks=300
tests=0
while [ $# -gt 0 ]; do
  case $1 in
    --ticks) ticks=${2:-}; shift 2 ;;
    --tests) tests=1; shift ;;
    *) echo "usage: scripts/compilers.sh [--ticks N] [--tests]" >&2; exit 2 ;;
  esac
done
[[ $ticks =~ ^[0-9]+$ ]] && [ "$ticks" -gt 0 ] || { echo "scripts/compilers.sh: --ticks needs a positive number" >&2; exit 2; }
extra=()
command -v clang++ >/dev/null 2>&1 || extra+=(clang)
STEERD_EXTRA_PACKAGES="${extra[*]}" scripts/deps.sh
jobs=$(nproc)
build() {  # DIR CC CXX
  local t=(--target steerd)
  [ $tests -eq 1 ] && [ "$2" = clang ] && t=()
  CC=$2 CXX=$3 cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DSTEERD_BUILD_BENCH=OFF \
    -DSTEERD_BUILD_TESTS=$([ $tests -eq 1 ] && [ "$2" = clang ] && echo ON || echo OFF) >/dev/null ||
    { echo "scripts/compilers.sh: cmake failed for $2" >&2; exit 2; }
  cmake --build "$1" "${t[@]}" -j "$jobs" >"$1.log" 2>&1 ||
    { tail -n 30 "$1.log"; echo "scripts/compilers.sh: $2 build failed (log: $1.log)" >&2; exit 2; }
}
build build/gcc-release gcc g++
build build/clang-release clang clang++
echo "GCC $(g++ -dumpfullversion), Clang $(clang++ -dumpversion); $ticks ticks a run"

runs=("--scenario default" "--scenario crowd --agents 2000")
for f in scenarios/*.txtpb; do runs+=("--scenario $f"); done
bad=0
for run in "${runs[@]}"; do
  line=""
  first=""
  for threads in 1 2; do
    for compiler in gcc clang; do
      # shellcheck disable=SC2086
      h=$("build/$compiler-release/server/app/steerd" --headless $run --ticks "$ticks" --threads "$threads" \
        2>/dev/null | sed -n 's/^state_hash \([0-9a-f]*\)$/\1/p')
      [ -n "$h" ] || h=none
      [ -n "$first" ] || first=$h
      line+=" $compiler/$threads:$h"
      [ "$h" = "$first" ] && [ "$h" != none ] || bad=1
    done
  done
  printf '%-44s %s\n' "${run#--scenario }" "$line"
done
if [ $tests -eq 1 ]; then
  ctest --test-dir build/clang-release -j "$jobs" --output-on-failure || bad=1
fi
[ $bad -eq 0 ] && echo "every hash equal between GCC and Clang, 1 and 2 threads" && exit 0
echo "hashes differ (or a run failed): see the lines above"
exit 1
