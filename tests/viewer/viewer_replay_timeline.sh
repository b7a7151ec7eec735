#!/usr/bin/env bash
# steer-viewer on a served replay (steerd --replay FILE --serve) under Xvfb: the replay bar's
# scripted controls seek forward and pause (--replay-seek 120 --replay-pause): the screenshot is
# taken standing at tick 120 in epoch 1, with every entity drawn; a second viewer seeks back to
# tick 30 (the replay rebuilt from its start: epoch 2) and is drawn there whole too. Against a live
# server --replay-seek exits 1 saying it is not a served replay. Exit 77 (skipped) without xvfb-run.
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
fail() { echo "FAIL: $*"; for f in "$tmp"/*.txt "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done; exit 1; }
view() { xvfb_viewer "$tmp" "$viewer" "$@"; }

# A recording of 150 ticks (5 s of play, NPCs only).
start_steerd "$tmp/record.log" --record "$tmp/s.rec" --ticks 150 || fail "the recording server did not start"
wait "$pid"
rc=$?
pid=
[ $rc -eq 0 ] || fail "the recording server exited $rc"

start_steerd "$tmp/serve.log" --replay "$tmp/s.rec" --serve || fail "steerd --replay --serve did not start"
view --width 1000 --height 700 --screenshot "$tmp/shot.png" --after 1 --server "127.0.0.1:$port" \
  --replay-seek 120 --replay-pause >"$tmp/out1.txt" 2>"$tmp/err1.txt"
rc=$?
[ $rc -eq 0 ] || fail "seek forward: steer-viewer exited $rc"
[ -s "$tmp/shot.png" ] || fail "seek forward: no screenshot"
grep -q '^replay tick 120 first 0 last 150 paused 1 speed 1 epoch 1 ended 0 render_tick 120.0$' "$tmp/out1.txt" ||
  fail "seek forward: not standing at tick 120 in epoch 1"
read -r _ drawn _ server <<<"$(grep '^drawn_entities ' "$tmp/out1.txt")"
[ "${drawn:-0}" = "${server:-x}" ] && [ "$server" -gt 1 ] 2>/dev/null || fail "seek forward: drew $drawn of $server"

rm -f "$tmp/shot.png"
view --width 1000 --height 700 --screenshot "$tmp/shot.png" --after 1 --server "127.0.0.1:$port" \
  --replay-seek 30 >"$tmp/out2.txt" 2>"$tmp/err2.txt"
rc=$?
[ $rc -eq 0 ] || fail "seek back: steer-viewer exited $rc"
grep -q '^replay tick 30 first 0 last 150 paused 1 speed 1 epoch 2 ended 0 render_tick 30.0$' "$tmp/out2.txt" ||
  fail "seek back: not standing at tick 30 in epoch 2"
read -r _ drawn _ server <<<"$(grep '^drawn_entities ' "$tmp/out2.txt")"
[ "${drawn:-0}" = "${server:-x}" ] && [ "$server" -gt 1 ] 2>/dev/null || fail "seek back: drew $drawn of $server"
kill -0 "$pid" 2>/dev/null || fail "steerd --serve exited while paused"
stop_steerd
echo "seek forward: tick 120, epoch 1, $drawn entities drawn; seek back: tick 30, epoch 2"

# A live server is not a replay: the scripted seek cannot happen, and the run says so.
start_steerd "$tmp/live.log" || fail "live steerd did not start"
rm -f "$tmp/shot.png"
view --width 600 --height 400 --screenshot "$tmp/shot.png" --after 0.5 --server "127.0.0.1:$port" \
  --replay-seek 10 >"$tmp/out3.txt" 2>"$tmp/err3.txt"
rc=$?
[ $rc -eq 1 ] || fail "against a live server: exit $rc (want 1)"
grep -q "replay standing where --replay-seek" "$tmp/err3.txt" || fail "against a live server: no clear message"
[ -e "$tmp/shot.png" ] && fail "against a live server: a screenshot was taken"
echo "against a live server: $(grep -o 'no replay standing[^;]*' "$tmp/err3.txt" | head -n1)"
