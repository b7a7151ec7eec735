#!/usr/bin/env bash
# Quick start, part 2: installs what is missing, builds (warnings as errors), runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${STEERD_TEST_PRESET:-ci}
scripts/build.sh "$preset"
ctest --preset "$preset" --output-on-failure -j"$(nproc)"
