#!/usr/bin/env bash
# steerd --agones against a recording SDK sidecar (python3, following the Agones 1.x REST SDK:
# POST /ready, /health, /shutdown; PUT /metadata/label): Ready once listening, Health from the
# tick loop, Shutdown when the match (--ticks) ends; the process exits 0.
set -uo pipefail
steerd=$1
tmp=$(mktemp -d)
trap 'kill $sidecar 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
python3 - "$tmp/calls" "$tmp/port" <<'PY' &
import http.server, sys
calls, portfile = sys.argv[1], sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def handle_one(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode()
        with open(calls, "a") as f: f.write(f"{self.command} {self.path} {body}\n")
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
    do_POST = do_PUT = handle_one
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(portfile, "w").write(str(s.server_address[1]))
s.serve_forever()
PY
sidecar=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
[ -s "$tmp/port" ] || { echo "FAIL: sidecar did not start"; exit 1; }
AGONES_SDK_HTTP_PORT=$(cat "$tmp/port") timeout 30 "$steerd" --agones --agones-health-interval 0.2 --ticks 45 \
  --port 0 --metrics-port 0 --threads 1 --status-interval 0 >"$tmp/log" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: steerd exited $rc"; cat "$tmp/log"; exit 1; }
fail=0
for want in "POST /ready" "POST /health" "POST /shutdown"; do
  grep -q "^$want" "$tmp/calls" || { echo "FAIL: no '$want' call"; fail=1; }
done
grep -q 'PUT /metadata/label {"key":"players","value":"0"}' "$tmp/calls" || { echo "FAIL: no player count label"; fail=1; }
[ "$(head -n1 "$tmp/calls" | cut -d' ' -f2)" = /ready ] || { echo "FAIL: first call is not /ready"; fail=1; }
[ "$(tail -n1 "$tmp/calls" | cut -d' ' -f2)" = /shutdown ] || { echo "FAIL: last call is not /shutdown"; fail=1; }
echo "calls: $(cut -d' ' -f1,2 "$tmp/calls" | sort | uniq -c | tr -s ' ' | paste -sd, -)"
exit $fail
