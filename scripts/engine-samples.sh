#!/usr/bin/env bash
# The C API's bindings against a live server: the C# sample (client-viewer/bindings/csharp/, on
# Mono) and the Python one (client-viewer/bindings/python/, ctypes) connect to HOST:PORT, walk the
# player round a circle, spawn NPCs through the control role (the server needs --allow-control)
# and print one line each, "csharp ok: ..." and "python ok: ...". Exits non-zero when either fails.
#
#   scripts/engine-samples.sh HOST:PORT [SECONDS]
#
# Builds what is missing: libsteerd-client.so (cmake --build --preset ci --target steerd_client_c,
# unless STEERD_CLIENT_LIB names one to use) and build/engine-samples/Sample.exe (mcs, from Debian's
# mono-devel, which scripts/deps.sh installs when asked; STEERD_SAMPLES_OUT moves it).
set -euo pipefail
# A library named relative to where we were called from, before moving to the checkout's root.
[ -n "${STEERD_CLIENT_LIB:-}" ] && STEERD_CLIENT_LIB=$(cd "$(dirname "$STEERD_CLIENT_LIB")" && pwd)/$(basename "$STEERD_CLIENT_LIB")
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/engine-samples.sh HOST:PORT [SECONDS]" >&2; exit 2; }
server=$1
seconds=${2:-6}

STEERD_EXTRA_PACKAGES="${STEERD_EXTRA_PACKAGES:-} mono-devel" bash scripts/deps.sh

lib=${STEERD_CLIENT_LIB:-build/ci/client-viewer/capi/libsteerd-client.so}
if [ -z "${STEERD_CLIENT_LIB:-}" ]; then
  [ -d build/ci ] || cmake --preset ci >/dev/null
  # Up to date or built now; the lock keeps it from racing another build of the tree.
  mkdir -p build/engine-samples
  CCACHE_DIR=${CCACHE_DIR:-$PWD/.cache/ccache} flock /tmp/steerd-build.lock \
    cmake --build --preset ci --target steerd_client_c >build/engine-samples/build.log 2>&1 ||
    { tail -n 20 build/engine-samples/build.log; echo "engine-samples: building steerd_client_c failed" >&2; exit 1; }
fi
[ -f "$lib" ] || { echo "engine-samples: no $lib" >&2; exit 1; }
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")

out=${STEERD_SAMPLES_OUT:-build/engine-samples}  # where Sample.exe is built (the tests: their build tree)
exe=$out/Sample.exe
mkdir -p "$out"
if [ ! -f "$exe" ] || [ -n "$(find client-viewer/bindings/csharp -name '*.cs' -newer "$exe")" ]; then
  mcs -nologo -warnaserror -out:"$exe" client-viewer/bindings/csharp/*.cs
fi

rc=0
# Mono's DllImport("steerd-client") finds libsteerd-client.so on LD_LIBRARY_PATH (no dllmap needed).
LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  timeout 120 mono "$exe" "$server" "$seconds" || rc=1
# (No __pycache__ left in the checkout.)
STEERD_CLIENT_LIB=$lib PYTHONDONTWRITEBYTECODE=1 timeout 120 python3 client-viewer/bindings/python/example.py \
  "$server" "$seconds" || rc=1
exit $rc
