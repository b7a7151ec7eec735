#!/usr/bin/env bash
# Builds steerd's release binaries and installs them, with the example scenarios, into a prefix.
# The Dockerfile's build stage runs this; so can CI or you, outside Docker.
#
#   deploy/build-release.sh [options] PREFIX
#
#   PREFIX                 where to install: PREFIX/bin/<binaries>, PREFIX/scenarios/*.txtpb (and levels/)
#   --preset NAME          CMake preset to build (default: release); its build dir, build/NAME,
#                          is reused when it exists, so an earlier build makes this quick
#   --build-dir DIR        build here instead of build/NAME (a fresh one is configured)
#   --targets "A B ..."    binaries to build and install, those of them that the project
#                          defines (default: "steerd steer-loadtest steer-director steer-viewer"); steerd is
#                          required
#   -j N, --jobs N         parallel compile jobs (default: nproc)
#   --deps-only            only install the build dependencies (scripts/deps.sh), then exit
#   --no-deps              do not run scripts/deps.sh
#   -h, --help             this text
#
# Examples:
#   deploy/build-release.sh /opt/steerd                    # what the Docker build stage runs
#   deploy/build-release.sh --preset ci "$(mktemp -d)"     # CI: reuses build/ci from scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }
die() {
  echo "build-release: $*" >&2
  exit 2
}

preset=release
build_dir=
targets="steerd steer-loadtest steer-director steer-viewer"
jobs=$(nproc 2>/dev/null || echo 2)
deps=yes
deps_only=no
prefix=
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) [ $# -ge 2 ] || die "--preset needs a value"; preset=$2; shift 2 ;;
    --preset=*) preset=${1#*=}; shift ;;
    --build-dir) [ $# -ge 2 ] || die "--build-dir needs a value"; build_dir=$2; shift 2 ;;
    --build-dir=*) build_dir=${1#*=}; shift ;;
    --targets) [ $# -ge 2 ] || die "--targets needs a value"; targets=$2; shift 2 ;;
    --targets=*) targets=${1#*=}; shift ;;
    -j | --jobs) [ $# -ge 2 ] || die "$1 needs a value"; jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    --deps-only) deps_only=yes; shift ;;
    --no-deps) deps=no; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option: $1 (see --help)" ;;
    *) [ -z "$prefix" ] || die "more than one PREFIX: '$prefix' and '$1'"; prefix=$1; shift ;;
  esac
done
case "$jobs" in '' | *[!0-9]* | 0) die "--jobs must be a positive integer, got '$jobs'" ;; esac

if [ "$deps" = yes ]; then
  scripts/deps.sh
fi
[ "$deps_only" = yes ] && exit 0

[ -n "$prefix" ] || { usage >&2; die "PREFIX is required"; }
case " $targets " in *" steerd "*) ;; *) die "--targets must include steerd" ;; esac
[ -n "$build_dir" ] || build_dir=build/$preset

# Configure: incremental when the build dir exists (the same preset, the same cache).
echo "build-release: configuring preset '$preset' in $build_dir"
cmake --preset "$preset" -B "$build_dir" >/dev/null

# Only the targets this checkout defines (a build without SDL2 has no steer-viewer).
available=$(cmake --build "$build_dir" --target help | sed -E 's/^\.\.\. //; s/[: ].*//')
wanted=()
for t in $targets; do
  if grep -qxF -- "$t" <<<"$available"; then
    wanted+=("$t")
  elif [ "$t" = steerd ]; then
    die "the build in $build_dir has no target steerd"
  else
    echo "build-release: no target $t in this checkout; skipping it"
  fi
done

echo "build-release: building ${wanted[*]} (-j$jobs)"
cmake --build "$build_dir" --target "${wanted[@]}" -j"$jobs"

# Install. The project has no install() rules: copy each target's executable. It lies
# somewhere under the build dir (server/app/steerd today), never inside CMakeFiles/.
mkdir -p "$prefix/bin"
prefix=$(cd "$prefix" && pwd)
for t in "${wanted[@]}"; do
  mapfile -t found < <(find "$build_dir" -path '*/CMakeFiles' -prune -o -type f -name "$t" -perm -u+x -print)
  [ ${#found[@]} -eq 1 ] || die "expected one built '$t' under $build_dir, found ${#found[@]}: ${found[*]:-none}"
  install -m 0755 "${found[0]}" "$prefix/bin/$t"
  echo "build-release: installed $prefix/bin/$t"
done
rm -rf "$prefix/scenarios"
mkdir -p "$prefix/scenarios"
cp -p scenarios/*.txtpb "$prefix/scenarios/"
chmod 0644 "$prefix/scenarios/"*.txtpb
# The sample levels the level-*.txtpb scenarios name (relative paths: scenarios/levels/).
mkdir -p "$prefix/scenarios/levels"
cp -p scenarios/levels/* "$prefix/scenarios/levels/"
chmod 0644 "$prefix/scenarios/levels/"*
echo "build-release: installed $(find "$prefix/scenarios" -name '*.txtpb' | wc -l) scenario files into $prefix/scenarios"
