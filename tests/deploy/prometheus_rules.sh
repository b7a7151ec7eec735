#!/usr/bin/env bash
# deploy/prometheus/: the scrape config and the alert rules pass promtool's checks, and the rules'
# unit tests (alerts_test.yml) pass: each alert fires on what should fire it, and only that.
set -uo pipefail
cd "$(dirname "$0")/../../deploy/prometheus" || exit 1
command -v promtool >/dev/null || { echo "FAIL: promtool not installed (Debian package prometheus; scripts/deps.sh installs it)"; exit 1; }
fail=0
promtool check config prometheus.yml || fail=1
promtool check rules alerts.yml || fail=1
promtool test rules alerts_test.yml || fail=1
exit $fail
