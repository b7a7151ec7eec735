#!/usr/bin/env bash
# steer-viewer's states overlay against a real steerd (--allow-debug) running hide-and-seek, under
# Xvfb: with --overlay states the screenshot waits for the first list of brain states, and every
# agent with a brain on screen (10 hiders and the hunter) is listed and drawn in its state's
# colour, in at least two states ("calm/..." and the hunter's). Without --allow-debug the viewer
# still exits 0, with nothing listed. Exit 77 (skipped) without xvfb-run.
set -uo pipefail
steerd=$1
viewer=$2
scenarios=$3
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
# shellcheck source=../lib/xvfb_viewer.sh
. "$(dirname "$0")/../lib/xvfb_viewer.sh"
command -v xvfb-run >/dev/null 2>&1 || { echo "SKIP: xvfb-run is not installed (Debian: xvfb)"; exit 77; }

tmp=$(mktemp -d)
pid=
cleanup() {
  stop_steerd
  rm -rf "$tmp"
}
trap cleanup EXIT

start_steerd "$tmp/server.log" --allow-debug --scenario "$scenarios/hide-and-seek.txtpb" || exit 1
xvfb_viewer "$tmp" "$viewer" --server "127.0.0.1:$port" --screenshot "$tmp/shot.png" --after 1 \
  --width 900 --height 700 --overlay states >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "steer-viewer exited $rc:"; cat "$tmp/err"; exit 1; }
line=$(grep '^brain_states ' "$tmp/out")
[ -n "$line" ] || { echo "no 'brain_states ...' line:"; cat "$tmp/out" "$tmp/err"; exit 1; }
read -r _ _ listed _ states _ coloured <<<"$line"
echo "$line"
grep '^state ' "$tmp/out"
[ "$listed" -eq 11 ] || { echo "expected the 10 hiders and the hunter listed, got $listed"; exit 1; }
[ "$coloured" -eq "$listed" ] || { echo "$coloured entities drawn in a state's colour, $listed listed"; exit 1; }
[ "$states" -ge 2 ] || { echo "expected at least two states, got $states"; exit 1; }
stop_steerd

# A server without --allow-debug: nothing to wait for, nothing listed, still a screenshot.
start_steerd "$tmp/server2.log" --scenario "$scenarios/hide-and-seek.txtpb" || exit 1
xvfb_viewer "$tmp" "$viewer" --server "127.0.0.1:$port" --screenshot "$tmp/shot2.png" --after 1 \
  --width 900 --height 700 --overlay states >"$tmp/out2" 2>"$tmp/err2"
rc=$?
[ $rc -eq 0 ] || { echo "steer-viewer (no debug) exited $rc:"; cat "$tmp/err2"; exit 1; }
line=$(grep '^brain_states ' "$tmp/out2")
read -r _ _ listed _ <<<"$line"
[ "${listed:-x}" = 0 ] || { echo "a server without --allow-debug listed states: '$line'"; exit 1; }
echo "without --allow-debug: $line"
echo "all good"
