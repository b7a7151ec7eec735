#!/usr/bin/env bash
# A soak: steerd and steer-loadtest in two network namespaces joined by a veth pair, on a lossy,
# late, jittery (so reordering) link, for N minutes with players joining and leaving; then SIGTERM
# to the server, and the figures: crashes, late ticks, RSS at the start and the end, snapshot
# stalls, NPCs lost from a player's view while inside its interest area.
#
#   scripts/soak.sh [--minutes N] [--players N] [--loss PCT] [--delay MS] [--jitter MS]
#                   [--scenario FILE] [--out DIR] [--build-dir DIR] [more flags: --help]
#
# The link: `tc netem` on both ends of the veth pair (loss, delay +- jitter each way; jitter
# reorders). When the kernel has no netem (no sch_netem module: "Specified qdisc kind is
# unknown"), the same loss, delay and jitter come from steer-loadtest's own per-player relay
# (--loss --latency --jitter: uniform jitter, each datagram on its own timer, so it reorders too).
# The report says which one was used. Needs root (namespaces, tc). Ctrl-C stops everything and
# removes the namespaces.
#
# Writes to --out (default build/soak-reports/<date>): soak.md and soak.json (the figures), server.log,
# loadtest.txt / loadtest.json / loadtest.log (steer-loadtest's table, report and progress),
# metrics-*.txt (the server's /metrics at each point), rss.csv (the server's memory every 5 s).
# Exit status: 0 when the server ran to the end and exited 0 on SIGTERM and the load tester
# finished (whatever the figures), 1 otherwise, 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: scripts/soak.sh [flags]
  --minutes N          how long to hold the players, after they joined (default 10; decimals allowed)
  --players N          simulated players (default 300: what this 2-core box holds with the server
                       at --threads 1 and the tester beside it at 5 % loss and --interest-radius 60;
                       docs/RELIABILITY.md, "Soak")
  --loss PCT           datagrams dropped each way, percent (default 5)
  --delay MS           one-way delay each way (default 50)
  --jitter MS          +- delay variation each way, uniform (default 20)
  --churn PER_S        players per second that leave and are replaced by new ones (default 0.5)
  --ramp PER_S         players started per second at the beginning (default 25)
  --scenario FILE      steerd's --scenario (default: the built-in default scenario)
  --interest-radius M  steerd's --interest-radius (default 60; 0: every client sees the whole world)
  --threads T          steerd's simulation threads (default 1)
  --seed S             seed of the world, the players' movement and the tester's drops (default 1)
  --impairment KIND    auto (netem, else the tester's relay), netem, tester or none (default auto)
  --build-dir DIR      use DIR/server/app/steerd and DIR/client-viewer/loadtest/steer-loadtest as
                       they are (default: build them with scripts/build.sh release)
  --out DIR            where the report goes (default build/soak-reports/<date>-<time>)
EOF
}

minutes=10 players=300 loss=5 delay=50 jitter=20 churn=0.5 ramp=25 scenario="" radius=60 threads=1
seed=1 impairment=auto build_dir="" out=""
die_usage() {
  echo "scripts/soak.sh: $1" >&2
  echo "Run with --help for more information." >&2
  exit 2
}
number() {  # NAME VALUE: a non-negative decimal number
  [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] || die_usage "$1 must be a non-negative number, not '$2'"
}
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || case "$1" in -h | --help) ;; *) die_usage "$1 needs a value" ;; esac
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --minutes) number "$1" "$2"; minutes=$2 ;;
    --players) [[ "$2" =~ ^[1-9][0-9]*$ ]] || die_usage "--players must be a positive integer"; players=$2 ;;
    --loss) number "$1" "$2"; loss=$2 ;;
    --delay) number "$1" "$2"; delay=$2 ;;
    --jitter) number "$1" "$2"; jitter=$2 ;;
    --churn) number "$1" "$2"; churn=$2 ;;
    --ramp) number "$1" "$2"; ramp=$2 ;;
    --scenario) scenario=$2 ;;
    --interest-radius) number "$1" "$2"; radius=$2 ;;
    --threads) [[ "$2" =~ ^[1-9][0-9]*$ ]] || die_usage "--threads must be a positive integer"; threads=$2 ;;
    --seed) [[ "$2" =~ ^[0-9]+$ ]] || die_usage "--seed must be a non-negative integer"; seed=$2 ;;
    --impairment)
      case "$2" in auto | netem | tester | none) impairment=$2 ;; *) die_usage "--impairment: auto, netem, tester or none" ;; esac ;;
    --build-dir) build_dir=$2 ;;
    --out) out=$2 ;;
    *) die_usage "unknown flag $1" ;;
  esac
  shift 2
done
awk -v l="$loss" 'BEGIN { exit !(l <= 100) }' || die_usage "--loss is a percentage (0..100)"
awk -v j="$jitter" -v d="$delay" 'BEGIN { exit !(j <= d) }' ||
  echo "scripts/soak.sh: note: --jitter above --delay: delays below 0 are cut to 0" >&2
duration_s=$(awk -v m="$minutes" 'BEGIN { printf "%.1f", m * 60 }')
awk -v d="$duration_s" 'BEGIN { exit !(d >= 1) }' || die_usage "--minutes: at least a second"
[ -z "$scenario" ] || [ -f "$scenario" ] || [ "$scenario" = default ] || [ "$scenario" = crowd ] ||
  die_usage "--scenario: no file $scenario"

if [ "$(id -u)" -ne 0 ]; then
  echo "scripts/soak.sh: needs root (network namespaces and tc): run it as root or with sudo" >&2
  exit 1
fi
for tool in ip tc python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "scripts/soak.sh: needs $tool (iproute2, python3)" >&2; exit 1; }
done

# Binaries.
if [ -z "$build_dir" ]; then
  scripts/build.sh release steerd steer-loadtest
  build_dir=build/release
fi
steerd=$(realpath "$build_dir/server/app/steerd")
tester=$(realpath "$build_dir/client-viewer/loadtest/steer-loadtest")
{ [ -x "$steerd" ] && [ -x "$tester" ]; } || { echo "scripts/soak.sh: no steerd or steer-loadtest in $build_dir" >&2; exit 1; }
grep -q -- --churn-per-second <<<"$("$tester" --help)" ||
  { echo "scripts/soak.sh: $tester has no --churn-per-second: rebuild it" >&2; exit 1; }
[ -n "$out" ] || out=build/soak-reports/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
out=$(realpath "$out")
[ -z "$scenario" ] || [ ! -f "$scenario" ] || scenario=$(realpath "$scenario")

# Namespaces, joined by a veth pair; both cleaned up on any exit.
tag=$$
srv_ns=steer-soak-$tag-srv cli_ns=steer-soak-$tag-cli
srv_if=ssoak${tag}s cli_if=ssoak${tag}c
srv_ip=10.231.0.1 cli_ip=10.231.0.2
server_pid="" tester_pid="" cleaned=0
log() { echo "soak: $*" >&2; }
cleanup() {
  [ "$cleaned" = 1 ] && return
  cleaned=1
  if [ -n "$tester_pid" ] && kill -0 "$tester_pid" 2>/dev/null; then
    kill -TERM "$tester_pid" 2>/dev/null || true
    wait "$tester_pid" 2>/dev/null || true
  fi
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  ip netns del "$srv_ns" 2>/dev/null || true  # takes its end of the veth pair, and so the other
  ip netns del "$cli_ns" 2>/dev/null || true
}
trap cleanup EXIT
trap 'log "interrupted: cleaning up"; exit 130' INT TERM HUP

ip netns add "$srv_ns"
ip netns add "$cli_ns"
ip link add "$srv_if" type veth peer name "$cli_if"
ip link set "$srv_if" netns "$srv_ns"
ip link set "$cli_if" netns "$cli_ns"
ip -n "$srv_ns" addr add "$srv_ip/24" dev "$srv_if"
ip -n "$cli_ns" addr add "$cli_ip/24" dev "$cli_if"
for ns in "$srv_ns" "$cli_ns"; do ip -n "$ns" link set lo up; done
ip -n "$srv_ns" link set "$srv_if" up
ip -n "$cli_ns" link set "$cli_if" up

# The impairment: netem on both ends (each direction), else the tester's relay.
tester_impairment=()
impairment_used=none impairment_note=""
impaired=$(awk -v l="$loss" -v d="$delay" -v j="$jitter" 'BEGIN { print (l > 0 || d > 0 || j > 0) ? 1 : 0 }')
if [ "$impaired" = 0 ] && [ "$impairment" != none ]; then
  impairment=none
  impairment_note="no loss, delay or jitter asked for"
fi
if [ "$impairment" = auto ] || [ "$impairment" = netem ]; then
  netem=(netem limit 100000 delay "${delay}ms")
  awk -v j="$jitter" 'BEGIN { exit !(j > 0) }' && netem+=("${jitter}ms")
  netem+=(loss "${loss}%")
  if err=$(ip netns exec "$srv_ns" tc qdisc add dev "$srv_if" root "${netem[@]}" 2>&1) &&
    err=$(ip netns exec "$cli_ns" tc qdisc add dev "$cli_if" root "${netem[@]}" 2>&1); then
    impairment_used=netem
    impairment_note="tc ${netem[*]} on both ends of the veth pair (each direction; jitter reorders)"
  elif [ "$impairment" = netem ]; then
    echo "scripts/soak.sh: tc netem failed: $err" >&2
    exit 1
  else
    impairment=tester
    impairment_note="the kernel has no netem (tc: ${err//$'\n'/ }): "
  fi
fi
if [ "$impairment" = tester ]; then
  frac=$(awk -v l="$loss" 'BEGIN { printf "%.6g", l / 100 }')
  tester_impairment=(--loss "$frac" --latency "$delay" --jitter "$jitter")
  impairment_used=tester
  impairment_note+="steer-loadtest's relay in front of each player (--loss $frac --latency $delay --jitter $jitter: each way, uniform jitter, reorders)"
fi
[ "$impairment_used" != none ] || impairment_note=${impairment_note:-"--impairment none"}
log "impairment: $impairment_used: $impairment_note"

# HTTP GET from inside the server's namespace (loopback: never impaired).
http_get() {
  if command -v curl >/dev/null 2>&1; then
    ip netns exec "$srv_ns" curl -sf --max-time 5 "http://127.0.0.1:9100$1"
  else
    ip netns exec "$srv_ns" python3 -c \
      'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
      "http://127.0.0.1:9100$1"
  fi
}
metric() {  # FILE NAME: the value of an unlabelled sample
  awk -v n="$2" '$1 == n { print $2; exit }' "$1"
}
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || true; }
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null || true; }

# The server.
server_args=(--bind 0.0.0.0 --port 7777 --metrics-port 9100 --threads "$threads" --seed "$seed"
  --max-clients $((players * 2 + 16)) --max-clients-per-address 0 --interest-radius "$radius"
  --status-interval 10)  # every player comes from the tester's one address
[ -z "$scenario" ] || server_args+=(--scenario "$scenario")
log "steerd ${server_args[*]} (in $srv_ns, $srv_ip)"
ip netns exec "$srv_ns" "$steerd" "${server_args[@]}" 2>"$out/server.log" &
server_pid=$!
for _ in $(seq 600); do
  http_get /healthz >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if ! http_get /healthz >/dev/null 2>&1; then
  echo "scripts/soak.sh: steerd did not come up; $out/server.log:" >&2
  tail -n 20 "$out/server.log" >&2
  exit 1
fi
http_get /metrics >"$out/metrics-0-before.txt"

# The players. The tester holds them until told to stop (SIGTERM: it ends the run, the players
# leave and it writes its report), `duration_s` after they all joined; its own --duration only
# bounds that.
join_limit=$(awk -v p="$players" -v r="$ramp" 'BEGIN { printf "%d", (r > 0 ? p / r : 0) + 60 }')
tester_limit=$(awk -v d="$duration_s" -v j="$join_limit" 'BEGIN { printf "%.1f", d + j + 60 }')
# Every player decodes snapshots whole: the soak counts NPCs lost from every player's view.
tester_args=(--server "$srv_ip:7777" --metrics "$srv_ip:9100" --players "$players" --duration "$tester_limit"
  --ramp "$ramp" --churn-per-second "$churn" --threads 1 --seed "$seed" --report "$out/loadtest.json"
  --full-decode all "${tester_impairment[@]}")
log "steer-loadtest ${tester_args[*]} (in $cli_ns, $cli_ip)"
ip netns exec "$cli_ns" "$tester" "${tester_args[@]}" >"$out/loadtest.txt" 2>"$out/loadtest.log" &
tester_pid=$!
t0=$(date +%s.%N)
since() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# The start: every player joined (95 %: some may be between leaving and joining), then 5 s more.
joined=0 died_early=0 died_at=""
for _ in $(seq "$join_limit"); do
  kill -0 "$server_pid" 2>/dev/null || { died_early=1 died_at=$(since); break; }
  kill -0 "$tester_pid" 2>/dev/null || break
  if http_get /metrics >"$out/metrics-1-start.txt" 2>/dev/null; then
    clients=$(metric "$out/metrics-1-start.txt" steerd_clients)
    if awk -v c="${clients:-0}" -v p="$players" 'BEGIN { exit !(c >= 0.95 * p) }'; then
      joined=1
      break
    fi
  fi
  sleep 1
done
[ "$joined" = 1 ] || log "warning: not every player joined in ${join_limit} s (clients ${clients:-?})"
sleep 5
http_get /metrics >"$out/metrics-1-start.txt" 2>/dev/null || true
rss_start=$(rss_kb "$server_pid")
start_at=$(since)
log "players joined at ${start_at} s; server RSS ${rss_start:-?} kB; holding ${duration_s} s"

# The run: every 5 s the server's RSS and clients, until `duration_s` has passed (or the server
# dies, or the tester ends by itself).
echo "elapsed_s,rss_kb,clients" >"$out/rss.csv"
echo "$start_at,${rss_start:-},$(metric "$out/metrics-1-start.txt" steerd_clients)" >>"$out/rss.csv"
end_epoch=$(awk -v n="$(date +%s.%N)" -v d="$duration_s" 'BEGIN { printf "%.0f", n + d }')
next=$(($(date +%s) + 5))
rss_end="" end_at="" tester_ended_early=0
sample() {  # the server's RSS and metrics now, to FILE
  local r c
  r=$(rss_kb "$server_pid")
  if [ -z "$r" ] || ! http_get /metrics >"$1" 2>/dev/null; then return 1; fi
  c=$(metric "$1" steerd_clients)
  echo "$(since),$r,$c" >>"$out/rss.csv"
  rss_end=$r end_at=$(since)
}
while [ "$(date +%s)" -lt "$end_epoch" ]; do
  kill -0 "$server_pid" 2>/dev/null || { died_early=1 died_at=$(since); break; }
  kill -0 "$tester_pid" 2>/dev/null || { tester_ended_early=1; break; }
  if [ "$(date +%s)" -ge "$next" ]; then
    next=$((next + 5))
    sample "$out/metrics-2-end.txt" || true
  fi
  sleep 1
done
if [ "$died_early" = 0 ] && [ "$tester_ended_early" = 0 ] && kill -0 "$server_pid" 2>/dev/null; then
  sample "$out/metrics-2-end.txt" || true  # the end: players still there
fi
[ "$tester_ended_early" = 1 ] && log "warning: steer-loadtest ended before the end; see $out/loadtest.log"
if [ "$died_early" = 1 ]; then
  log "steerd died before the end"
  # Its players time out (10 s of silence) and the tester stops and writes its report; give it a minute.
  for _ in $(seq 60); do kill -0 "$tester_pid" 2>/dev/null || break; sleep 1; done
fi
kill -TERM "$tester_pid" 2>/dev/null || true
for _ in $(seq 60); do kill -0 "$tester_pid" 2>/dev/null || break; sleep 0.5; done
kill -KILL "$tester_pid" 2>/dev/null || true
tester_rc=0
wait "$tester_pid" || tester_rc=$?
tester_pid=""

# The end: SIGTERM, and the exit status.
server_rc="" hung=0 rss_after="" hwm=""
if kill -0 "$server_pid" 2>/dev/null; then
  http_get /metrics >"$out/metrics-3-after.txt" 2>/dev/null || true
  rss_after=$(rss_kb "$server_pid")
  hwm=$(hwm_kb "$server_pid")
  log "SIGTERM to steerd"
  kill -TERM "$server_pid"
  for _ in $(seq 300); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$server_pid" 2>/dev/null; then
    hung=1
    log "steerd still running 30 s after SIGTERM: SIGKILL"
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
fi
server_rc=0
wait "$server_pid" || server_rc=$?
server_pid=""
cleanup

# The figures.
export SOAK_OUT=$out SOAK_MINUTES=$minutes SOAK_PLAYERS=$players SOAK_LOSS=$loss SOAK_DELAY=$delay
export SOAK_JITTER=$jitter SOAK_CHURN=$churn SOAK_RADIUS=$radius SOAK_THREADS=$threads
export SOAK_SCENARIO=${scenario:-default} SOAK_IMPAIRMENT=$impairment_used SOAK_IMPAIRMENT_NOTE=$impairment_note
export SOAK_SERVER_RC=$server_rc SOAK_DIED_EARLY=$died_early SOAK_DIED_AT=$died_at SOAK_HUNG=$hung SOAK_TESTER_RC=$tester_rc
export SOAK_RSS_START=${rss_start:-} SOAK_RSS_END=${rss_end:-} SOAK_RSS_AFTER=${rss_after:-} SOAK_HWM=${hwm:-}
export SOAK_START_AT=$start_at SOAK_END_AT=${end_at:-} SOAK_JOINED=$joined SOAK_TESTER_EARLY=$tester_ended_early
python3 - <<'EOF'
import json, math, os, re, signal

env = os.environ
out = env["SOAK_OUT"]

def metrics(name):
    path = os.path.join(out, name)
    samples = {}
    if not os.path.exists(path):
        return None
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        key, _, value = line.rpartition(" ")
        try:
            samples[key.strip()] = float(value)
        except ValueError:
            pass
    return samples or None

m0, m1, m2, m3 = (metrics(n) for n in
                  ("metrics-0-before.txt", "metrics-1-start.txt", "metrics-2-end.txt", "metrics-3-after.txt"))

def diff(a, b, name):
    if a is None or b is None or name not in a or name not in b:
        return None
    return b[name] - a[name]

def quantile(a, b, name, q):
    """histogram_quantile over the increase of histogram `name` from scrape a to b, in ms."""
    if a is None or b is None:
        return None
    buckets = []
    for key, value in b.items():
        m = re.fullmatch(name + r'_bucket\{le="([^"]+)"\}', key)
        if m:
            le = math.inf if m.group(1) == "+Inf" else float(m.group(1))
            buckets.append((le, value - a.get(key, 0.0)))
    buckets.sort()
    if not buckets or buckets[-1][1] <= 0:
        return None
    rank = q * buckets[-1][1]
    lower, below = 0.0, 0.0
    for le, count in buckets:
        if count >= rank:
            if math.isinf(le):
                return lower * 1000.0
            inside = count - below
            return (lower + (le - lower) * ((rank - below) / inside if inside > 0 else 1.0)) * 1000.0
        lower, below = le, count
    return None

def num(name):
    v = env.get(name, "")
    return float(v) if v not in ("", None) else None

lt = None
lt_path = os.path.join(out, "loadtest.json")
if os.path.exists(lt_path) and os.path.getsize(lt_path) > 0:
    try:
        lt = json.load(open(lt_path))
    except ValueError:
        lt = None

def ltget(*path):
    v = lt
    for p in path:
        if not isinstance(v, dict) or p not in v:
            return None
        v = v[p]
    return v

server_rc = int(env["SOAK_SERVER_RC"])
died_early = env["SOAK_DIED_EARLY"] == "1"
hung = env["SOAK_HUNG"] == "1"
tester_rc = int(env["SOAK_TESTER_RC"])
rss_start, rss_end = num("SOAK_RSS_START"), num("SOAK_RSS_END")
held_s = (num("SOAK_END_AT") or 0) - (num("SOAK_START_AT") or 0)
# Peak: VmHWM (the kernel updates it lazily) or the largest 5-second sample, whichever is larger.
peak_kb = num("SOAK_HWM")
rss_csv = os.path.join(out, "rss.csv")
if os.path.exists(rss_csv):
    for row in list(open(rss_csv))[1:]:
        cells = row.strip().split(",")
        if len(cells) > 1 and cells[1]:
            peak_kb = max(peak_kb or 0.0, float(cells[1]))
samples = ltget("samples") or {}
sample_total = sum(v for v in samples.values() if isinstance(v, (int, float)))

figures = {
    "schema": "steer-soak/1",
    "config": {
        "minutes": float(env["SOAK_MINUTES"]), "players": int(env["SOAK_PLAYERS"]),
        "loss_percent": float(env["SOAK_LOSS"]), "delay_ms": float(env["SOAK_DELAY"]),
        "jitter_ms": float(env["SOAK_JITTER"]), "churn_per_s": float(env["SOAK_CHURN"]),
        "interest_radius_m": float(env["SOAK_RADIUS"]), "server_threads": int(env["SOAK_THREADS"]),
        "scenario": env["SOAK_SCENARIO"],
    },
    "impairment": {"used": env["SOAK_IMPAIRMENT"], "how": env["SOAK_IMPAIRMENT_NOTE"]},
    "crashes": {
        "server_exit_status": server_rc, "server_died_before_end": died_early,
        "server_died_at_s": num("SOAK_DIED_AT"),
        "server_hung_after_sigterm": hung, "tester_exit_status": tester_rc,
        "every_player_joined": env["SOAK_JOINED"] == "1",
        "tester_ended_before_the_end": env["SOAK_TESTER_EARLY"] == "1",
    },
    "late_ticks": {
        "window": "from every player joined to the end, %.0f s" % held_s,
        "late_ticks": diff(m1, m2, "steerd_late_ticks_total"),
        "ticks": diff(m1, m2, "steerd_ticks_total"),
        "late_ticks_whole_run": diff(m0, m3, "steerd_late_ticks_total"),
        "tick_p99_ms": quantile(m1, m2, "steerd_tick_seconds", 0.99),
        "tick_p50_ms": quantile(m1, m2, "steerd_tick_seconds", 0.50),
        "snapshot_build_p99_ms": quantile(m1, m2, "steerd_snapshot_build_seconds", 0.99),
    },
    "rss_kb": {
        "start": rss_start, "end": rss_end,
        "growth": (rss_end - rss_start) if rss_start is not None and rss_end is not None else None,
        "after_players_left": num("SOAK_RSS_AFTER"), "peak": peak_kb,
    },
    "snapshots": {
        "stalls": ltget("stall_ms", "count"), "longest_stall_ms": ltget("stall_ms", "max"),
        "stall_p99_ms": ltget("stall_ms", "p99"),
        "stalled_sample_percent": (100.0 * samples.get("stalled", 0) / sample_total) if sample_total else None,
        "interval_p99_ms": ltget("snapshot_interval_ms", "p99"),
        "interval_max_ms": ltget("snapshot_interval_ms", "max"),
        "snapshots": ltget("counts", "snapshots"), "abandoned": ltget("counts", "snapshots_abandoned"),
        "decode_failures": ltget("counts", "decode_failures"),
    },
    "view": {
        "npcs_lost": ltget("counts", "entities_lost"),
        "npcs_vanished": ltget("counts", "entities_vanished"),
        "npcs_lost_joining": ltget("counts", "entities_lost_joining"),
        "npcs_vanished_joining": ltget("counts", "entities_vanished_joining"),
        "longest_loss_ms": ltget("lost_entity_gap_ms", "max"),
    },
    "players": {
        "connected": ltget("counts", "connected"), "connected_at_end": ltget("counts", "connected_at_end"),
        "left_and_replaced": ltget("counts", "churned"), "timed_out": ltget("counts", "timed_out"),
        "disconnected_by_server": ltget("counts", "disconnected"), "refused": ltget("counts", "refused"),
        "server_connects": diff(m0, m3, "steerd_connects_total"),
        "server_disconnects": diff(m0, m3, "steerd_disconnects_total"),
        "server_client_timeouts": diff(m0, m3, "steerd_client_timeouts_total"),
        "rtt_p50_ms": ltget("rtt_ms", "p50"),
        "tester_tick_lag_p99_ms": ltget("tester_tick_lag_ms", "p99"),
        "tester_cpu_percent": (100.0 * ltget("tester", "cpu_s") / ltget("elapsed_s"))
                              if ltget("tester", "cpu_s") is not None and ltget("elapsed_s") else None,
    },
}
why = []
if died_early:
    why.append("the server died before the end")
if hung:
    why.append("the server did not stop on SIGTERM")
if server_rc != 0:
    why.append("the server exited with status %d" % server_rc)
if lt is None:
    why.append("no report from the load tester")
if tester_rc != 0:
    why.append("the load tester exited with status %d" % tester_rc)
if env["SOAK_TESTER_EARLY"] == "1":
    why.append("the load tester ended before the end")
ok = not why
figures["result"] = "pass" if ok else "fail"
figures["why"] = why
json.dump(figures, open(os.path.join(out, "soak.json"), "w"), indent=2)

def status(rc):
    if rc > 128:
        try:
            return "%d (%s)" % (rc, signal.Signals(rc - 128).name)
        except ValueError:
            pass
    return str(rc)

def f(v, fmt="%.0f", unit=""):
    return "n/a" if v is None else (fmt % v) + unit

c, lt_, r, s, v, p = (figures[k] for k in ("crashes", "late_ticks", "rss_kb", "snapshots", "view", "players"))
mb = lambda kb: None if kb is None else kb / 1024.0
cfg = figures["config"]
lines = [
    "# Soak: %g min, %d players, %g %% loss, %g ms +- %g ms, churn %g/s" % (
        cfg["minutes"], cfg["players"], cfg["loss_percent"], cfg["delay_ms"], cfg["jitter_ms"], cfg["churn_per_s"]),
    "",
    "Scenario %s, --interest-radius %g, server --threads %d. Impairment: **%s**: %s." % (
        cfg["scenario"], cfg["interest_radius_m"], cfg["server_threads"], figures["impairment"]["used"],
        figures["impairment"]["how"]),
    "",
    "| figure | value |",
    "|---|---|",
    "| server exit status (SIGTERM at the end) | %s%s |" % (status(server_rc), " (hung: SIGKILL)" if hung else ""),
    "| server died before the end | %s |" % (
        ("**yes**, %s s after the players started" % env["SOAK_DIED_AT"]) if died_early else "no"),
    "| load tester exit status | %d |" % tester_rc,
    "| late ticks (%s) | %s of %s; whole run %s |" % (lt_["window"], f(lt_["late_ticks"]), f(lt_["ticks"]),
                                                  f(lt_["late_ticks_whole_run"])),
    "| tick p50 / p99 | %s / %s ms |" % (f(lt_["tick_p50_ms"], "%.2f"), f(lt_["tick_p99_ms"], "%.2f")),
    "| server RSS start / end (growth) | %s / %s MB (%s MB); after the players left %s MB, peak %s MB |" % (
        f(mb(r["start"]), "%.1f"), f(mb(r["end"]), "%.1f"), f(mb(r["growth"]), "%+.1f"),
        f(mb(r["after_players_left"]), "%.1f"), f(mb(r["peak"]), "%.1f")),
    "| snapshot stalls (count, longest) | %s, %s ms (%s %% of view samples stalled) |" % (
        f(s["stalls"]), f(s["longest_stall_ms"], "%.0f"), f(s["stalled_sample_percent"], "%.3f")),
    "| snapshot interval p99 / max | %s / %s ms |" % (f(s["interval_p99_ms"], "%.0f"), f(s["interval_max_ms"], "%.0f")),
    "| snapshots received, abandoned, decode failures | %s, %s, %s |" % (
        f(s["snapshots"]), f(s["abandoned"]), f(s["decode_failures"])),
    "| NPCs lost from view inside the interest area (back later) | %s, of them %s in a player's first 2 s (longest %s ms) |" % (
        f(v["npcs_lost"]), f(v["npcs_lost_joining"]), f(v["longest_loss_ms"], "%.0f")),
    "| NPCs vanished from view inside the interest area (not back in 5 s) | %s, of them %s in a player's first 2 s |" % (
        f(v["npcs_vanished"]), f(v["npcs_vanished_joining"])),
    "| players connected / at end / left and replaced | %s / %s / %s |" % (
        f(p["connected"]), f(p["connected_at_end"]), f(p["left_and_replaced"])),
    "| players timed out / disconnected by the server / refused | %s / %s / %s |" % (
        f(p["timed_out"]), f(p["disconnected_by_server"]), f(p["refused"])),
    "| server connects / disconnects / silence timeouts | %s / %s / %s |" % (
        f(p["server_connects"]), f(p["server_disconnects"]), f(p["server_client_timeouts"])),
    "| RTT p50; tester tick lag p99, tester CPU | %s ms; %s ms, %s %% of a core |" % (
        f(p["rtt_p50_ms"], "%.0f"), f(p["tester_tick_lag_p99_ms"], "%.1f"), f(p["tester_cpu_percent"], "%.0f")),
    "",
    "Result: **PASS** (the server ran to the end and exited 0 on SIGTERM; the tester finished)." if ok
    else "Result: **FAIL**: %s." % "; ".join(why),
]
text = "\n".join(lines) + "\n"
open(os.path.join(out, "soak.md"), "w").write(text)
print(text, end="")
print("files: %s" % out)
raise SystemExit(0 if ok else 1)
EOF
