#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release), optionally only some targets.
#   scripts/build.sh [PRESET] [TARGET...]
# Used by the other scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
[ $# -gt 0 ] && shift
scripts/deps.sh
cmake --preset "$preset" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" -j"$(nproc)" --target "$@"
else
  cmake --build --preset "$preset" -j"$(nproc)"
fi
