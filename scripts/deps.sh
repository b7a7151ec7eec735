#!/usr/bin/env bash
# Installs the Debian 12 packages steerd needs, when any is missing. Sourced or run by
# scripts/run.sh, scripts/test.sh and scripts/bench.sh; safe to run again (it only checks).
set -euo pipefail

# Build tools, then one line per library with why it is here (README "Dependencies" says more).
packages=(
  build-essential cmake ccache pkg-config git python3
  libasio-dev          # standalone Asio: the UDP socket, timers and signals of the server loop
  libprotobuf-dev protobuf-compiler  # wire and scenario formats
  libspdlog-dev        # logging (pulls libfmt-dev)
  libcli11-dev         # command-line flags
  libxxhash-dev        # state hash of the world (determinism checks)
  libsodium-dev        # connect cookies and tokens: keyed MACs (HMAC-SHA-512-256), random keys
  libcpp-httplib-dev   # HTTP client: the Agones SDK calls (and the tests' requests to /metrics)
  libhttp-parser-dev   # the /metrics, /healthz and /readyz endpoint: request parsing (Node's http-parser)
  librecast-dev        # Recast/Detour: navmesh building, A* path queries (and DetourCrowd, for the comparison bench)
  libtinyobjloader-dev # levels: Wavefront OBJ meshes (--level, a scenario's level { })
  libtinygltf-dev      # levels: glTF 2.0 meshes (.gltf, .glb), what Blender, Godot, Unity and Unreal export
  libpugixml-dev       # levels: Tiled's XML maps and tilesets (.tmx, .tsx)
  libzstd-dev zlib1g-dev  # levels: Tiled layer data compressed with zstd, zlib or gzip
  nlohmann-json3-dev   # JSON: the JSON log format (--log-format json), the load tester's reports and series
  libgtest-dev         # tests
  libbenchmark-dev     # benches
  libsdl2-dev          # steer-viewer: window, input and SDL_Renderer (works on a software renderer)
  libimgui-dev         # steer-viewer: Dear ImGui panels (the SDL_Renderer backend is built from its sources)
  libpng-dev           # steer-viewer: PNG screenshots (the viewer's tests read them back with it too)
  xvfb xauth           # steer-viewer's tests: a virtual X display (xvfb-run) for headless screenshots
  curl                 # tests: the process tests read /metrics and /readyz of a live server
  python3-nacl         # deploy/matchmaker/issue_token.py (a matchmaker in Python) and its test
  prometheus           # tests: promtool checks deploy/prometheus/ (rules and their unit tests); a real
                       # Prometheus scrapes a test server for the dashboard's queries
)

# Callers may ask for more, as a space-separated list (scripts/fuzz.sh: clang and its fuzzer runtime).
for p in ${STEERD_EXTRA_PACKAGES:-}; do packages+=("$p"); done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "steerd: installing missing packages: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "steerd: need root (or sudo) to apt-get install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo_cmd[@]}" apt-get update -qq || ! "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
  echo "steerd: apt-get could not install: ${missing[*]}" >&2
  echo "steerd: install them by hand (Debian 12 package names) and run this again." >&2
  exit 1
fi
