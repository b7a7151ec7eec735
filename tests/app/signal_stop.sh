#!/usr/bin/env bash
# The real-time server prints status lines, and SIGINT and SIGTERM each stop it cleanly (exit 0)
# within seconds.
set -uo pipefail
steerd=$1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for signal in INT TERM; do
: >"$log"
"$steerd" --scenario default --status-interval 0.2 --threads 1 --port 0 --metrics-port 0 >"$log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "tick .* agents" "$log" && break; sleep 0.1; done
grep -q "tick .* agents" "$log" || { echo "no status line in 10 s:"; cat "$log"; kill -9 $pid; exit 1; }
kill -$signal $pid
for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then echo "still running 10 s after SIG$signal"; kill -9 $pid; exit 1; fi
wait $pid; rc=$?
[ $rc -eq 0 ] || { echo "exit $rc after SIG$signal"; cat "$log"; exit 1; }
grep -q "stopped cleanly" "$log" || { echo "no 'stopped cleanly' line"; cat "$log"; exit 1; }
echo "SIG$signal: $(grep -c "tick .* agents" "$log") status lines, then stopped cleanly"
done
