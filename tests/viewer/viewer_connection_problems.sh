#!/usr/bin/env bash
# steer-viewer's connection problems, under Xvfb, with --screenshot (which must then exit
# non-zero with a clear message): no server at the address (timed out), a server that wants a
# connect token and gets none or a forged one (refused), a server that shuts down while the
# viewer watches; and with a token from steerd --issue-token it gets in. Exit 77 (skipped)
# without xvfb-run.
set -uo pipefail
steerd=$1
viewer=$2
# shellcheck source=../lib/steerd_server.sh
. "$(dirname "$0")/../lib/steerd_server.sh"
# shellcheck source=../lib/xvfb_viewer.sh
. "$(dirname "$0")/../lib/xvfb_viewer.sh"
command -v xvfb-run >/dev/null 2>&1 || { echo "SKIP: xvfb-run is not installed (Debian: xvfb)"; exit 77; }

tmp=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
after=0.5
view() { xvfb_viewer "$tmp" "$viewer" --width 400 --height 300 --screenshot "$tmp/shot.png" --after "$after" "$@"; }

# 1. Nobody listening: the handshake times out (5 s); exit non-zero, say so.
free=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start=$(date +%s)
view --server "127.0.0.1:$free" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] || { echo "no server: exit 0"; exit 1; }
[ $rc -ne 124 ] || { echo "no server: the viewer hung"; exit 1; }
grep -q "Cannot reach a steerd server at 127.0.0.1:$free" "$tmp/err" || { echo "no server: unclear message:"; cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/shot.png" ] || { echo "no server: a screenshot was written anyway"; exit 1; }
echo "no server: exit $rc after $(( $(date +%s) - start )) s: $(grep 'Cannot reach' "$tmp/err")"

# 2. A server with a token key, and no token: refused, and the message says what to do.
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$tmp/key"
start_steerd "$tmp/server.log" --token-key "$tmp/key" || exit 1
view --server "127.0.0.1:$port" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "no token: exit $rc"; cat "$tmp/err"; exit 1; }
grep -q "refused this viewer" "$tmp/err" && grep -q -- "--token" "$tmp/err" ||
  { echo "no token: unclear message:"; cat "$tmp/err"; exit 1; }
echo "no token: exit $rc: $(grep 'refused' "$tmp/err")"

# 3. A forged token (right format, made with another key): refused too.
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$tmp/otherkey"
"$steerd" --token-key "$tmp/otherkey" --issue-token 42 >"$tmp/forged" || { echo "--issue-token failed"; exit 1; }
view --server "127.0.0.1:$port" --token "$tmp/forged" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "refused this viewer" "$tmp/err" ||
  { echo "forged token: exit $rc:"; cat "$tmp/err"; exit 1; }
echo "forged token: exit $rc: $(grep 'refused' "$tmp/err")"

# 3b. Bytes that are no connect token at all: a clear message, no handshake.
printf '%s\n' "$(head -c 80 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$tmp/garbage"
view --server "127.0.0.1:$port" --token "$tmp/garbage" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "connect token" "$tmp/err" ||
  { echo "garbage token: exit $rc:"; cat "$tmp/err"; exit 1; }
echo "garbage token: exit $rc: $(grep 'connect token' "$tmp/err" | head -n1)"

# 4. A token sealed with the server's key: in, and a screenshot.
"$steerd" --token-key "$tmp/key" --issue-token 42 >"$tmp/token" || { echo "--issue-token failed"; exit 1; }
view --server "127.0.0.1:$port" --token "$tmp/token" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/shot.png" ] || { echo "valid token: exit $rc:"; cat "$tmp/err"; exit 1; }
echo "valid token: $(cat "$tmp/out")"

# 5. The server shuts down (SIGTERM) while the viewer is connected: exit non-zero, say so. A file
# of its own for what it says: the last step's "connected to" is in $tmp/err, and the loop below
# can read before the background viewer's redirection has emptied a shared one.
after=20
view --server "127.0.0.1:$port" --token "$tmp/token" >"$tmp/out" 2>"$tmp/err5" &
viewer_pid=$!
# (Up to 60 s: under a loaded machine Xvfb and the viewer once took more than 15 s to start.)
for _ in $(seq 600); do grep -q "connected to" "$tmp/err5" && break; sleep 0.1; done
grep -q "connected to" "$tmp/err5" || { echo "shutdown: the viewer did not connect:"; cat "$tmp/err5"; kill $viewer_pid 2>/dev/null; exit 1; }
sleep 1
kill -TERM "$pid"
wait "$pid" 2>/dev/null
pid=
wait $viewer_pid
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "shutdown: exit $rc:"; cat "$tmp/err5"; exit 1; }
grep -q "shut down" "$tmp/err5" || { echo "shutdown: unclear message:"; cat "$tmp/err5"; exit 1; }
echo "server shutdown: exit $rc: $(grep 'shut down' "$tmp/err5")"
