#!/usr/bin/env bash
# steer-loadtest stopped early, against a real steerd on free ports (--port 0: read from its log):
# SIGINT during a 60 s run ends it cleanly (exit 0 or 1, not a death by signal) with a complete
# report saying "interrupted": true, and the --out series has a JSON object per line; a
# threshold that cannot hold gives exit 1, and with --abort-on-fail ends a 60 s run early by
# itself; an unknown threshold path is a usage error (exit 2) naming it. Every wait is on
# something happening (with generous limits for a loaded machine); nothing asserts on how long
# anything took.
set -uo pipefail
steerd=$1
loadtest=$2
tmp=$(mktemp -d)
pid=
lp=
cleanup() {
  [ -n "$lp" ] && kill -9 "$lp" 2>/dev/null && wait "$lp" 2>/dev/null
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.txt "$tmp"/*.log "$tmp"/*.jsonl; do [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }; done; exit 1; }

# Waits up to $1 tenths of a second for the command after it to succeed.
wait_for() {
  local tenths=$1
  shift
  for _ in $(seq "$tenths"); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}

"$steerd" --port 0 --metrics-port 0 --threads 1 --status-interval 0 >"$tmp/server.log" 2>&1 &
pid=$!
ports_known() {
  port=$(sed -n 's/.*listening on udp [^ ]*:\([0-9][0-9]*\).*/\1/p' "$tmp/server.log" | head -n1)
  mport=$(sed -n 's/.*metrics on http:\/\/[^ ]*:\([0-9][0-9]*\)\/metrics.*/\1/p' "$tmp/server.log" | head -n1)
  [ -n "$port" ] && [ -n "$mport" ] && return 0
  kill -0 "$pid" 2>/dev/null || fail "steerd exited before saying its ports"
  return 1
}
wait_for 600 ports_known || fail "steerd did not say its ports within 60 s"
echo "steerd: udp $port, metrics $mport"

# 1. SIGINT once the series has two lines (two seconds of the run, whatever the load).
"$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$mport" --players 5 --duration 60 \
  --report "$tmp/report.json" --out "$tmp/series.jsonl" >"$tmp/out.txt" 2>"$tmp/err.txt" &
lp=$!
two_lines() {
  kill -0 "$lp" 2>/dev/null || fail "steer-loadtest ended before it was interrupted"
  [ -f "$tmp/series.jsonl" ] && [ "$(wc -l <"$tmp/series.jsonl")" -ge 2 ]
}
wait_for 1200 two_lines || fail "no two lines in the --out series within 120 s"
kill -INT "$lp"
ended() { ! kill -0 "$lp" 2>/dev/null; }
wait_for 1200 ended || fail "steer-loadtest still running 120 s after SIGINT"
wait "$lp"
rc=$?
lp=
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "interrupted run: exit $rc, expected 0 or 1 (not a death by signal)"
grep -q "SIGINT: stopping the run early" "$tmp/err.txt" || fail "no 'SIGINT: stopping the run early' on stderr"
grep -q "interrupted by SIGINT" "$tmp/out.txt" || fail "no 'interrupted by SIGINT' in the table"
grep -q "^verdict: " "$tmp/out.txt" || fail "no verdict line in the table"
python3 - "$tmp/report.json" "$tmp/series.jsonl" "$rc" <<'PY' || fail "interrupted run's report or series"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["interrupted"] is True and d["signal"] == "SIGINT" and d["end"] == "signal", (d["interrupted"], d["end"])
assert d["verdict"] in ("pass", "fail") and d["exit_code"] == int(sys.argv[3]), (d["verdict"], d["exit_code"])
assert d["held_s"] <= d["config"]["duration_s"] and d["elapsed_s"] > 0, (d["held_s"], d["elapsed_s"])
assert d["aborted"] is None, d["aborted"]
lines = open(sys.argv[2]).read().splitlines()
assert len(lines) >= 2, lines
for line in lines:
    s = json.loads(line)
    for k in ["elapsed_s", "phase", "players", "connected", "snapshots_per_s", "snapshot_interval_ms",
              "snapshot_jitter_ms", "rtt_ms", "server"]:
        assert k in s, f"series line without {k}: {line}"
    assert "tick_p99_ms" in s["server"] and "p99" in s["snapshot_interval_ms"] and "p99" in s["rtt_ms"], line
print("interrupted: exit %s, verdict %s, elapsed %.1f s of %.0f, %d series lines, last: %d connected, %.0f snapshots/s" % (
    sys.argv[3], d["verdict"], d["elapsed_s"], d["config"]["duration_s"], len(lines), s["connected"], s["snapshots_per_s"]))
PY

# 2. A threshold that cannot hold: exit 1, and the report says which.
timeout 120 "$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$mport" --players 5 --duration 2 \
  --threshold 'connected_fraction>2' --report "$tmp/fail.json" --quiet >"$tmp/fail.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--threshold 'connected_fraction>2': exit $rc, expected 1"
python3 - "$tmp/fail.json" <<'PY' || fail "failing threshold's report"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "fail" and d["exit_code"] == 1 and d["interrupted"] is False, d["verdict"]
check = [c for c in d["checks"] if c["expression"] == "connected_fraction>2"][0]
assert check["pass"] is False and check["value"] is not None, check
assert any("connected_fraction" in f for f in d["failures"]), d["failures"]
print("connected_fraction>2: exit 1,", d["failures"][0])
PY

# 3. The same with --abort-on-fail ends a 60 s run by itself, once the players are held.
timeout 180 "$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$mport" --players 5 --duration 60 \
  --threshold 'connected_fraction>2' --abort-on-fail --report "$tmp/abort.json" --quiet >"$tmp/abort.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--abort-on-fail: exit $rc, expected 1"
python3 - "$tmp/abort.json" <<'PY' || fail "aborted run's report"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["end"] == "abort_on_fail" and d["interrupted"] is False and d["verdict"] == "fail", d["end"]
assert d["aborted"]["expression"] == "connected_fraction>2" and d["aborted"]["value"] is not None, d["aborted"]
print("--abort-on-fail: stopped at %.1f s: %s" % (d["aborted"]["at_s"], d["aborted"]["failure"]))
PY

# 4. Unknown paths and malformed expressions: exit 2 naming them, before anything starts.
for t in 'nope.p99<1' 'rtt_ms.p98<1' 'rtt_ms.p99=80'; do
  out=$(timeout 20 "$loadtest" --server "127.0.0.1:$port" --players 5 --duration 60 --threshold "$t" 2>&1)
  rc=$?
  [ $rc -eq 2 ] || fail "--threshold '$t': exit $rc, expected 2 ($out)"
  grep -qF -- "--threshold '$t'" <<<"$out" || fail "--threshold '$t': the message does not name it: $out"
  echo "usage error: $(head -n1 <<<"$out" | cut -c1-110)"
done
grep -q "no figure 'nope'" <<<"$(timeout 20 "$loadtest" --server "127.0.0.1:$port" --players 5 --duration 60 \
  --threshold 'nope.p99<1' 2>&1)" || fail "no \"no figure 'nope'\" for --threshold 'nope.p99<1'"
echo "all good"
