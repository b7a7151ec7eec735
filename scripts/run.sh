#!/usr/bin/env bash
# Quick start, part 1: installs what is missing, builds Release, and runs the server on its
# built-in default scenario, printing a status line every second. Extra arguments go to steerd
# (e.g. scripts/run.sh --scenario crowd --agents 100000). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release steerd
exec build/release/server/app/steerd "$@"
