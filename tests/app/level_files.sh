#!/usr/bin/env bash
# steerd --level on each sample level (a real process, as a user runs it): goals reached, nobody in
# a wall or off the level; --check-scenario refuses a cut-short OBJ and a lying .glb, naming them.
set -uo pipefail
steerd=$1 levels=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lv in building.obj town.gltf yard.tmx; do
  extra=()
  [ "$lv" = town.gltf ] && extra=(--level-blocking 'house*')
  out=$(timeout 120 "$steerd" --headless --level "$levels/$lv" "${extra[@]}" --agents 100 --ticks 600 \
    --threads 2 --report --nav-cache none 2>&1)
  rc=$?
  goals=$(sed -nE 's/^navigation: goals reached ([0-9]+).*/\1/p' <<<"$out")
  inside=$(sed -nE 's/.*inside obstacles or walls: .* ([0-9]+) at the end/\1/p' <<<"$out")
  off=$(sed -nE 's/.*off the walkable area: ([0-9]+) agents at the end/\1/p' <<<"$out")
  if [ $rc -ne 0 ] || [ -z "$goals" ] || [ "$goals" -lt 10 ] || [ "${inside:-1}" != 0 ] || [ "${off:-1}" != 0 ]; then
    echo "FAIL: $lv: exit $rc, goals '${goals}', inside '${inside}', off '${off}'"
    tail -n 5 <<<"$out"
    fail=1
  else
    echo "ok: $lv: $goals goals, nobody inside a wall or off the level"
  fi
done
# A broken OBJ (cut in half, then an index past the end) and a .glb whose length lies.
head -c 2000 "$levels/building.obj" >"$tmp/broken.obj"
printf "\nf 1 2 999999\n" >>"$tmp/broken.obj"
printf 'glTF\x02\x00\x00\x00\xff\xff\xff\x7f' >"$tmp/lying.glb"
for bad in broken.obj lying.glb; do
  out=$(timeout 30 "$steerd" --check-scenario "$tmp/$bad" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] || [ $rc -ge 124 ] || ! grep -q "$bad" <<<"$out"; then
    echo "FAIL: --check-scenario $bad: exit $rc: $out"
    fail=1
  else
    echo "ok: $bad refused: $(head -n1 <<<"$out")"
  fi
done
exit $fail
