#!/usr/bin/env bash
# steerd --headless prints the same state_hash for 1, 2 and 4 threads (real processes), and a
# different one for another seed.
set -euo pipefail
steerd=$1
hash_of() { "$steerd" --headless --log-level warn "$@" | grep -o 'state_hash [0-9a-f]*' | tail -n1; }
for scenario in "--scenario default --ticks 300" "--scenario crowd --agents 4000 --ticks 60"; do
  # shellcheck disable=SC2086
  h1=$(hash_of $scenario --seed 5 --threads 1)
  [ -n "$h1" ] || { echo "no state_hash line for: $scenario"; exit 1; }
  for t in 2 4; do
    # shellcheck disable=SC2086
    ht=$(hash_of $scenario --seed 5 --threads $t)
    [ "$ht" = "$h1" ] || { echo "$scenario: threads=$t gave '$ht', threads=1 gave '$h1'"; exit 1; }
  done
  # shellcheck disable=SC2086
  h6=$(hash_of $scenario --seed 6 --threads 2)
  [ "$h6" != "$h1" ] || { echo "$scenario: seed 6 gave the same hash as seed 5"; exit 1; }
  echo "$scenario: $h1 for 1, 2 and 4 threads"
done
