#!/usr/bin/env bash
# Builds the Dockerfile, unchanged, with podman and runs the image the way a cluster would:
#   1. the base images the Dockerfile pins (debian:bookworm-DATE and -slim): pulled when a
#      registry answers, else made here from a debootstrap root of the same Debian release and
#      imported under those names (this machine reaches Debian's mirror, not a registry);
#   2. `podman build --isolation chroot --format docker` of the Dockerfile (Docker's image format:
#      OCI has no HEALTHCHECK); its own smoke test runs as user 10001;
#   3. the image started: `podman run` where this machine allows containers; where it does not
#      (no setrlimit or cgroup control, as in a sandbox), the image's root filesystem, exported,
#      runs its ENTRYPOINT and CMD under chroot as the image's user (10001:10001), with the image's
#      environment: it runs the smoke scenario, answers /healthz with the image's own HEALTHCHECK
#      command (curl inside the image), and stops on SIGTERM with exit 0.
# Prints one line per step and a last line that sums up. Slow (the image builds steerd from source):
# minutes, not part of scripts/test.sh. Needs root (chroot, podman's storage).
#
#   deploy/image-test.sh [--keep]      --keep: leave the image steerd:image-test in podman's store
# Environment: STEERD_IMAGE_CACHE (default /var/tmp/steerd-image) keeps the debootstrap base.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=no
[ "${1:-}" = --keep ] && keep=yes
cache=${STEERD_IMAGE_CACHE:-/var/tmp/steerd-image}
image=localhost/steerd:image-test
step() { printf '== %s\n' "$*"; }
die() {
  printf 'image-test: %s\n' "$*" >&2
  exit 1
}
[ "$(id -u)" = 0 ] || die "needs root (chroot and podman's root storage)"

missing=()
command -v podman >/dev/null || missing+=(podman)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  step "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The tags the Dockerfile's FROM lines name: the one source of the pins.
mapfile -t bases < <(sed -n 's/^FROM \([^ ]*\).*/\1/p' Dockerfile | sort -u)
[ ${#bases[@]} -gt 0 ] || die "no FROM line in Dockerfile"

# ---- 1. base images ----
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}
make_base() { # TAG: import a debootstrap root as TAG (a -slim tag drops docs, man pages, locales)
  local tag=$1 root="$cache/root"
  if [ ! -f "$cache/base.tar" ]; then
    step "debootstrap bookworm (minbase) from $mirror into $cache"
    mkdir -p "$cache"
    rm -rf "$root"
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
      die "debootstrap failed: $(tail -n1 "$cache/debootstrap.log")"
    # The same apt settings as this machine, so apt-get inside the build reaches the same mirror.
    cp /etc/apt/apt.conf.d/99artifact-registry "$root/etc/apt/apt.conf.d/" 2>/dev/null || true
    rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
    tar -C "$root" -cf "$cache/base.tar" .
    rm -rf "$root"
  fi
  if [[ $tag == *-slim ]]; then
    local slim="$cache/slim.tar"
    if [ ! -f "$slim" ]; then
      rm -rf "$root" && mkdir -p "$root" && tar -C "$root" -xf "$cache/base.tar"
      rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*
      tar -C "$root" -cf "$slim" . && rm -rf "$root"
    fi
    podman import -q "$slim" "$tag" >/dev/null
  else
    podman import -q "$cache/base.tar" "$tag" >/dev/null
  fi
}
for b in "${bases[@]}"; do
  ref=$b
  [[ $ref == */* ]] || ref=docker.io/library/$ref
  if podman image exists "$ref"; then
    step "base $ref: in the store"
  elif timeout 60 podman pull -q "$ref" >/dev/null 2>&1; then
    step "base $ref: pulled"
  else
    make_base "$ref"
    step "base $ref: no registry reachable; imported from a debootstrap root"
  fi
done

# ---- 2. build ----
step "podman build --isolation chroot (the Dockerfile as it is)"
start=$SECONDS
log=$(mktemp)
work=$(mktemp -d)
cleanup() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
  for m in proc dev; do umount -l "$work/root/$m" 2>/dev/null || true; done
  # Never into a mount that is still there (the host's /dev).
  if mountpoint -q "$work/root/dev" 2>/dev/null || mountpoint -q "$work/root/proc" 2>/dev/null; then
    echo "image-test: $work/root still has mounts; left in place" >&2
  else
    rm -rf --one-file-system "$work"
  fi
  rm -f "$log"
  [ -n "${cid:-}" ] && podman rm -f "$cid" >/dev/null 2>&1
  [ "$keep" = yes ] || podman rmi -f "$image" >/dev/null 2>&1 || true
}
trap cleanup EXIT
podman build --isolation chroot --format docker --pull=never -t "$image" -f Dockerfile . >"$log" 2>&1 ||
  die "podman build failed: $(grep -v '^$' "$log" | tail -n 3 | tr '\n' ' ')"
built=$((SECONDS - start))
size=$(podman image inspect "$image" --format '{{.Size}}')
step "built in ${built} s, $((size / 1048576)) MiB"

# ---- 3. run ----
user=$(podman image inspect "$image" --format '{{.Config.User}}')
health=$(podman image inspect "$image" --format '{{json .HealthCheck}}')
[ "$user" = "10001:10001" ] || die "the image's user is '$user', not 10001:10001"
# Free ports for the game and the metrics (the image's defaults, 7777 and 9100, may be taken here).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mport=$(free_port)
gport=$(free_port)
how=
if podman run --rm --network host "$image" --headless --ticks 30 --threads 1 \
  --scenario scenarios/yard.txtpb >"$work/run.log" 2>&1; then
  how=podman
  step "podman run: the smoke scenario ran"
else
  step "podman run refused here ($(grep -v '^$' "$work/run.log" | tail -n1 | cut -c1-100)); running the image's root filesystem under chroot"
  cid=$(podman create "$image")
  mkdir -p "$work/root"
  podman export "$cid" | tar -C "$work/root" -xf -
  mount -t proc proc "$work/root/proc"
  mount --rbind /dev "$work/root/dev"
  # Unmounting it later must not reach the host's /dev (shared mount propagation).
  mount --make-rslave "$work/root/dev"
  how=chroot
fi

# The image's environment, entrypoint and command, as JSON arrays, into shell words.
env_of() { podman image inspect "$image" --format '{{range .Config.Env}}{{println .}}{{end}}' | sed '/^$/d'; }
entry=$(podman image inspect "$image" --format '{{range .Config.Entrypoint}}{{.}} {{end}}')
cmd=$(podman image inspect "$image" --format '{{range .Config.Cmd}}{{.}} {{end}}')
workdir=$(podman image inspect "$image" --format '{{.Config.WorkingDir}}')
in_image() { # run a command as the image would: its user, workdir and environment
  if [ "$how" = podman ]; then
    podman exec "$cid" "$@"
  else
    local envs=()
    mapfile -t envs < <(env_of)
    chroot --userspec=10001:10001 "$work/root" /usr/bin/env -i "${envs[@]}" \
      STEERD_PORT=$gport STEERD_METRICS_PORT=$mport /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" "$@"
  fi
}

if [ "$how" = chroot ]; then
  in_image $entry --headless --ticks 30 --threads 1 --scenario scenarios/yard.txtpb >"$work/smoke.log" 2>&1 ||
    die "the smoke scenario failed as user 10001: $(tail -n1 "$work/smoke.log")"
  step "smoke scenario as 10001:10001: $(grep -c . "$work/smoke.log") lines of report, exit 0"
  # A subshell that becomes the server (exec), so $! is steerd itself and SIGTERM reaches it.
  (
    mapfile -t envs < <(env_of)
    exec chroot --userspec=10001:10001 "$work/root" /usr/bin/env -i "${envs[@]}" \
      STEERD_PORT=$gport STEERD_METRICS_PORT=$mport /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" $entry $cmd
  ) >"$work/server.log" 2>&1 &
  pid=$!
else
  cid=$(podman run -d --network host -e STEERD_PORT=$gport -e STEERD_METRICS_PORT=$mport "$image")
fi

# The HEALTHCHECK's own command, from inside the image, until it passes (or 30 s).
probe=$(printf '%s' "$health" | python3 -c 'import json,sys; h=json.load(sys.stdin) or {}; t=h.get("Test") or []; print(t[1] if t[:1]==["CMD-SHELL"] else " ".join(t[1:]))')
[ -n "$probe" ] || die "the image has no HEALTHCHECK (built in a format without one?)"
ok=no
for _ in $(seq 1 60); do
  if in_image /bin/sh -c "$probe" >/dev/null 2>&1; then
    ok=yes
    break
  fi
  sleep 0.5
done
[ "$ok" = yes ] || die "the HEALTHCHECK never passed: $(tail -n 3 "$work/server.log" 2>/dev/null | tr '\n' ' ')"
step "HEALTHCHECK passed: $probe"
ready=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$mport/readyz" || true)
step "/readyz answered $ready"

if [ "$how" = chroot ]; then
  kill -TERM "$pid"
  rc=0
  wait "$pid" || rc=$?
  pid=
else
  podman stop -t 10 "$cid" >/dev/null
  rc=$(podman inspect "$cid" --format '{{.State.ExitCode}}')
fi
[ "$rc" = 0 ] || die "steerd exited $rc on SIGTERM: $(tail -n 2 "$work/server.log" | tr '\n' ' ')"
step "SIGTERM: exit 0 ($(grep -c . "$work/server.log" 2>/dev/null || echo 0) log lines)"
echo "image ok: built in ${built} s ($((size / 1048576)) MiB); ran by $how as 10001:10001: smoke, healthz, SIGTERM exit 0"
