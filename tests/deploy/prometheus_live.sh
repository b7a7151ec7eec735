#!/usr/bin/env bash
# The real Prometheus scrapes a live steerd with three simulated players; every query of the
# Grafana dashboard runs through Prometheus' HTTP API and prints its numbers, the main ones must
# have data, and the alert rules load. Usage: prometheus_live.sh STEERD STEER-LOADTEST
set -uo pipefail
steerd=$1
loadtest=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v prometheus >/dev/null || { echo "FAIL: prometheus not installed (Debian package prometheus; scripts/deps.sh installs it)"; exit 1; }
. "$root/tests/lib/steerd_server.sh"
tmp=$(mktemp -d)
prom= players=
trap 'kill $players $prom 2>/dev/null; stop_steerd; wait 2>/dev/null; rm -rf "$tmp"' EXIT
start_steerd "$tmp/steerd.log" || exit 1
prom_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$tmp/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $root/deploy/prometheus/alerts.yml
scrape_configs:
  - job_name: steerd
    static_configs:
      - targets: ["127.0.0.1:$metrics_port"]
CONF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$tmp/prometheus.log" 2>&1 &
prom=$!
"$loadtest" --server "127.0.0.1:$port" --metrics "127.0.0.1:$metrics_port" --players 3 --duration 120 \
  --quiet >"$tmp/loadtest.log" 2>&1 &
players=$!
python3 - "$prom_port" "$root/deploy/grafana/steerd.json" <<'PY'
import json, math, sys, time, urllib.parse, urllib.request
port, dashboard = sys.argv[1], sys.argv[2]
def query(expr):
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)
def values(reply):
    return [float(s["value"][1]) for s in reply["data"]["result"]]
def wait_for(expr, ok, what, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            v = values(query(expr))
            if v and ok(v): return v
        except Exception:
            pass
        time.sleep(0.5)
    sys.exit(f"FAIL: {what}: no data after {seconds} s")
wait_for('up{job="steerd"}', lambda v: v[0] == 1, "Prometheus scraping steerd")
wait_for('steerd_clients', lambda v: v[0] >= 3, "three players connected")
# 15 s windows on a 1 s scrape; the RTT histogram is observed once a second per client.
wait_for('histogram_quantile(0.99, sum by (le) (rate(steerd_client_rtt_seconds_bucket[15s])))',
         lambda v: not math.isnan(v[0]), "client RTT histogram")
exprs = []
for panel in json.load(open(dashboard))["panels"]:
    for t in panel["targets"]:
        exprs.append((panel["title"], t.get("legendFormat", ""), t["expr"]))
failed = False
print(f"{'panel':40} {'series':16} value")
for title, legend, expr in exprs:
    e = expr.replace("$__rate_interval", "15s").replace('"$instance"', '".*"')
    reply = query(e)
    if reply.get("status") != "success":
        print(f"FAIL: {title}: {reply}"); failed = True; continue
    vs = reply["data"]["result"]
    shown = ", ".join(f'{s["metric"].get("reason", s["metric"].get("instance", ""))}={float(s["value"][1]):.4g}'.lstrip("=") for s in vs[:4]) or "(no data)"
    print(f"{title[:40]:40} {legend[:16]:16} {shown}")
    # What a live server with players must show: tick time, clients, bandwidth, RTT, health, CPU.
    must = ("steerd_tick_seconds_bucket", "steerd_clients", "steerd_bytes_out_total",
            "steerd_client_rtt_seconds_bucket", "steerd_healthy", "process_cpu_seconds_total")
    if any(m in expr for m in must) and not any(not math.isnan(float(s["value"][1])) for s in vs):
        print(f"FAIL: {title} ({legend}) has no data"); failed = True
with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/rules", timeout=10) as r:
    groups = json.load(r)["data"]["groups"]
rules = [rule["name"] for g in groups for rule in g["rules"]]
print(f"alert rules loaded: {len(rules)} ({', '.join(rules)})")
if len(rules) != 5: print("FAIL: expected the 5 rules of alerts.yml"); failed = True
sys.exit(1 if failed else 0)
PY
rc=$?
[ $rc -eq 0 ] || { echo "--- prometheus.log"; tail -n 20 "$tmp/prometheus.log"; echo "--- steerd.log"; tail -n 20 "$tmp/steerd.log"; }
exit $rc
