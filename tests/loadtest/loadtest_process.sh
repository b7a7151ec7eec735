#!/usr/bin/env bash
# steer-loadtest against a real steerd (--port 0: the ports are read from its log): 20 players for
# 4 s exit 0 and write a JSON report with every key and 20 connected; a threshold that cannot
# hold gives exit 1 with the reason in the report; simulated loss and latency, and
# --find-capacity, work; nobody to connect to gives exit 1; bad flags give exit 2. Nothing here
# asserts on how long anything took.
# Also: --full-decode's default (16 players decode snapshots whole, the rest light) and every
# player with --pattern chase, and the tester's CPU in the report.
set -uo pipefail
steerd=$1
loadtest=$2
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
tmp=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.txt "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 40 "$f"; }; done; exit 1; }

start_steerd "$tmp/server.log" || fail "no 'listening on udp ... metrics on http://...' line from steerd"
mport=$metrics_port
echo "steerd: udp $port, metrics $mport"

# 1. Twenty players, four seconds: exit 0, a report with every key, everybody connected.
timeout 120 "$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$mport" --players 20 --duration 4 \
  --ramp 50 --report "$tmp/report.json" >"$tmp/out.txt" 2>"$tmp/err.txt"
rc=$?
[ $rc -eq 0 ] || fail "20 players: exit $rc"
[ -s "$tmp/report.json" ] || fail "no report written"
grep -q "verdict: PASS" "$tmp/out.txt" || fail "no 'verdict: PASS' in the table"
grep -q "snapshot interval (ms)" "$tmp/out.txt" || fail "no snapshot interval row in the table"
grep -q "players 20/20" "$tmp/err.txt" || fail "no progress line on stderr"
python3 - "$tmp/report.json" <<'PY' || fail "report contents"
import json, sys
d = json.load(open(sys.argv[1]))
keys = ["schema", "config", "counts", "snapshot_interval_ms", "snapshot_tick_interval_ms", "snapshot_jitter_ms",
        "stall_ms", "extrapolation_ms", "rtt_ms", "kbps_in", "kbps_out", "entities_in_view", "connect_ms", "samples",
        "server", "thresholds", "checks", "verdict", "failures", "exit_code", "interrupted", "end", "elapsed_s",
        "held_s", "connected_fraction"]
missing = [k for k in keys if k not in d]
assert not missing, f"missing keys {missing}"
for k in ["snapshot_interval_ms", "snapshot_tick_interval_ms", "snapshot_jitter_ms", "stall_ms", "extrapolation_ms",
          "rtt_ms", "kbps_in", "kbps_out", "entities_in_view"]:
    for q in ["count", "p50", "p95", "p99", "max"]:
        assert q in d[k], f"{k}.{q} missing"
c = d["counts"]
for k in ["connected", "refused", "timed_out", "disconnected", "decode_failures", "snapshots"]:
    assert k in c, f"counts.{k} missing"
assert c["players"] == 20 and c["connected"] == 20 and c["connected_at_end"] == 20, c
assert c["refused"] == 0 and c["timed_out"] == 0 and c["disconnected"] == 0 and c["failed"] == 0, c
assert c["snapshots"] > 0 and c["decode_failures"] == 0, c
assert d["snapshot_interval_ms"]["count"] > 0, d["snapshot_interval_ms"]
assert d["entities_in_view"]["max"] > 0, d["entities_in_view"]
assert d["kbps_in"]["count"] > 0 and d["rtt_ms"]["count"] > 0
assert d["server"]["metrics_reachable"] is True and d["server"]["tick_p99_ms"] is not None, d["server"]
assert d["verdict"] == "pass" and d["exit_code"] == 0 and d["failures"] == [], d["failures"]
assert d["interrupted"] is False and d["end"] == "duration" and d["connected_fraction"] == 1, d["end"]
assert d["snapshot_jitter_ms"]["count"] == d["snapshot_interval_ms"]["count"] > 0, d["snapshot_jitter_ms"]
assert d["server"]["send_period_ms"] > 0 and d["server"]["tick_rate_hz"] > 0, d["server"]
# --full-decode's default: 16 players decode whole (the entities in view are theirs), 4 light; the
# light ones' snapshots are counted, timed and acknowledged the same (no decode failure, every
# player's snapshot intervals).
assert d["config"]["full_decode"] == "16", d["config"]
assert d["decode"]["full_players"] == 16 and d["decode"]["light_players"] == 4, d["decode"]
assert "entities_in_view" in d["decode"]["from_full_only"], d["decode"]
t = d["tester"]
assert t["cpu_s"] > 0 and t["cores"] is not None and t["cores"] > 0, t
assert abs(t["cpu_s"] - t["user_s"] - t["system_s"]) < 1e-3, t
print("report: 20 connected, %d snapshots, snapshot interval p99 %.1f ms (jitter p99 %.2f ms), server tick p99 %.2f ms" % (
    c["snapshots"], d["snapshot_interval_ms"]["p99"], d["snapshot_jitter_ms"]["p99"], d["server"]["tick_p99_ms"]))
PY

# 2. A threshold no server meets: exit 1, and the report says which.
timeout 120 "$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$mport" --players 5 --duration 2 \
  --max-tick-p99-ms 0.000001 --report "$tmp/fail.json" --quiet >"$tmp/fail.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "an impossible --max-tick-p99-ms: exit $rc, expected 1"
grep -q "verdict: FAIL" "$tmp/fail.txt" || fail "no 'verdict: FAIL' in the table"
python3 - "$tmp/fail.json" <<'PY' || fail "failing report contents"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "fail" and d["exit_code"] == 1, d["verdict"]
assert d["counts"]["connected"] == 5, d["counts"]
check = [c for c in d["checks"] if c["name"] == "max_tick_p99_ms"][0]
assert check["pass"] is False and check["value"] is not None and check["value"] > check["limit"], check
assert any("server.tick_p99_ms" in f for f in d["failures"]), d["failures"]
print("impossible threshold: exit 1,", d["failures"][0])
PY

# 3. Simulated loss and latency still connect everybody (the relay path).
timeout 120 "$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$mport" --players 5 --duration 2 \
  --loss 0.05 --latency 20 --jitter 5 --seed 3 --pattern chase --report "$tmp/lossy.json" --quiet >"$tmp/lossy.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "5 players with loss and latency: exit $rc"
python3 - "$tmp/lossy.json" <<'PY' || fail "lossy report contents"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["counts"]["connected"] == 5, d["counts"]
i = d["impairment"]
assert i["active"] is True and i["forwarded_to_server"] > 0 and i["forwarded_to_client"] > 0, i
assert d["rtt_ms"]["p50"] >= 30, d["rtt_ms"]  # 2 x (20 +- 5) ms added
assert d["config"]["full_decode"] == "all" and d["decode"]["full_players"] == 5, d["decode"]  # chase
assert d["decode"]["light_players"] == 0, d["decode"]
print("lossy: rtt p50 %.1f ms, dropped %d/%d" % (d["rtt_ms"]["p50"], i["dropped_to_server"], i["dropped_to_client"]))
PY

# 4. --find-capacity in two steps of 5: both held, highest 10.
timeout 120 "$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$mport" --players 10 --duration 1 \
  --find-capacity --capacity-step 5 --report "$tmp/capacity.json" --quiet >"$tmp/capacity.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "--find-capacity: exit $rc"
python3 - "$tmp/capacity.json" <<'PY' || fail "capacity report contents"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["capacity"]
assert [s["players"] for s in c["steps"]] == [5, 10] and c["highest_held"] == 10, c
print("capacity: steps", [s["players"] for s in c["steps"]], "highest held", c["highest_held"])
PY

# 5. Nobody to connect to: exit 1.
deadport=$(python3 -c 'import socket;s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM);s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
timeout 120 "$loadtest" --server "127.0.0.1:$deadport" --metrics "127.0.0.1:$mport" --players 2 --duration 1 \
  --quiet >"$tmp/dead.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "no server: exit $rc, expected 1"
grep -q "no player could connect" "$tmp/dead.txt" || fail "no 'no player could connect' for a dead port"
echo "no server: exit 1"

# 6. Usage errors: exit 2 with a message naming the flag.
for args in "--players 5 --duration 1" "--server 127.0.0.1:$port --players 5 --duration nan" \
  "--server 127.0.0.1:$port --players 0 --duration 1" "--server nope --players 5 --duration 1" \
  "--server 127.0.0.1:$port --players 5 --duration 1 --loss 2" "--server 127.0.0.1:$port --players 5 --duration 1 --bogus" \
  "--server 127.0.0.1:$port --players 5 --duration 1 --full-decode -1"; do
  out=$(timeout 20 "$loadtest" $args 2>&1)
  rc=$?
  [ $rc -eq 2 ] || fail "'$args': exit $rc, expected 2 ($out)"
  echo "usage error: '$args' -> exit 2: $(head -n1 <<<"$out")"
done
echo "all good"
