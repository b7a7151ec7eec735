#!/usr/bin/env bash
# steerd --agones against a recording SDK sidecar (agones_sidecar.py: the Agones 1.x REST SDK with
# GET /gameserver and the /watch/gameserver stream). Four matches, each a real steerd process:
#   1. Ready, players refused before allocation, the allocation's steerd.dev/scenario loaded,
#      players tracked in the "players" List, Shutdown when empty, exit 0;
#   2. --match-time-limit: Shutdown after it; a scenario the allocation may not name is refused;
#   3. SIGTERM while waiting for allocation: Shutdown, exit 0;
#   4. --agones-allocate-on-connect: the first player Allocates the server.
# Usage: agones_lifecycle.sh STEERD STEER-LOADTEST SCENARIO_DIR
set -uo pipefail
steerd=$1
loadtest=$2
scenarios=$3
tmp=$(mktemp -d)
sidecar= server=
trap 'kill $sidecar $server 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
check() { # check CONDITION_MESSAGE COMMAND...
  local what=$1
  shift
  "$@" || { echo "FAIL ($match): $what"; fail=1; }
}
start_sidecar() { # start_sidecar DIR: a fresh recording sidecar
  mkdir -p "$1"
  python3 "$(dirname "$0")/agones_sidecar.py" "$1/calls" "$1/port" "$1/allocate" &
  sidecar=$!
  for _ in $(seq 200); do [ -s "$1/port" ] && return 0; sleep 0.05; done
  echo "FAIL: the sidecar did not start"
  exit 1
}
wait_log() { # wait_log FILE PATTERN SECONDS
  for _ in $(seq $(($3 * 10))); do grep -qs "$2" "$1" && return 0; sleep 0.1; done
  echo "FAIL ($match): no '$2' in the log within $3 s:"
  tail -n 20 "$1"
  return 1
}
metric() { # metric PORT NAME: the value of a plain series
  curl -s "127.0.0.1:$1/metrics" | awk -v n="$2" '$1 == n { print $2 }'
}
ports() { # ports LOG: sets $port and $metrics_port from steerd's log
  port=$(sed -n 's/.*listening on udp [^ ]*:\([0-9][0-9]*\).*/\1/p' "$1" | head -n1)
  metrics_port=$(sed -n 's/.*metrics on http:\/\/[^ ]*:\([0-9][0-9]*\)\/metrics.*/\1/p' "$1" | head -n1)
}
players() { # players N SECONDS: simulated players against the running server
  "$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$metrics_port" --players "$1" \
    --duration "$2" --quiet --report "$tmp/$match.report.json" >"$tmp/$match.loadtest.log" 2>&1
}
start_server() { # start_server DIR ARGS...: steerd --agones against the sidecar in DIR
  local dir=$1
  shift
  AGONES_SDK_HTTP_PORT=$(cat "$dir/port") "$steerd" --agones --agones-health-interval 0.2 --port 0 \
    --metrics-port 0 --threads 1 --status-interval 0 --scenario-dir "$scenarios" "$@" >"$dir/log" 2>&1 &
  server=$!
}
finish() { # finish DIR: the server must exit 0 by itself within 60 s
  local rc=124
  for _ in $(seq 600); do
    kill -0 "$server" 2>/dev/null || { wait "$server"; rc=$?; break; }
    sleep 0.1
  done
  [ $rc -eq 0 ] || { echo "FAIL ($match): steerd exited $rc"; tail -n 20 "$1/log"; fail=1; kill "$server" 2>/dev/null; }
  server=
  kill "$sidecar" 2>/dev/null
  wait "$sidecar" 2>/dev/null
  sidecar=
}
order() { # order DIR PATTERN...: the first call matching each pattern comes in this order
  local last=0 n
  for p in "${@:2}"; do
    n=$(grep -n -m1 -- "$p" "$1/calls" | cut -d: -f1)
    [ -n "$n" ] || { echo "FAIL ($match): no call '$p'"; return 1; }
    [ "$n" -gt "$last" ] || { echo "FAIL ($match): '$p' came before what precedes it"; return 1; }
    last=$n
  done
}

# 1. The whole match.
match=allocated
d=$tmp/1
start_sidecar "$d"
start_server "$d" --scenario default --shutdown-when-empty 1
wait_log "$d/log" "refusing players until allocated" 30 || exit 1
ports "$d/log"
ready=$(curl -s -o /dev/null -w '%{http_code}' "127.0.0.1:$metrics_port/readyz")
check "/readyz is 503 before the allocation (got $ready)" [ "$ready" = 503 ]
players 1 2
refused=$(metric "$metrics_port" steerd_refusals_total)
check "a player before the allocation is refused (refusals: $refused)" [ "${refused:-0}" -ge 1 ]
echo '{"steerd.dev/scenario": "yard"}' >"$d/allocate"
wait_log "$d/log" "allocated: scenario .*yard.txtpb" 30 || fail=1
wait_log "$d/log" "steerd: scenario .*yard.txtpb" 30 || fail=1
ready=$(curl -s -o /dev/null -w '%{http_code}' "127.0.0.1:$metrics_port/readyz")
check "/readyz is 200 once allocated (got $ready)" [ "$ready" = 200 ]
players 2 3
connects=$(metric "$metrics_port" steerd_connects_total)
check "two players admitted after the allocation (connects: $connects)" [ "${connects:-0}" -ge 2 ]
finish "$d"
check "calls in lifecycle order" order "$d" "^POST /ready" "^ALLOCATED" "^POST /v1beta1/lists/players:addValue" \
  "^POST /v1beta1/lists/players:removeValue" "^POST /shutdown"
check "watching the GameServer before its allocation" order "$d" "^GET /watch/gameserver" "^ALLOCATED"
check "Health pings while waiting for the allocation" order "$d" "^POST /health" "^ALLOCATED"
adds=$(grep -c "players:addValue" "$d/calls")
removes=$(grep -c "players:removeValue" "$d/calls")
check "each admitted player added to and removed from the List ($adds, $removes)" test "$adds" -ge 2 -a "$adds" = "$removes"
check "player count label" grep -q 'PUT /metadata/label {"key":"players","value":"2"}' "$d/calls"
check "Shutdown is the last call" [ "$(tail -n1 "$d/calls" | cut -d' ' -f2)" = /shutdown ]
echo "1. calls: $(cut -d' ' -f1,2 "$d/calls" | sort | uniq -c | tr -s ' ' | paste -sd, -)"

# 2. The match's time limit; an allocation naming a path outside --scenario-dir.
match=time-limit
d=$tmp/2
start_sidecar "$d"
echo '{"steerd.dev/scenario": "../../etc/passwd"}' >"$d/allocate"
start_server "$d" --scenario default --match-time-limit 1
finish "$d"
check "the allocation's path refused" grep -q "neither a built-in scenario nor a file in" "$d/log"
check "the fleet's scenario runs" grep -q "steerd: scenario default" "$d/log"
check "the time limit ends the match" grep -q "time limit of 1 s is up" "$d/log"
check "Shutdown is the last call" [ "$(tail -n1 "$d/calls" | cut -d' ' -f2)" = /shutdown ]

# 3. SIGTERM before any allocation.
match=sigterm
d=$tmp/3
start_sidecar "$d"
start_server "$d"
wait_log "$d/log" "waiting for allocation" 30 || fail=1
wait_log "$d/calls" "^POST /health" 30 || fail=1
kill -TERM "$server"
finish "$d"
check "Shutdown after SIGTERM" grep -q "^POST /shutdown" "$d/calls"

# 4. Allocated by its first player.
match=allocate-on-connect
d=$tmp/4
start_sidecar "$d"
start_server "$d" --agones-allocate-on-connect --shutdown-when-empty 1
wait_log "$d/log" "steerd: scenario default" 30 || exit 1
wait_log "$d/log" "listening on udp" 30 || exit 1  # (logged after the scenario line)
ports "$d/log"
players 1 2
finish "$d"
check "Ready, then Allocate at the first player, then Shutdown" order "$d" "^POST /ready" "^POST /allocate" "^POST /shutdown"
check "allocated by the first player" grep -q "first player (client .*): Allocate" "$d/log"
echo "4. calls: $(cut -d' ' -f1,2 "$d/calls" | sort | uniq -c | tr -s ' ' | paste -sd, -)"
exit $fail
