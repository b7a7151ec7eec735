#!/usr/bin/env bash
# steer-viewer against a real steerd (--allow-debug), under Xvfb: with --screenshot --after 3
# --bot circle --select 300 it exits 0, writes a PNG that is not blank (many distinct colours),
# drew every entity of the newest snapshot (drawn_entities == server_entities), holds the default
# scenario's static scene (obstacles, walls, paths), and got the debug stream about the selected
# pursuer (its behaviours). Exit 77 (skipped) without xvfb-run.
set -uo pipefail
steerd=$1
viewer=$2
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
# shellcheck source=../lib/xvfb_viewer.sh
. "$(dirname "$0")/../lib/xvfb_viewer.sh"
command -v xvfb-run >/dev/null 2>&1 || { echo "SKIP: xvfb-run is not installed (Debian: xvfb)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }

tmp=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

start_steerd "$tmp/server.log" --allow-debug || exit 1

png=$tmp/shot.png
xvfb_viewer "$tmp" "$viewer" --server "127.0.0.1:$port" \
  --screenshot "$png" --after 3 --bot circle --width 800 --height 500 --select 300 \
  --overlay forces,target,sensors >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "steer-viewer exited $rc:"; cat "$tmp/err"; exit 1; }
[ -s "$png" ] || { echo "no screenshot written"; cat "$tmp/err"; exit 1; }

line=$(grep '^drawn_entities ' "$tmp/out")
[ -n "$line" ] || { echo "no 'drawn_entities N server_entities M' line on stdout:"; cat "$tmp/out"; exit 1; }
read -r _ drawn _ server <<<"$line"
[ "$server" -gt 0 ] 2>/dev/null || { echo "no entities from the server: $line"; exit 1; }
[ "$drawn" = "$server" ] || { echo "drew $drawn entities of the server's $server"; cat "$tmp/err"; exit 1; }

scene=$(grep '^scene_parts ' "$tmp/out")
read -r _ parts _ obstacles _ walls _ paths _ <<<"$scene"
[ "${parts:-0}" -gt 0 ] && [ "${obstacles:-0}" -gt 0 ] && [ "${walls:-0}" -gt 0 ] && [ "${paths:-0}" -gt 0 ] ||
  { echo "the static scene did not arrive whole: '$scene'"; cat "$tmp/err"; exit 1; }
inspected=$(grep '^inspected ' "$tmp/out")
read -r _ _ _ found _ behaviours <<<"$inspected"
[ "$found" = found ] && [ "${behaviours:-0}" -gt 0 ] ||
  { echo "no debug stream about the selected NPC: '$inspected'"; cat "$tmp/err"; exit 1; }

# Decode the PNG (inflate, undo the filters) and count distinct colours.
python3 - "$png" <<'PY' || exit 1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
i, idat, width, height, ctype = 8, b"", 0, 0, 0
while i < len(data):
    n, kind = struct.unpack(">I4s", data[i:i + 8])
    body = data[i + 8:i + 8 + n]
    if struct.unpack(">I", data[i + 8 + n:i + 12 + n])[0] != zlib.crc32(kind + body):
        sys.exit(f"bad CRC in {kind}")
    if kind == b"IHDR":
        width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    i += 12 + n
bpp = 4 if ctype == 6 else 3
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
colours = set()
for y in range(height):
    f = raw[y * (stride + 1)]
    row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = row[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: row[x] = (row[x] + a) & 255
        elif f == 2: row[x] = (row[x] + b) & 255
        elif f == 3: row[x] = (row[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    colours.update(bytes(row[k:k + 3]) for k in range(0, stride, bpp))
    prev = row
print(f"screenshot {width}x{height}, {len(colours)} distinct colours")
sys.exit(0 if len(colours) >= 32 else f"only {len(colours)} colours: blank?")
PY
echo "$line"
echo "$scene"
echo "$inspected"
