#!/usr/bin/env bash
# A matchmaker written in another language issues tokens steerd takes: deploy/matchmaker/
# issue_token.py (Python and PyNaCl, the protobuf written by hand) makes one for this server, and
# the load tester gets in with it; one made for another server is refused.
#   matchmaker_token.sh STEERD STEER_LOADTEST
set -uo pipefail
steerd=$1 loadtest=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$t"' EXIT
/usr/bin/python3 -c "import nacl" 2>/dev/null || { echo "FAIL: python3-nacl is missing (scripts/deps.sh installs it)"; exit 1; }
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$t/key.hex"
port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mm="/usr/bin/python3 $root/deploy/matchmaker/issue_token.py --key $t/key.hex"
$mm --client-id 7 --server "127.0.0.1:$port" >"$t/good.hex" || { echo "FAIL: issue_token.py failed"; exit 1; }
$mm --client-id 8 --server "127.0.0.1:$((port == 65535 ? port - 1 : port + 1))" >"$t/other.hex" || exit 1
"$steerd" --token-key "$t/key.hex" --bind 127.0.0.1 --port "$port" --metrics-port 0 --threads 1 \
  --status-interval 0 >"$t/server.log" 2>&1 &
pid=$!
fail=0
run() {  # run NAME TOKENFILE: one player for 2 s; prints connected_at_end and refused
  timeout 40 "$loadtest" --server "127.0.0.1:$port" --players 1 --duration 2 --token "$2" \
    --report "$t/$1.json" --quiet >"$t/$1.log" 2>&1
  /usr/bin/python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["counts"]; print(c.get("connected_at_end", 0), c.get("refused", 0))' "$t/$1.json"
}
sleep 1
read -r connected refused < <(run good "$t/good.hex")
if [ "${connected:-0}" -ge 1 ]; then echo "ok: a Python-issued token got in ($connected connected)"
else echo "FAIL: a Python-issued token did not get in (connected ${connected:-?}, refused ${refused:-?})"; tail -n 5 "$t/good.log" "$t/server.log"; fail=1; fi
read -r connected refused < <(run other "$t/other.hex")
if [ "${connected:-1}" -eq 0 ] && grep -q "other servers" "$t/server.log"; then echo "ok: a token for another server was refused"
else echo "FAIL: a token for another server: connected ${connected:-?}, refused ${refused:-?}"; tail -n 5 "$t/server.log"; fail=1; fi
exit $fail
