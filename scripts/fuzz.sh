#!/usr/bin/env bash
# Fuzzes with libFuzzer under ASan and UBSan, for a fixed number of inputs, from small seed corpora:
#   packet_fuzzer   the packet decoder (framing, protobuf parse, snapshot and scene parts): RUNS
#   control_fuzzer  a control client's Control packets through the ControlLink and the Controller
#                   into a small live world: RUNS / 10 (each input applies commands, every 8th
#                   steps the world)
#   scenario_fuzzer scenario file text through the parser and every check (small valid files
#                   built and stepped), seeded with scenarios/: RUNS / 100
#   navcache_fuzzer the navmesh cache loader behind its seal: RUNS / 100
#   obj_fuzzer, gltf_fuzzer, tiled_fuzzer
#                   level files (OBJ, glTF .gltf/.glb, Tiled .tmx/.tmj), seeded with
#                   scenarios/levels/: RUNS / 100 each
#   recording_fuzzer recording files through the loader and the replay (headless or served, small
#                   worlds, 64 ticks), seeded with generated recordings: RUNS / 100
#   config_fuzzer   --config file text through the limits, CLI11's parser and every flag's check,
#                   seeded with generated configs: RUNS / 10
# A crash or sanitizer report fails the script and leaves the input in build/fuzz/crash-*.
# Usage: scripts/fuzz.sh [RUNS]                   the scaled runs above (default RUNS 200000)
#        scripts/fuzz.sh --all RUNS [TARGET...]   every target (or those named) RUNS times each
# FUZZ_JOBS=J splits each target's runs over J processes (seeds 1..J, a corpus copy each), for
# long runs on several cores.
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
if [[ ${1:-} == --all ]]; then
  all=1
  shift
  [[ ${1:-} =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh --all RUNS [TARGET...]" >&2; exit 2; }
fi
runs=${1:-200000}
[[ $runs =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh [RUNS] | --all RUNS [TARGET...]" >&2; exit 2; }
shift || true
only=("$@")
extra=()
command -v clang++ >/dev/null 2>&1 || extra+=(clang)
dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "install ok installed" || extra+=(libclang-rt-14-dev)
STEERD_EXTRA_PACKAGES="${extra[*]}" scripts/deps.sh
CC=clang CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEERD_FUZZ=ON \
  -DSTEERD_BUILD_TESTS=OFF -DSTEERD_BUILD_BENCH=OFF -DCMAKE_CXX_COMPILER_LAUNCHER= >/dev/null
cmake --build build/fuzz --target packet_fuzzer control_fuzzer scenario_fuzzer navcache_fuzzer obj_fuzzer gltf_fuzzer \
  tiled_fuzzer recording_fuzzer config_fuzzer -j "$(nproc)"
mkdir -p build/fuzz/corpus build/fuzz/control-corpus build/fuzz/scenario-corpus build/fuzz/navcache-corpus \
  build/fuzz/obj-corpus build/fuzz/gltf-corpus build/fuzz/tiled-corpus build/fuzz/recording-corpus \
  build/fuzz/config-corpus
cp scenarios/levels/*.obj build/fuzz/obj-corpus/
cp scenarios/levels/*.gltf build/fuzz/gltf-corpus/
# The Tiled fuzzer's first byte picks the format: odd for XML (.tmx), even for JSON.
for f in scenarios/levels/*.tmx; do { printf '\x01'; cat "$f"; } >"build/fuzz/tiled-corpus/$(basename "$f")"; done
cp scenarios/*.txtpb build/fuzz/scenario-corpus/
# Inputs that once failed (fuzz/regressions/TARGET/): in the corpus, so every run tries them first.
cp fuzz/regressions/scenario/* build/fuzz/scenario-corpus/
python3 - build/fuzz/corpus <<'PY'
# Seeds: a header + tiny valid bodies for a few packet kinds (the fuzzer mutates from there).
import struct, sys, os
d = sys.argv[1]
# The header's version byte must be kProtocolVersion (proto/packet.h), or every seed is dropped.
def dg(kind, body): return struct.pack('<IBBHHI', 0x53545244, 5, kind, 1, 0, 0) + body
seeds = {
  'ping': dg(8, bytes([0x42, 2, 0x08, 5])),
  'input': dg(6, bytes([0x32, 9, 0x0a, 7, 0x08, 1, 0x15, 0, 0, 0x80, 0x3f])),
  'snapshot': dg(7, bytes([0x3a, 12, 0x08, 20, 0x10, 10, 0x20, 1, 0x30, 0xff, 0xff, 0xff, 0xff, 0x0f])),
  'connect': dg(1, bytes([0x0a, 0xf3, 0x01, 0x7a, 0xf0, 0x01]) + bytes(240)),
  # Scene part 0 of 1: one obstacle at (2, 3) units, radius 64 units.
  'scene': dg(12, bytes([0x62, 13, 0x08, 0, 0x10, 1, 0x1a, 1, 4, 0x22, 1, 6, 0x2a, 1, 0x40])),
}
for name, data in seeds.items():
    open(os.path.join(d, name), 'wb').write(data)
PY
python3 - build/fuzz/control-corpus <<'PY'
# Seeds: Control bodies (wire.proto), hand-encoded: a spawn, a move_to, a query, an acknowledgement.
import sys, os, struct
d = sys.argv[1]
def varint(n):
    out = b''
    while True:
        b = n & 0x7f; n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n: return out
def field(num, wt, payload):
    key = varint(num << 3 | wt)
    return key + (varint(len(payload)) + payload if wt == 2 else payload)
def f32(v): return struct.pack('<f', v)
point = lambda x, y: field(1, 5, f32(x)) + field(2, 5, f32(y))
spawn = field(2, 2, field(1, 2, b'walker') + field(2, 2, point(12, 14)))
move = field(4, 2, field(1, 0, varint(0)) + field(2, 2, point(50, 50)) + field(4, 0, varint(1)))
query = field(14, 2, field(1, 0, varint(3)))
def command(seq, body): return field(1, 2, field(1, 0, varint(seq)) + body)
seeds = {
  'spawn': command(1, spawn),
  'move': command(1, move) + field(3, 0, varint(1)),
  'many': command(1, spawn) + command(2, move) + command(3, query) + field(2, 0, varint(0)),
  'ack': field(2, 0, varint(5)) + field(4, 0, varint(2)) + field(5, 5, struct.pack('<I', 3)),
}
for name, data in seeds.items():
    open(os.path.join(d, name), 'wb').write(data)
PY
python3 - build/fuzz/recording-corpus <<'PY'
# Seeds: recordings, hand-encoded (proto/recording.proto). The first byte is the fuzzer's mode: 1
# (frames given as u16 length + payload, checksummed by the fuzzer), 3 (the same, served), 0 (a
# whole file as is: the framing's checks).
import sys, os, struct
d = sys.argv[1]
def varint(n):
    out = b''
    while True:
        b = n & 0x7f; n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n: return out
def field(num, wt, payload):
    key = varint(num << 3 | wt)
    return key + (varint(len(payload)) + payload if wt == 2 else payload)
def f64(v): return struct.pack('<d', v)
def f32(v): return struct.pack('<f', v)
def header(builtin=b'crowd', agents=40, text=None, max_clients=8):
    h = field(3, 2, b'fuzz') + field(6, 0, varint(7)) + field(7, 0, varint(agents))
    h += field(5, 2, builtin) if text is None else field(4, 2, text)
    h += field(8, 1, f64(30.0)) + field(9, 0, varint(1)) + field(10, 0, varint(500)) + field(11, 1, f64(20.0))
    h += field(15, 0, varint(max_clients))
    return field(1, 2, h)
def event(kind, client, extra=b''):
    return field(2, 2, field(1, 0, varint(kind)) + field(2, 0, varint(client)) + extra)
point = lambda x, y: field(1, 5, f32(x)) + field(2, 5, f32(y))
move = field(3, 2, field(1, 2, field(1, 0, varint(1)) + field(6, 5, f32(1.0)) + field(8, 5, f32(1 / 30))))
spawn = field(4, 2, field(1, 2, field(1, 0, varint(1)) + field(2, 2, field(1, 2, b'boid') + field(2, 2, point(5, 5)))))
def tick(n, events=b'', reload=b''):
    return field(2, 2, field(1, 0, varint(n)) + events + (field(3, 2, reload) if reload else b'') +
                 field(4, 1, struct.pack('<Q', 0)))
end = field(3, 2, field(1, 0, varint(3)))
def chunks(*frames): return b''.join(struct.pack('<H', len(f)) + f for f in frames)
text = b'name: "f"\nbounds { min { x: 0 y: 0 } max { x: 50 y: 50 } }\narchetypes { name: "a" limits { radius: 0.5 mass: 1 max_speed: 2 max_force: 5 } behaviours { kind: WANDER weight: 1 } }\nspawns { archetype: "a" count: 5 min { x: 5 y: 5 } max { x: 10 y: 10 } }\n'
session = chunks(header(), tick(1, event(0, 1) + event(0, 2, field(6, 0, b'\x01') + field(7, 0, b'\x01'))),
                 tick(2, event(2, 1, move) + event(3, 2, spawn)), tick(3, event(1, 1)), end)
seeds = {
  'session': b'\x01' + session,
  'served': b'\x03' + session,
  'text': b'\x01' + chunks(header(text=text, agents=0), tick(1, event(0, 1), reload=text)),
  'joins': b'\x01' + chunks(header(max_clients=0), tick(1, b''.join(event(0, i) for i in range(1, 40)))),
  'raw': b'\x00STEERREC\x01\x00\x00\x00' + session,
}
for name, data in seeds.items():
    open(os.path.join(d, name), 'wb').write(data)
PY
python3 - build/fuzz/config-corpus <<'PY'
# Seeds: --config files (TOML and INI), keys as the flags'.
import sys, os
d = sys.argv[1]
seeds = {
  'toml': 'tick-rate = 20\nsend-rate = 10\nmax-clients = 64\nlog-format = "json"\nallow-debug = true\n',
  'ini': '[default]\nscenario = "default"\nseed = 3\nthreads = 2\ninterest-radius = 80.5\nbind = "127.0.0.1"\n',
  'lists': 'expect = ["pen:sheep>=0.9@120", "a:b>=0.5@10"]\nheadless = true\nticks = 30\n',
  'bad': 'tick-rat = 20\n[a.b.c]\nport = 70000\n',
}
for name, text in seeds.items():
    open(os.path.join(d, name), 'w').write(text)
PY
cd build/fuzz
# fuzz TARGET SCALE MAX_LEN CORPUS: runs RUNS/SCALE inputs (RUNS with --all) unless not chosen.
fuzz() {
  local target=$1 n=$((runs / $2))
  ((all)) && n=$runs
  if ((${#only[@]})) && [[ " ${only[*]} " != *" $target "* ]]; then return; fi
  local jobs=${FUZZ_JOBS:-1}
  echo "== $target: $n inputs ($jobs process(es))"
  local start=$SECONDS
  if ((jobs <= 1)); then
    "./fuzz/$target" -runs="$n" -max_len="$3" -print_final_stats=1 "$4" 2>&1 | tail -n 12
  else
    local pids=() j failed=0
    for ((j = 1; j <= jobs; j++)); do
      rm -rf "$4-$j" && cp -r "$4" "$4-$j"
      "./fuzz/$target" -seed="$j" -runs="$((n / jobs))" -max_len="$3" -print_final_stats=1 "$4-$j" \
        >"$target-$j.log" 2>&1 &
      pids+=($!)
    done
    for j in "${!pids[@]}"; do wait "${pids[$j]}" || failed=1; done
    for ((j = 1; j <= jobs; j++)); do tail -n 12 "$target-$j.log"; done
    ((failed == 0)) || { echo "== $target: a process failed (build/fuzz/$target-*.log)"; exit 1; }
  fi
  echo "== $target: done in $((SECONDS - start)) s"
}
fuzz packet_fuzzer 1 1400 corpus
fuzz control_fuzzer 10 1200 control-corpus
fuzz scenario_fuzzer 100 20000 scenario-corpus
fuzz navcache_fuzzer 100 4096 navcache-corpus
fuzz obj_fuzzer 100 16384 obj-corpus
fuzz gltf_fuzzer 100 16384 gltf-corpus
fuzz tiled_fuzzer 100 16384 tiled-corpus
fuzz recording_fuzzer 100 65536 recording-corpus
fuzz config_fuzzer 10 4096 config-corpus
