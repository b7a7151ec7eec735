# Sourced by the process tests: starts a real steerd on free ports and reads them from its log.
#   start_steerd LOG [STEERD ARGS...]   needs $steerd; sets $pid, $port, $metrics_port; returns 1
#                                       (with the log printed) when steerd does not say its ports
#   stop_steerd                         stops the last one started (safe to call twice)
start_steerd() {
  local log=$1
  shift
  "$steerd" --port 0 --metrics-port 0 --threads 1 --status-interval 0 "$@" >"$log" 2>&1 &
  pid=$!
  port= metrics_port=
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on udp [^ ]*:\([0-9][0-9]*\).*/\1/p' "$log" | head -n1)
    metrics_port=$(sed -n 's/.*metrics on http:\/\/[^ ]*:\([0-9][0-9]*\)\/metrics.*/\1/p' "$log" | head -n1)
    [ -n "$port" ] && [ -n "$metrics_port" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "steerd did not say its ports:"
  cat "$log"
  return 1
}

stop_steerd() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  pid=
}
