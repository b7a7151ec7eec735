#!/bin/bash
# Thread scaling of the tick, and the players one server holds with the load tester on the same
# machine: the figures for a many-core machine (docs/PERFORMANCE.md, "Thread scaling").
#
#   scripts/scaling.sh [ticks|players|all]     (default all)
#
#   ticks    steerd --headless on the crowd at 100,000 agents (full rate) and at 1,000,000 with
#            level of detail and 100 bots, on 1, 2, 4, ... up to the machine's cores: ms a tick
#            (steerd's own mean, set-up excluded) and the state hash, which must be the same for
#            every thread count.
#   players  steer-loadtest --find-capacity against steerd on the same machine, half the cores
#            each (SERVER_THREADS= and TESTER_THREADS= to split them otherwise): the default
#            scenario, then the 10,000-agent crowd with --interest-radius 100. MAX_PLAYERS=, STEP=
#            and HOLD= (seconds a step) size the search.
#
# Binaries: build/release (scripts/bench.sh builds it), or STEERD= and LOADTEST= as commands.
set -u
cd "$(dirname "$0")/.."
mode=${1:-all}
steerd=${STEERD:-build/release/server/app/steerd}
loadtest=${LOADTEST:-build/release/client-viewer/loadtest/steer-loadtest}
cores=$(nproc)
status=0

threads_list() {
  local t=1
  while [ "$t" -lt "$cores" ]; do
    echo "$t"
    t=$((t * 2))
  done
  echo "$cores"
}

# One headless run: prints "ms_per_tick state_hash".
tick_run() {
  local out
  out=$($steerd --headless "$@" 2>&1) || { echo "steerd $* failed: $(echo "$out" | tail -n 2)" >&2; return 1; }
  local ms hash
  ms=$(echo "$out" | sed -n 's/.* ticks: mean \([0-9.]*\) ms.*/\1/p' | tail -n 1)
  hash=$(echo "$out" | sed -n 's/^state_hash \(.*\)/\1/p' | tail -n 1)
  echo "$ms $hash"
}

scale() {
  local label=$1
  shift
  echo "== $label =="
  printf '%8s %12s %10s %s\n' threads ms/tick speed-up state_hash
  local first_ms="" first_hash="" t ms hash
  for t in $(threads_list); do
    read -r ms hash < <(tick_run "$@" --threads "$t") || { status=1; continue; }
    [ -z "$first_ms" ] && first_ms=$ms && first_hash=$hash
    printf '%8s %12s %10s %s\n' "$t" "$ms" "$(python3 -c "print(round($first_ms/$ms,2))")" "$hash"
    if [ "$hash" != "$first_hash" ]; then
      echo "  state hash differs from 1 thread's: NOT deterministic" >&2
      status=1
    fi
  done
  echo
}

players() {
  local label=$1 half=$(( cores / 2 > 1 ? cores / 2 : 1 ))
  local server_threads=${SERVER_THREADS:-$half} tester_threads=${TESTER_THREADS:-$half}
  shift
  local port=$((20000 + RANDOM % 20000)) metrics
  metrics=$((port + 1))
  echo "== players held: $label (server --threads $server_threads, tester --threads $tester_threads, same machine) =="
  $steerd --threads "$server_threads" --max-clients 5000 --port "$port" --metrics-port "$metrics" --status-interval 0 \
    "$@" >/tmp/scaling-server.log 2>&1 &
  local pid=$!
  sleep 2
  $loadtest --server "127.0.0.1:$port" --metrics "127.0.0.1:$metrics" --threads "$tester_threads" --find-capacity \
    --players "${MAX_PLAYERS:-4000}" --capacity-step "${STEP:-250}" --ramp 500 --duration "${HOLD:-8}" \
    --max-tick-p99-ms 33 --max-snapshot-interval-p99-ms 150 --quiet 2>&1 | tail -n 25
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  echo
}

echo "machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
if [ "$mode" = all ] || [ "$mode" = ticks ]; then
  scale "crowd 100,000 agents, full rate, 300 ticks" --scenario crowd --agents 100000 --ticks 300 --seed 1
  scale "crowd 1,000,000 agents, level of detail, 100 bots, 80 ticks" \
    --scenario crowd --agents 1000000 --bots 100 --ticks 80 --seed 1
fi
if [ "$mode" = all ] || [ "$mode" = players ]; then
  players "default scenario"
  players "crowd 10,000 agents, interest radius 100 m" --scenario crowd --agents 10000 --interest-radius 100
fi
exit $status
