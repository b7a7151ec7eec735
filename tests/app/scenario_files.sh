#!/usr/bin/env bash
# steerd with scenario files, as real processes: every shipped scenario checks clean and runs to
# the same state_hash for 1 and 4 threads; a broken file exits non-zero with FILE:LINE:COL.
set -uo pipefail
steerd=$1
scenarios=$2
fail=0
for f in "$scenarios"/*.txtpb; do
  out=$("$steerd" --check-scenario "$f" 2>&1) || { echo "FAIL: --check-scenario $f: $out"; fail=1; continue; }
  h1=$("$steerd" --scenario "$f" --headless --ticks 200 --threads 1 --log-level warn | tail -n1)
  h4=$("$steerd" --scenario "$f" --headless --ticks 200 --threads 4 --log-level warn | tail -n1)
  [ -n "$h1" ] && [ "$h1" = "$h4" ] || { echo "FAIL: $f: '$h1' (1 thread) vs '$h4' (4 threads)"; fail=1; }
  echo "ok: $f: $out; $h1"
done
bad=$(mktemp --suffix=.txtpb)
trap 'rm -f "$bad"' EXIT
printf 'name: "bad"\nbounds { min { x: 0 y: 0 } max { x: 10 y: 10 }\narchetypes { nme: "a" }\n' >"$bad"
out=$("$steerd" --check-scenario "$bad" 2>&1); rc=$?
if [ $rc -eq 0 ] || ! grep -q "$bad:3:" <<<"$out"; then echo "FAIL: broken file: exit $rc: $out"; fail=1; fi
out=$("$steerd" --scenario "$bad" --headless --ticks 1 2>&1); rc=$?
if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then echo "FAIL: running a broken file exited $rc: $out"; fail=1; fi
out=$("$steerd" --scenario /nonexistent.txtpb --headless --ticks 1 2>&1); rc=$?
if [ $rc -eq 0 ] || ! grep -q "no built-in scenario or readable file" <<<"$out"; then
  echo "FAIL: missing file: exit $rc: $out"; fail=1
fi
exit $fail
