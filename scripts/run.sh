#!/usr/bin/env bash
# Quick start, part 1: installs what is missing, builds Release, and runs the server on its
# built-in default scenario with something watching it:
#   - with a display ($DISPLAY or $WAYLAND_DISPLAY) and the viewer built: steer-viewer, where you
#     move a player (WASD/arrows) that the NPCs react to and click an NPC to inspect it (the
#     server then runs with --allow-debug, local and for you only);
#   - otherwise: steer-loadtest with 20 simulated players, printing what they see every second.
# The server prints a status line every second. Extra arguments go to steerd (e.g.
# scripts/run.sh --scenario crowd --agents 100000). Ctrl-C stops everything.
#   STEERD_WATCH=none scripts/run.sh    runs the server alone.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release steerd steer-loadtest
watch=${STEERD_WATCH:-auto}
viewer=build/release/client-viewer/viewer/steer-viewer
if [ "$watch" = auto ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  # The viewer is skipped by CMake when SDL2 or Dear ImGui is missing; then players are simulated.
  scripts/build.sh release steer-viewer 2>/dev/null || true
  [ -x "$viewer" ] && watch=viewer || watch=players
elif [ "$watch" = auto ]; then
  watch=players
fi

steerd=build/release/server/app/steerd
if [ "$watch" = none ]; then
  exec "$steerd" "$@"
fi

# The server on free ports (logged), so a second copy or another service on 7777 does not clash.
# The viewer's inspector needs the debug stream.
debug=()
[ "$watch" = viewer ] && debug=(--allow-debug)
log=$(mktemp)
"$steerd" --port 0 --metrics-port 0 "${debug[@]}" "$@" 2> >(tee "$log" >&2) &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$log"' EXIT
port="" metrics=""
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on udp [^ ]*:\([0-9]*\) .*/\1/p' "$log" | head -n1)
  metrics=$(sed -n 's/.*metrics on http:\/\/[^ ]*:\([0-9]*\)\/metrics.*/\1/p' "$log" | head -n1)
  [ -n "$port" ] && [ -n "$metrics" ] && break
  kill -0 "$server" 2>/dev/null || { echo "steerd exited; see its messages above" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "steerd did not report its port" >&2; exit 1; }
echo "steerd: game port udp $port, metrics http://127.0.0.1:$metrics/metrics" >&2

if [ "$watch" = viewer ]; then
  "$viewer" --server "127.0.0.1:$port"
else
  build/release/client-viewer/loadtest/steer-loadtest --server "127.0.0.1:$port" \
    --metrics "127.0.0.1:$metrics" --players 20 --ramp 10 --duration 86400 --pattern chase
fi
