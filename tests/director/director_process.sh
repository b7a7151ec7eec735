#!/usr/bin/env bash
# steer-director against a real steerd: with --allow-control it connects without a body, runs its
# match for 3 s and prints one JSON object per line, each with an "event" key, among them the
# opening wave's "spawned" events and the results of its commands (status ok); the server counts
# the commands applied. Without the role it exits 1 saying how to get it; a bad flag exits 2.
set -uo pipefail
steerd=$1
director=$2
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
tmp=$(mktemp -d)
pid=
trap 'stop_steerd; rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

start_steerd "$tmp/server.log" --allow-control || exit 1
timeout 30 "$director" --server "127.0.0.1:$port" --duration 3 --opening 4 >"$tmp/events.jsonl" 2>"$tmp/director.log"
rc=$?
[ "$rc" = 0 ] || fail "steer-director exit $rc: $(cat "$tmp/director.log")"
python3 - "$tmp/events.jsonl" <<'PY' || fail "JSON lines: see above"
import json, sys
kinds, ok = {}, 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    assert "event" in e, line
    kinds[e["event"]] = kinds.get(e["event"], 0) + 1
    if e["event"] == "result" and e.get("status", "STATUS_OK") == "STATUS_OK":
        ok += 1
print("events:", kinds, "ok results:", ok)
assert kinds.get("spawned", 0) >= 4, "the opening wave's spawned events"
assert ok >= 5, "the subscription's and the spawns' results"
PY
applied=$(curl -s "http://127.0.0.1:$metrics_port/metrics" | sed -n 's/^steerd_commands_applied_total \([0-9]*\)$/\1/p')
[ "${applied:-0}" -ge 5 ] || fail "steerd_commands_applied_total is '${applied}'"
grep -q "(control)" "$tmp/server.log" || fail "the server did not log the control role"
stop_steerd

start_steerd "$tmp/server2.log" || exit 1
timeout 30 "$director" --server "127.0.0.1:$port" --duration 2 >"$tmp/none.jsonl" 2>"$tmp/director2.log"
rc=$?
[ "$rc" = 1 ] || fail "without the role: exit $rc, want 1"
grep -q "did not grant the control role" "$tmp/director2.log" || fail "no clear message: $(cat "$tmp/director2.log")"
[ ! -s "$tmp/none.jsonl" ] || fail "printed events without the role"
stop_steerd

"$director" --server "127.0.0.1:1" --wave -1 >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || fail "bad flag: exit $rc, want 2"
echo "ok"
