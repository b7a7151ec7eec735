#!/usr/bin/env bash
# steer-viewer's operator panel against a real steerd, under Xvfb. With --allow-control, two
# --operator-spawn (a pursuer on open ground, a boid inside an obstacle) and --operator-send, the
# screenshot run exits 0 after every result came: the panel's log has the subscription,
# "spawned pursuer #N at (120.0, 100.0)", "error: spawn.position: inside an obstacle" and
# "#N moving to (100.0, 80.0)", and the new agent is the selection, drawn. Without --allow-control the panel is
# not offered and --operator-spawn with --screenshot exits 1 saying why. Exit 77 (skipped)
# without xvfb-run.
set -uo pipefail
steerd=$1
viewer=$2
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
# shellcheck source=../lib/xvfb_viewer.sh
. "$(dirname "$0")/../lib/xvfb_viewer.sh"
command -v xvfb-run >/dev/null 2>&1 || { echo "SKIP: xvfb-run is not installed (Debian: xvfb)"; exit 77; }

tmp=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
view() { xvfb_viewer "$tmp" "$viewer" --width 1000 --height 700 --screenshot "$tmp/shot.png" --after 1 "$@"; }

# 1. Control granted: both spawns answered, the good one selected and drawn.
start_steerd "$tmp/server.log" --allow-control || exit 1
view --server "127.0.0.1:$port" --operator-spawn pursuer@120,100 --operator-spawn boid@25,197 \
  --operator-send 100,80 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "with control: steer-viewer exited $rc:"; cat "$tmp/err"; exit 1; }
[ -s "$tmp/shot.png" ] || { echo "with control: no screenshot written"; cat "$tmp/err"; exit 1; }
grep -q '^operator_lines 4 errors 1$' "$tmp/out" ||
  { echo "with control: expected 4 log lines, 1 error:"; cat "$tmp/out"; exit 1; }
grep -q '^operator listening for spawned, despawned, arrived' "$tmp/out" ||
  { echo "with control: no subscription line:"; cat "$tmp/out"; exit 1; }
spawned=$(sed -n 's/^operator spawned pursuer #\([0-9][0-9]*\) at (120.0, 100.0)$/\1/p' "$tmp/out")
[ -n "$spawned" ] || { echo "with control: no 'spawned pursuer #N' line:"; cat "$tmp/out"; exit 1; }
grep -q '^operator error: spawn.position: inside an obstacle' "$tmp/out" ||
  { echo "with control: no error line for the spawn inside an obstacle:"; cat "$tmp/out"; exit 1; }
grep -q "^operator #$spawned moving to (100.0, 80.0)$" "$tmp/out" ||
  { echo "with control: no 'moving to' line for --operator-send:"; cat "$tmp/out"; exit 1; }
grep -q "^inspected $spawned " "$tmp/out" ||
  { echo "with control: the new pursuer #$spawned is not the selection:"; cat "$tmp/out"; exit 1; }
read -r _ drawn _ server <<<"$(grep '^drawn_entities ' "$tmp/out")"
[ "${drawn:-0}" = "${server:-x}" ] && [ "$server" -gt 1 ] 2>/dev/null ||
  { echo "with control: drew $drawn of the server's $server entities"; exit 1; }
echo "with control: pursuer #$spawned spawned, selected and sent; $(grep '^operator error' "$tmp/out")"
stop_steerd

# 2. No control role: the panel is not offered, and a scripted spawn cannot happen.
start_steerd "$tmp/server.log" || exit 1
rm -f "$tmp/shot.png"
view --server "127.0.0.1:$port" --operator-spawn pursuer@120,100 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "without control: exit $rc"; cat "$tmp/err"; exit 1; }
grep -q -- "--operator-spawn: .* does not grant this viewer control" "$tmp/err" ||
  { echo "without control: unclear message:"; cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/shot.png" ] || { echo "without control: a screenshot was written anyway"; exit 1; }
echo "without control: exit $rc: $(grep 'operator-spawn' "$tmp/err")"
