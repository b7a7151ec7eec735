#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release). Used by the other scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
scripts/deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"$(nproc)"
