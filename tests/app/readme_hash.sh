#!/usr/bin/env bash
# README's example headless run prints the state_hash README shows, for 1 and 2 threads (README
# says it is the same for any --threads). tests/world/determinism_test.cpp pins the same hash
# (kReadmeExampleHash): a deliberate change of results updates both, and this keeps README honest.
set -uo pipefail
steerd=$1
readme=$2
# The example: a line running `steerd --headless ...`, then "# ... last line: state_hash HASH".
example=$(grep -B1 'last line: state_hash [0-9a-f]\{16\}' "$readme" | head -n1)
expected=$(grep -o 'last line: state_hash [0-9a-f]\{16\}' "$readme" | head -n1 | awk '{print $4}')
args=$(sed -n 's/.*steerd \(--headless .*\)$/\1/p' <<<"$example")
if [ -z "$expected" ] || [ -z "$args" ] || ! grep -q -- '--threads [0-9]' <<<"$args"; then
  echo "FAIL: no example run with --threads and its state_hash in $readme (line: '$example')"
  exit 1
fi
fail=0
for t in 1 2; do
  # shellcheck disable=SC2001
  run=$(sed "s/--threads [0-9]*/--threads $t/" <<<"$args")
  # shellcheck disable=SC2086
  got=$("$steerd" $run --log-level warn | grep -o 'state_hash [0-9a-f]*' | tail -n1)
  if [ "$got" != "state_hash $expected" ]; then
    echo "FAIL: steerd $run ended in '$got'; README says state_hash $expected"
    fail=1
  else
    echo "ok: steerd $run: $got"
  fi
done
exit $fail
