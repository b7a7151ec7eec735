#!/usr/bin/env bash
# The C API's C# and Python bindings drive a live server: steerd --allow-control on a free port,
# scripts/engine-samples.sh against it (the C# sample on Mono, the Python one on ctypes, each
# walking the player round a circle and spawning NPCs through the control role), and both say ok
# with snapshots decoded, metres walked and NPCs spawned.
#   engine_samples.sh STEERD [LIBSTEERD_CLIENT]   (the library: the build tree's, else the ci preset's)
set -uo pipefail
steerd=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
tmp=$(mktemp -d)
pid=
trap 'stop_steerd; rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

[ $# -ge 2 ] && export STEERD_CLIENT_LIB=$2
start_steerd "$tmp/server.log" --allow-control --bind 127.0.0.1 || exit 1
timeout 280 "$root/scripts/engine-samples.sh" "127.0.0.1:$port" 4 >"$tmp/out.log" 2>&1
rc=$?
cat "$tmp/out.log"
[ "$rc" = 0 ] || fail "scripts/engine-samples.sh exit $rc"
kill -0 "$pid" 2>/dev/null || fail "steerd died during the samples"
for who in csharp python; do
  line=$(grep -E "^$who ok: " "$tmp/out.log" | tail -n1)
  [ -n "$line" ] || fail "no '$who ok' line"
  echo "$line" | grep -qE "^$who ok: [1-9][0-9]* snapshots, walked [0-9]+\.[0-9] m, spawned [1-9][0-9]* NPCs, [0-9]+ events$" ||
    fail "$who: not the expected line: $line"
  walked=$(echo "$line" | sed -n 's/.*walked \([0-9]*\)\..*/\1/p')
  [ "${walked:-0}" -ge 1 ] || fail "$who walked under 1 m: $line"
done
grep -q "(control)" "$tmp/server.log" || fail "the server did not log the control role"
echo "ok"
