#!/usr/bin/env bash
# Builds the benches of the release preset and runs them.
#
#   scripts/bench.sh [all|micro|tick|net|crowd|paths|control|control-flood|churn|players|record|levels|capi|changes|doors] [flags...]
#
#   micro  bench_steering: micro-benches of the steering library (--benchmark_min_time=0.05 s,
#          override with STEERD_BENCH_MIN_TIME)
#   tick   bench_tick: World::step() on the crowd and default scenarios, 10k/100k/200k agents,
#          1 and 2 threads (a few minutes on 2 cores); then a table of ms/tick, p99, M agent
#          updates per second and the 2-thread speedup
#   net    bench/snapshot_bytes: bytes per moving entity of the snapshot stream (default scenario,
#          60 s at 20 Hz, round trip 100 ms, then 5 % loss, then 30 ms); protocol numbers, no sockets;
#          then bench/snapshot_build: server CPU per snapshot with 1,000 clients (default) and 500
#          (crowd 10,000, interest radius 100 m)
#   crowd  bench/crowd_crossing: the crowd-crossing scenario (4,000 walkers on a navmesh) run by
#          steerd and by DetourCrowd on the same world: ms/tick, agent-updates/s, goals/s, stuck,
#          overlap, speed (flags go to it: --agents N --seconds S --threads T); then the flow through
#          scenarios/doorway.txtpb and scenarios/corridor.txtpb (120 s a seed, seeds 1-FLOW_SEEDS,
#          default 40: crossings a second, the longest wait near the gate and its spread over the
#          seeds, lane order)
#   paths  bench/crowd_crossing --replan-storm: path requests per second through the pooled
#          planner and tick time while 1,000 agents all replan at once
#   control  bench/command_throughput: the tick with and without 10,000 commands a second from a
#          game's logic over the control channel (flags go to it: --scenario --agents --rate
#          --seconds --threads)
#   control-flood  bench/control_flood: the tick with no flood, then under one control client's
#          flood of subscribes (10,000 a second) and of spawns (1,600 a second), on the default
#          scenario at 344 and 10,000 agents: mean, p99, p99 against no flood, commands deferred
#          and refused by the control budget (1 thread, timed on the thread's CPU clock so other
#          processes on a busy machine do not show; flags go to it: --agents --floods --seconds
#          --clock wall --threads --spawn-point X Y)
#   churn  bench/churn: tick and memory before and after a million players joining and leaving
#          (crowd-crossing, 64 alive at once), then the same ticks without churn to compare with
#          (flags go to it: --scenario --cycles --per-tick --players --threads)
#   record bench/recording: what --record adds to a tick (state hash, digest, the recorder's write)
#          and how fast --replay runs, on crowd worlds of 1k, 10k, 100k agents (flags: --scenario
#          --agents --threads --ticks)
#   players  bench/player_motion: the server's cost of moving 1,000 players from their inputs
#          (intent mode) on the default scenario's scene (flags: --scenario --players --ticks)
#   levels the sample levels (scenarios/levels/, docs/LEVELS.md): load and navmesh build time, cold
#          and from the cache, navmesh size, then the tick and goals a second of 1,000 and 4,000
#          walkers on each (steerd --level, 900 ticks, 2 threads; LEVEL_AGENTS overrides "1000 4000")
#   capi   bench/client_frame: what a game's frame costs the client library, N clients (CAPI_CLIENTS,
#          default 200) against a live steerd (default scenario, no player bodies), each updated and
#          its entities read 60 times a second for 5 s, through the C API (libsteerd-client) and
#          through the C++ Client: microseconds per client-frame, and the ratio
#   changes  bench/world_changes: a door's toggle against a cold navmesh build (castle-gate) and the
#          tick right after one; then crowd-crossing's 4,000 walkers with none and with 100 circles
#          moved every tick (flags go to it: --obstacles --rounds --ticks --threads --still)
#   doors  bench/door_family: 20 generated door layouts (a door 1.5-3 m wide in a wall 0.5-2 m thick,
#          100-300 walkers on looped routes through it from both rooms), 120 s each: crossings a
#          second per metre of door and the longest any walker stayed within 5 m of it, against the
#          bars 0.75 and 15 s, and the worst (flags go to it: --layouts --seconds --threads
#          --family-seed --print-scenario --replace FROM=>TO, a change to every layout to try a tuning)
#   all    micro and tick (the default)
#
# Extra flags go to every bench binary run, e.g. scripts/bench.sh tick --benchmark_filter=agents:10000/
# JSON results land next to the binaries: build/release/bench/{micro,tick}.json.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
[ $# -gt 0 ] && shift
case "$mode" in
  all | micro | tick | net | crowd | paths | control | control-flood | churn | players | record | levels | capi | changes | doors) ;;
  -h | --help)
    sed -n '2,50p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "usage: scripts/bench.sh [all|micro|tick|net|crowd|paths|control|control-flood|churn|players|record|levels|capi|changes|doors] [flags...]" >&2
    exit 2
    ;;
esac

scripts/deps.sh
cmake --preset release -DSTEERD_BUILD_BENCH=ON >/dev/null
cmake --build --preset release --target steerd bench_steering bench_tick snapshot_bytes snapshot_build crowd_crossing command_throughput control_flood churn player_motion recording \
  steerd_client_c client_frame_capi client_frame_cpp world_changes door_family -j"$(nproc)"

out=build/release/bench
# Google Benchmark 1.7.1 (Debian 12) takes min_time as a plain number of seconds.
min_time=${STEERD_BENCH_MIN_TIME:-0.05}

if [ "$mode" = doors ]; then
  "$out/door_family" "$@"
  exit 0
fi
if [ "$mode" = changes ]; then
  "$out/world_changes" "$@"
  exit 0
fi

if [ "$mode" = capi ]; then
  n=${CAPI_CLIENTS:-200}
  # A fresh server for each run (a run's clients leave by timing out), C++ and C API in turn,
  # three rounds: the median of each.
  lines=()
  for round in 1 2 3; do
    for kind in cpp capi; do
      port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
      build/release/server/app/steerd --bind 127.0.0.1 --port "$port" --metrics-port 0 --threads 1 \
        --status-interval 0 --max-clients "$((n + 8))" --max-clients-per-address 0 >/dev/null 2>&1 &
      server=$!
      sleep 1
      line=$("$out/client_frame_$kind" "127.0.0.1:$port" "$n" 5) || true
      kill "$server" 2>/dev/null
      wait "$server" 2>/dev/null || true
      echo "round $round: $line"
      lines+=("$line")
    done
  done
  python3 - "${lines[@]}" <<'PY'
import re, statistics, sys
us = {"C++": [], "C API": []}
for line in sys.argv[1:]:
    m = re.match(r"(C\+\+|C API): .* ([0-9.]+) us a client-frame", line)
    if m: us[m.group(1)].append(float(m.group(2)))
cpp, capi = statistics.median(us["C++"]), statistics.median(us["C API"])
print(f"median us a client-frame: C++ {cpp:.2f}, C API {capi:.2f}; C API / C++ {capi / cpp:.2f}x")
PY
  exit 0
fi

if [ "$mode" = levels ]; then
  python3 - build/release/server/app/steerd scenarios/levels "${LEVEL_AGENTS:-1000 4000}" <<'PY'
# Each sample level: load + navmesh build (cold, then from the cache), navmesh size, and the tick
# and goals a second of N walkers (steerd --level --headless --report).
import os, re, subprocess, sys, tempfile, time
steerd, levels, counts = sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3].split()]
samples = [("town.gltf", ["--level-blocking", "house*"]), ("building.obj", []), ("yard.tmx", [])]
def run(args):
    t0 = time.perf_counter()
    p = subprocess.run([steerd] + args, capture_output=True, text=True)
    return p, (time.perf_counter() - t0) * 1e3
print("level | triangles | polygons | cache bytes | load + build cold ms | build ms | load cached ms")
for name, extra in samples:
    path = os.path.join(levels, name)
    with tempfile.TemporaryDirectory() as cache:
        cold, cold_ms = run(["--check-scenario", path, "--nav-cache", cache] + extra)
        warm, warm_ms = run(["--check-scenario", path, "--nav-cache", cache] + extra)
        size = sum(os.path.getsize(os.path.join(cache, f)) for f in os.listdir(cache) if f.endswith(".bin"))
    out = cold.stdout + cold.stderr
    tris = re.search(r"(\d+) triangles", out)
    built = re.search(r"navmesh built in (\d+) ms \((\d+) tiles, (\d+) polygons\)", out)
    print(f"{name} | {tris.group(1) if tris else '-'} | {built.group(3) if built else '-'} | {size} | "
          f"{cold_ms:.0f} | {built.group(1) if built else '-'} | {warm_ms:.0f}")
print()
print("level | walkers | ms/tick (mean) | p99 ms | goals/s | stuck at end | deepest overlap (r) | inside walls at end | off the level")
for name, extra in samples:
    for n in counts:
        p, _ = run(["--headless", "--level", os.path.join(levels, name), "--agents", str(n), "--ticks", "900",
                    "--threads", "2", "--report", "--nav-cache", "none"] + extra)
        out = p.stdout + p.stderr
        tick = re.search(r"mean ([\d.]+) ms, p99 ([\d.]+) ms", out)
        goals = re.search(r"goals reached \d+ \(([\d.]+) per second\)", out)
        stuck = re.search(r"at the end (\d+) of (\d+) with a goal", out)
        inside = re.search(r"inside obstacles or walls: .* (\d+) at the end", out)
        off = re.search(r"off the walkable area: (\d+)", out)
        overlap = re.search(r"max depth ([\d.]+) r", out)
        g = lambda m, i=1: m.group(i) if m else "-"
        print(f"{name} | {n} | {g(tick)} | {g(tick, 2)} | {g(goals)} | {g(stuck)} | {g(overlap)} | {g(inside)} | {g(off)}")
PY
  exit 0
fi

if [ "$mode" = net ]; then
  for args in "" "--loss 0.05" "--rtt-ms 30"; do
    # shellcheck disable=SC2086 # the args are meant to split
    build/release/bench/snapshot_bytes $args
    echo
  done
  build/release/bench/snapshot_build --players 1000
  echo
  build/release/bench/snapshot_build --scenario crowd --agents 10000 --players 500 --interest-radius 100
  exit 0
fi

if [ "$mode" = control ]; then
  build/release/bench/command_throughput "$@"
  exit 0
fi
if [ "$mode" = control-flood ]; then
  build/release/bench/control_flood --threads 1 --clock thread-cpu "$@"
  exit 0
fi
if [ "$mode" = players ]; then
  build/release/bench/player_motion "$@"
  exit 0
fi
if [ "$mode" = record ]; then
  build/release/bench/recording "$@"
  exit 0
fi
if [ "$mode" = churn ]; then
  build/release/bench/churn "$@"
  echo
  build/release/bench/churn --no-churn "$@"
  exit 0
fi
if [ "$mode" = crowd ]; then
  build/release/bench/crowd_crossing "$@"
  # Flow through a door and a corridor: the gates' lines of the headless report, 120 s a seed.
  # The longest wait is a maximum over every walker and two minutes, with a long tail from seed to
  # seed, so it is summed up over FLOW_SEEDS seeds (default 40, under a second each); the first
  # three seeds' lines are shown as they are.
  seeds=${FLOW_SEEDS:-40}
  for scenario in doorway corridor; do
    echo
    echo "== $scenario (scenarios/$scenario.txtpb, 120 s, seeds 1-$seeds) =="
    lines=$(for seed in $(seq 1 "$seeds"); do
      build/release/server/app/steerd --headless --scenario "scenarios/$scenario.txtpb" \
        --ticks 3600 --seed "$seed" --report 2>/dev/null | grep '^gate '
    done)
    echo "$lines" | head -3 | awk '{print "seed " NR ": " $0}'
    echo "$lines" | sed -E 's/.*\(([0-9.]+)\/s\).*longest within [0-9.]+ m: ([0-9.]+) s; lane order ([0-9.]+).*/\2 \1 \3/' |
      sort -n | awk '{w[NR] = $1; flow += $2; lanes += $3; if ($1 > 15) over++}
        END {printf "%d seeds: through the gate %.2f/s (mean), lane order %.2f (mean); longest wait near it: median %.1f s, 90th percentile %.1f s, at most %.1f s, over 15 s at %d\n",
             NR, flow / NR, lanes / NR, w[int((NR + 1) / 2)], w[int(NR * 0.9 + 0.5)], w[NR], over}'
  done
  exit 0
fi
if [ "$mode" = paths ]; then
  build/release/bench/crowd_crossing --replan-storm "$@"
  exit 0
fi

if [ "$mode" = all ] || [ "$mode" = micro ]; then
  echo "== micro-benches (bench_steering) =="
  "$out/bench_steering" --benchmark_min_time="$min_time" \
    --benchmark_out="$out/micro.json" --benchmark_out_format=json "$@"
fi

if [ "$mode" = all ] || [ "$mode" = tick ]; then
  echo "== whole-tick benches (bench_tick) =="
  "$out/bench_tick" --benchmark_out="$out/tick.json" --benchmark_out_format=json "$@"
  echo
  python3 - "$out/tick.json" <<'PY'
import json, re, statistics, sys

with open(sys.argv[1]) as f:
    runs = json.load(f)["benchmarks"]

to_ms = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
rows = {}  # (scenario, requested agents, threads) -> dict
order = []
for r in runs:
    if r.get("run_type", "iteration") != "iteration":
        continue  # repetitions' aggregates: the median of the runs is taken below
    m = re.match(r"BM_Tick/([^/]+)/agents:(\d+)/threads:(\d+)", r["name"])
    if not m:
        continue
    key = (m.group(1), int(m.group(2)), int(m.group(3)))
    if key not in rows:
        rows[key] = {"ms": [], "p99": [], "agents": None, "error": None}
        order.append(key)
    row = rows[key]
    if r.get("error_occurred"):
        row["error"] = r.get("error_message", "error")
        continue
    row["ms"].append(r["real_time"] * to_ms[r.get("time_unit", "ns")])
    row["p99"].append(r.get("p99_ms", float("nan")))
    row["agents"] = int(r.get("agents", key[1]))

header = ("scenario", "agents", "threads", "ms/tick", "p99 ms", "M agent-updates/s", "2-thread speedup")
table = []
for key in order:
    scenario, requested, threads = key
    row = rows[key]
    if row["error"] or not row["ms"]:
        table.append((scenario, str(requested), str(threads), "error", "", row["error"] or "no runs", ""))
        continue
    ms = statistics.median(row["ms"])
    p99 = statistics.median(row["p99"])
    agents = row["agents"]
    rate = agents / (ms / 1e3) / 1e6
    speedup = ""
    if threads != 1:
        base = rows.get((scenario, requested, 1))
        if base and base["ms"] and not base["error"]:
            speedup = f"{statistics.median(base['ms']) / ms:.2f}x"
    table.append((scenario, str(agents), str(threads), f"{ms:.2f}", f"{p99:.2f}", f"{rate:.2f}", speedup))

if not table:
    print("no tick benches in the results")
    sys.exit(0)
widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(header)]
def line(cells):
    return " | ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
print(line(header))
print("-+-".join("-" * w for w in widths))
for t in table:
    print(line(t))
PY
fi
