#!/usr/bin/env bash
# Record and replay with real processes: steerd --record while steer-loadtest's players join,
# move and leave through its lossy relay (5 % loss, 40 ms latency, churn); steerd --replay of the
# file says every tick is equal with 1 and 4 threads, and --serve plays it to watchers whose
# moves change nothing; a copy with one byte changed is refused
# (exit 1) naming where; a kill -9 while recording leaves a file that replays (exit 0) up to about
# its last second.
set -uo pipefail
steerd=$1
loadtest=$2
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
tmp=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.txt "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }; done; exit 1; }

# 1. A recorded session that ends by itself (--ticks), players joining and leaving through loss.
start_steerd "$tmp/server.log" --record "$tmp/session.rec" --ticks 240 --player-input intent ||
  fail "steerd did not start"
timeout 60 "$loadtest" --server "127.0.0.1:$port" --players 6 --duration 5 --ramp 6 --churn-per-second 1 \
  --loss 0.05 --latency 40 --jitter 10 --quiet >"$tmp/lt.txt" 2>&1
wait "$pid"
rc=$?
pid=
[ $rc -eq 0 ] || fail "recording server exited $rc"
grep -q "recorded 240 ticks" "$tmp/server.log" || fail "no 'recorded 240 ticks' line"
for threads in 1 4; do
  timeout 120 "$steerd" --replay "$tmp/session.rec" --threads $threads >"$tmp/replay$threads.txt" 2>&1 ||
    fail "replay with $threads threads: exit $?"
  grep -q "replay ok: 240 ticks" "$tmp/replay$threads.txt" || fail "replay with $threads threads did not say 'replay ok: 240 ticks'"
done
joins=$(sed -n 's/.* \([0-9]*\) joins.*/\1/p' "$tmp/replay1.txt")
leaves=$(sed -n 's/.* \([0-9]*\) leaves.*/\1/p' "$tmp/replay1.txt")
[ "${joins:-0}" -ge 2 ] || fail "the recording holds ${joins:-0} joins (expected >= 2)"
[ "${leaves:-0}" -ge 1 ] || fail "the recording holds ${leaves:-0} leaves (expected >= 1)"
echo "recorded and replayed 240 ticks with 1 and 4 threads: $(tail -n1 "$tmp/replay4.txt" | cut -c1-90)"

# 1b. --serve: the recording played in real time to watchers (two load-test players, whose moves
# must change nothing): it waits for the first, plays every tick equal, and exits 0.
start_steerd "$tmp/serve.log" --replay "$tmp/session.rec" --serve || fail "steerd --replay --serve did not start"
timeout 60 "$loadtest" --server "127.0.0.1:$port" --players 2 --duration 3 --ramp 2 --quiet >"$tmp/lt-serve.txt" 2>&1
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "--serve still running 30 s after its watchers came"
wait "$pid"
rc=$?
pid=
[ $rc -eq 0 ] || fail "--serve exited $rc"
grep -q "replay ok: 240 ticks" "$tmp/serve.log" || fail "--serve did not say 'replay ok: 240 ticks'"
grep -q "client 1 connected" "$tmp/serve.log" || fail "--serve admitted no watcher"
echo "--serve: $(grep -c 'connected from' "$tmp/serve.log") watcher(s), every tick equal"

# 2. One byte changed: refused, exit 1, saying where.
python3 - "$tmp/session.rec" "$tmp/bad.rec" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read()); d[len(d) // 2] ^= 0x01
open(sys.argv[2], 'wb').write(d)
PY
timeout 120 "$steerd" --replay "$tmp/bad.rec" --threads 1 >"$tmp/bad.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a changed byte: exit $rc (expected 1)"
grep -q "damaged" "$tmp/bad.txt" || fail "a changed byte: no 'damaged' in the report"
echo "a changed byte: $(tail -n1 "$tmp/bad.txt" | cut -c1-100)"

# 3. kill -9 while recording: what was flushed (once a second of ticks) replays. Killed once the
# server has run 150 ticks by its own count, so a slow machine changes nothing.
start_steerd "$tmp/killed.log" --record "$tmp/killed.rec" --player-input intent || fail "steerd did not start"
timeout 60 "$loadtest" --server "127.0.0.1:$port" --players 3 --duration 3 --ramp 3 --quiet >"$tmp/lt2.txt" 2>&1
ran=0
for _ in $(seq 300); do
  ran=$(python3 - "$metrics_port" <<'PY'
import sys, urllib.request
try:
    text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=2).read().decode()
    print(next(int(float(l.split()[1])) for l in text.splitlines() if l.startswith("steerd_ticks_total ")))
except Exception:
    print(0)
PY
)
  [ "${ran:-0}" -ge 150 ] && break
  sleep 0.1
done
[ "${ran:-0}" -ge 150 ] || fail "the server did not reach 150 ticks"
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
timeout 120 "$steerd" --replay "$tmp/killed.rec" --threads 2 >"$tmp/killed.txt" 2>&1 || fail "replay after kill -9: exit $?"
grep -q "cut short" "$tmp/killed.txt" || fail "replay after kill -9 did not say the recording was cut short"
ticks=$(sed -n 's/.*replay ok: \([0-9]*\) ticks.*/\1/p' "$tmp/killed.txt")
# 150 ticks ran; the file is flushed every 30: at least 120 of them are on disk.
[ "${ticks:-0}" -ge 120 ] || fail "after kill -9 at tick >= $ran only ${ticks:-0} ticks replayed (expected >= 120)"
echo "kill -9 at tick >= $ran: $ticks ticks replayed from the cut-short file"

# 4. Flags: --record with --headless, and a --replay of something that is not a recording.
"$steerd" --headless --ticks 5 --record "$tmp/x.rec" >"$tmp/flags.txt" 2>&1 && fail "--record with --headless accepted"
grep -q "records a real-time server" "$tmp/flags.txt" || fail "--record --headless: no clear error"
echo "not a recording" >"$tmp/junk.rec"
"$steerd" --replay "$tmp/junk.rec" >"$tmp/junk.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--replay of junk: exit $rc (expected 2)"
grep -q "not a steerd recording" "$tmp/junk.txt" || fail "--replay of junk: no clear error"
"$steerd" --record /nonexistent-dir/x.rec --port 0 --metrics-port 0 >"$tmp/nodir.txt" 2>&1 && fail "--record into a missing directory accepted"
grep -q "cannot create the recording" "$tmp/nodir.txt" || fail "--record into a missing directory: no clear error"
echo "bad flags and files: clear errors"
