#!/usr/bin/env bash
# The Dockerfile, deploy/docker-compose.yml and deploy/agones/*.yaml name only what exists:
#   - every COPY source exists; every source dir the root CMakeLists.txt adds is copied;
#   - every script the Dockerfile RUNs exists and is executable (in git too, when tracked), and
#     the flags given to it are in its --help;
#   - every --flag given to steerd (Dockerfile, compose, Agones) is in `steerd --help`, and every
#     STEERD_* variable set for it is too (CLI11 prints "(Env:NAME)"); steer-loadtest's flags
#     likewise when its binary is passed, else they are listed as skipped;
#   - scenario files named with --scenario are shipped in scenarios/;
#   - the compose file and the manifests parse as YAML (PyYAML, or a structural check without it);
#   - the game port (UDP) and the metrics port (TCP) agree across all of them;
#   - the runtime stage installs the Debian packages owning steerd's shared libraries (on Debian 12,
#     from readelf + ldd + dpkg -S on the binary passed).
#
#   tests/deploy/manifests_consistent.sh STEERD [STEER_LOADTEST]
#
# MANIFESTS_NO_PYYAML=1 forces the structural check instead of PyYAML (to test that path).
set -uo pipefail

steerd=${1:?usage: manifests_consistent.sh STEERD [STEER_LOADTEST]}
loadtest=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1

fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}
ok() { echo "ok: $*"; }
note() { echo "note: $*"; }

dockerfile=Dockerfile
compose=deploy/docker-compose.yml
shopt -s nullglob
agones=(deploy/agones/*.yaml deploy/agones/*.yml)
shopt -u nullglob
for f in "$dockerfile" "$compose"; do
  [ -f "$f" ] || bad "$f is missing"
done
[ ${#agones[@]} -gt 0 ] || bad "no manifests in deploy/agones/"
[ -x "$steerd" ] || { bad "steerd binary '$steerd' is not executable"; exit 1; }
[ $fail -eq 0 ] || exit 1

steerd_help=$(timeout 10 "$steerd" --help 2>&1) || { bad "'$steerd --help' failed: $steerd_help"; exit 1; }
loadtest_help=
if [ -n "$loadtest" ]; then
  if [ -x "$loadtest" ]; then
    loadtest_help=$(timeout 10 "$loadtest" --help 2>&1) || bad "'$loadtest --help' failed: $loadtest_help"
  else
    bad "steer-loadtest binary '$loadtest' is not executable"
    loadtest=
  fi
fi

# --- helpers ---------------------------------------------------------------------------------

# flags_in TEXT: the --long-flags in TEXT, one a line (values after '=' dropped).
flags_in() { grep -oE -- '(^|[][[:space:]"'\'',])--[a-z][a-z0-9-]*' <<<"$1" | sed -E 's/^[^-]*//' || true; }

# in_help HELP FLAG: FLAG is listed by a CLI11-style --help ("  -p,--port INT ...").
in_help() { grep -qE -- "(^|[[:space:],])$2([[:space:]=,]|$)" <<<"$1"; }

# flag_values TEXT FLAG: the values given to FLAG in TEXT ("--port 7777", "--port=7777",
# '"--port", "7777"').
flag_values() { grep -oE -- "$2(=|\"?[[:space:],]+\"?)[^\", ]+" <<<"$1" | sed -E "s/^$2(=|\"?[[:space:],]+\"?)//" || true; }

declare -A steerd_flags=() loadtest_flags=() steerd_envs=()
add_flags() {  # add_flags PROGRAM WHERE TEXT
  local f
  while read -r f; do
    [ -n "$f" ] || continue
    if [ "$1" = steerd ]; then steerd_flags[$f]+="$2 "; else loadtest_flags[$f]+="$2 "; fi
  done < <(flags_in "$3")
}

game_ports=()     # "where=port" for the UDP game port
metrics_ports=()  # "where=port" for the HTTP metrics port

# --- Dockerfile --------------------------------------------------------------------------------

# One instruction a line: continuations joined, comment lines dropped (as Docker does).
instructions=$(awk '
  /^[[:space:]]*#/ { next }
  { line = $0
    if (sub(/\\[[:space:]]*$/, "", line)) { buf = buf line " "; next }
    buf = buf line
    if (buf ~ /[^[:space:]]/) print buf
    buf = "" }
  END { if (buf != "") print buf }' "$dockerfile")

stage=0
copied=()          # COPY sources from the build context
entrypoint=
cmd=
install_prefix=
runtime_packages=()
while read -r instr rest; do
  instr=${instr^^}
  case "$instr" in
    FROM) stage=$((stage + 1)) ;;
    COPY | ADD)
      # Drop options (--from=, --chown=, --link...); JSON form: drop brackets, quotes, commas.
      words=$(sed -E 's/^\[//; s/\]$//; s/",[[:space:]]*"/ /g; s/"//g' <<<"$rest")
      read -r -a w <<<"$words"
      from=
      srcs=()
      for x in "${w[@]}"; do
        case "$x" in
          --from=*) from=${x#--from=} ;;
          --*) ;;
          *) srcs+=("$x") ;;
        esac
      done
      [ ${#srcs[@]} -ge 2 ] || { bad "Dockerfile: '$instr $rest' has no source and destination"; continue; }
      unset 'srcs[${#srcs[@]}-1]'  # the destination
      if [ -n "$from" ]; then
        # From another stage: the path is the install prefix, checked below.
        [ -z "$install_prefix" ] || [ "${srcs[0]}" = "$install_prefix" ] ||
          bad "Dockerfile: COPY --from=$from ${srcs[0]} is not the install prefix $install_prefix"
        continue
      fi
      for s in "${srcs[@]}"; do
        # shellcheck disable=SC2086  # the source may be a glob
        if compgen -G "$s" >/dev/null || [ -e "$s" ]; then copied+=("${s%/}"); else bad "Dockerfile: COPY source '$s' does not exist"; fi
      done
      ;;
    RUN)
      body=$(sed -E 's/^(--[a-z]+(=[^[:space:]]+)?[[:space:]]+)+//' <<<"$rest")
      while IFS= read -r seg; do
        read -r -a w <<<"$seg"
        i=0
        while [ $i -lt ${#w[@]} ]; do  # skip shell keywords and VAR=value assignments
          case "${w[$i]}" in
            do | then | else | if | while | until | '!' | '{' | '(' | exec | time | [A-Za-z_]*=*) i=$((i + 1)) ;;
            *) break ;;
          esac
        done
        [ $i -lt ${#w[@]} ] || continue
        prog=${w[$i]}
        case "$prog" in
          steerd | */steerd) add_flags steerd "Dockerfile(RUN)" "$seg" ;;
          steer-loadtest | */steer-loadtest) add_flags loadtest "Dockerfile(RUN)" "$seg" ;;
          apt-get)
            if [ "${w[$((i + 1))]:-}" = install ] || [[ " ${w[*]} " == *" install "* ]]; then
              runtime_packages=()
              for x in "${w[@]:$((i + 1))}"; do
                case "$x" in -* | install) ;; *) runtime_packages+=("$x") ;; esac
              done
            fi
            ;;
          ./* | scripts/* | deploy/* | *.sh)
            if [ ! -f "$prog" ]; then
              bad "Dockerfile: RUN script '$prog' does not exist"
            elif [ ! -x "$prog" ]; then
              bad "Dockerfile: RUN script '$prog' is not executable (chmod +x, and git add it again)"
            else
              mode=$(git ls-files -s -- "$prog" 2>/dev/null | awk '{print $1}')
              [ -z "$mode" ] || [ "$mode" = 100755 ] || bad "Dockerfile: RUN script '$prog' is mode $mode in git, not 100755 (git update-index --chmod=+x)"
              script_help=$(timeout 10 "$prog" --help 2>&1) || bad "Dockerfile: '$prog --help' failed"
              while read -r f; do
                [ -n "$f" ] || continue
                in_help "$script_help" "$f" || bad "Dockerfile: '$prog' is given $f, which its --help does not list"
              done < <(flags_in "$seg")
              if [ "$(basename "$prog")" = build-release.sh ] && [[ " $seg " != *" --deps-only "* ]]; then
                install_prefix=${w[${#w[@]} - 1]}
              fi
              ok "Dockerfile runs $(xargs <<<"$seg") ($prog exists, is executable, lists those flags)"
            fi
            ;;
        esac
      done < <(sed -E 's/(&&|\|\||;|\|)/\n/g' <<<"$body")
      ;;
    ENV)
      # ENV A=1 B=2 (or the old ENV A 1)
      if [[ "$rest" == *=* ]]; then
        read -r -a w <<<"$rest"
        for x in "${w[@]}"; do
          [[ "$x" == *=* ]] || continue
          name=${x%%=*} value=${x#*=}
          [[ "$name" == STEERD_* ]] && steerd_envs[$name]+="Dockerfile(ENV) "
          [ "$name" = STEERD_PORT ] && game_ports+=("Dockerfile ENV STEERD_PORT=$value")
          [ "$name" = STEERD_METRICS_PORT ] && metrics_ports+=("Dockerfile ENV STEERD_METRICS_PORT=$value")
        done
      else
        read -r name value <<<"$rest"
        [[ "$name" == STEERD_* ]] && steerd_envs[$name]+="Dockerfile(ENV) "
      fi
      ;;
    EXPOSE)
      for x in $rest; do
        case "$x" in
          */udp | */UDP) game_ports+=("Dockerfile EXPOSE=${x%/*}") ;;
          *) metrics_ports+=("Dockerfile EXPOSE=${x%/*}") ;;
        esac
      done
      ;;
    HEALTHCHECK)
      p=$(grep -oE ':(\$\{[A-Z_]+:-)?[0-9]+\}?/healthz' <<<"$rest" | grep -oE '[0-9]+' | head -n1)
      if [ -n "$p" ]; then metrics_ports+=("Dockerfile HEALTHCHECK=$p"); else bad "Dockerfile: HEALTHCHECK does not curl a /healthz port: $rest"; fi
      ;;
    ENTRYPOINT) entrypoint=$(sed -E 's/^\[[[:space:]]*"?//; s/"?[[:space:]]*(,.*)?\]$//' <<<"$rest") ;;
    CMD) cmd=$rest ;;
  esac
done <<<"$instructions"

[ "$stage" -ge 2 ] || bad "Dockerfile is not multi-stage ($stage FROM)"
case "$entrypoint" in
  */steerd | steerd)
    [ -z "$cmd" ] || add_flags steerd "Dockerfile(CMD)" "$cmd"
    if [ -n "$install_prefix" ] && [ "$entrypoint" != "$install_prefix/bin/steerd" ]; then
      bad "Dockerfile: ENTRYPOINT $entrypoint is not where build-release.sh installs steerd ($install_prefix/bin/steerd)"
    fi
    ;;
  *) bad "Dockerfile: ENTRYPOINT is '$entrypoint', not steerd" ;;
esac
[ -n "$install_prefix" ] || bad "Dockerfile: no RUN of deploy/build-release.sh PREFIX"
[ ${#copied[@]} -eq 0 ] || ok "Dockerfile COPY sources exist: ${copied[*]}"

# Every directory the root CMakeLists.txt adds must be in the build context the image copies.
copy_all=no
for c in "${copied[@]}"; do [ "$c" = . ] && copy_all=yes; done
if [ $copy_all = no ]; then
  while read -r d; do
    [ -n "$d" ] || continue
    found=no
    for c in "${copied[@]}"; do [ "$c" = "$d" ] && found=yes; done
    [ $found = yes ] || bad "Dockerfile: CMakeLists.txt adds '$d' but the build stage does not COPY it"
  done < <(sed -nE 's/^[[:space:]]*add_subdirectory\(([A-Za-z0-9_./-]+).*/\1/p' CMakeLists.txt)
  for f in CMakeLists.txt CMakePresets.json; do
    found=no
    for c in "${copied[@]}"; do [ "$c" = "$f" ] && found=yes; done
    [ $found = yes ] || bad "Dockerfile: the build stage does not COPY $f"
  done
  ok "Dockerfile copies every directory CMakeLists.txt adds ($(sed -nE 's/^[[:space:]]*add_subdirectory\(([A-Za-z0-9_./-]+).*/\1/p' CMakeLists.txt | paste -sd' '))"
fi

# --- docker-compose.yml ----------------------------------------------------------------------

# "service<TAB>line" for each non-comment line inside a service (comments after ' #' dropped).
compose_lines=$(awk '
  { sub(/[[:space:]]+#.*$/, "") }
  /^[[:space:]]*(#|$)/ { next }
  /^[^[:space:]]/ { top = $0; sub(/:.*/, "", top); svc = ""; next }
  top == "services" && /^  [^[:space:]-][^:]*:[[:space:]]*$/ { svc = $1; sub(/:$/, "", svc); next }
  svc != "" { print svc "\t" $0 }' "$compose")
services=$(cut -f1 <<<"$compose_lines" | sort -u)
grep -qx steerd <<<"$services" || bad "$compose: no service 'steerd'"
grep -qx loadtest <<<"$services" || bad "$compose: no service 'loadtest'"
for svc in $services; do
  block=$(awk -F'\t' -v s="$svc" '$1 == s { print $2 }' <<<"$compose_lines")
  if grep -q 'steer-loadtest' <<<"$block"; then prog=loadtest; else prog=steerd; fi
  # Flags on every line but the health check's curl.
  add_flags "$prog" "compose($svc)" "$(grep -v 'curl' <<<"$block")"
  if [ "$prog" = loadtest ]; then
    # steer-loadtest must be where build-release.sh installs it.
    ep=$(grep -oE '[^"[:space:]]*/steer-loadtest' <<<"$block" | head -n1)
    [ -z "$install_prefix" ] || [ "$ep" = "$install_prefix/bin/steer-loadtest" ] ||
      bad "$compose($svc): runs $ep, but build-release.sh installs $install_prefix/bin/steer-loadtest"
    while read -r target; do
      [ -n "$target" ] || continue
      host=${target%:*}
      grep -qx -- "$host" <<<"$services" || bad "$compose($svc): --server $target names no service '$host'"
      game_ports+=("compose($svc) --server=${target##*:}")
    done < <(flag_values "$block" --server)
    continue
  fi
  while read -r name; do
    [ -n "$name" ] && steerd_envs[$name]+="compose($svc) "
  done < <(grep -oE '^[[:space:]]*(-[[:space:]]*)?STEERD_[A-Z0-9_]+' <<<"$block" | grep -oE 'STEERD_[A-Z0-9_]+')
  v=$(grep -oE 'STEERD_PORT["'\'']?[:=][[:space:]]*["'\'']?[0-9]+' <<<"$block" | grep -oE '[0-9]+$')
  [ -z "$v" ] || game_ports+=("compose($svc) STEERD_PORT=$v")
  v=$(grep -oE 'STEERD_METRICS_PORT["'\'']?[:=][[:space:]]*["'\'']?[0-9]+' <<<"$block" | grep -oE '[0-9]+$')
  [ -z "$v" ] || metrics_ports+=("compose($svc) STEERD_METRICS_PORT=$v")
  # Published ports "HOST:CONTAINER[/proto]": the container side counts.
  while read -r m; do
    [ -n "$m" ] || continue
    p=${m%/*}
    p=${p##*:}
    case "$m" in */udp) game_ports+=("compose($svc) ports=$p") ;; *) metrics_ports+=("compose($svc) ports=$p") ;; esac
  done < <(grep -E '^[[:space:]]*-[[:space:]]*["'\'']?[0-9.:]+(/(udp|tcp))?["'\'']?[[:space:]]*$' <<<"$block" |
    sed -E 's/^[[:space:]]*-[[:space:]]*//; s/["'\'' ]//g' | awk -F: '{ print $NF }')
  p=$(grep 'curl' <<<"$block" | grep -oE ':[0-9]+/healthz' | grep -oE '[0-9]+')
  if [ -n "$p" ]; then metrics_ports+=("compose($svc) healthcheck=$p"); else bad "$compose($svc): no healthcheck curling /healthz"; fi
  for p in $(flag_values "$block" --port); do game_ports+=("compose($svc) --port=$p"); done
  for p in $(flag_values "$block" --metrics-port); do metrics_ports+=("compose($svc) --metrics-port=$p"); done
done

# --- Agones manifests --------------------------------------------------------------------------

for f in "${agones[@]}"; do
  text=$(sed -E 's/(^|[[:space:]])#.*$//' "$f")
  add_flags steerd "$f" "$text"
  while read -r name; do
    [ -n "$name" ] && steerd_envs[$name]+="$f "
  done < <(grep -oE 'name:[[:space:]]*["'\'']?STEERD_[A-Z0-9_]+' <<<"$text" | grep -oE 'STEERD_[A-Z0-9_]+')
  for p in $(flag_values "$text" --port); do game_ports+=("$f --port=$p"); done
  for p in $(flag_values "$text" --metrics-port); do metrics_ports+=("$f --metrics-port=$p"); done
  # Port list items: "containerPort protocol" pairs (protocol defaults to TCP in a pod, UDP in
  # GameServer.spec.ports; here every item must say it).
  while read -r port proto; do
    [ -n "$port" ] || continue
    case "$proto" in
      UDP) game_ports+=("$f containerPort=$port") ;;
      TCP) metrics_ports+=("$f containerPort=$port") ;;
      *) bad "$f: containerPort $port has no protocol: UDP or TCP" ;;
    esac
  done < <(awk '
    /^[[:space:]]*-[[:space:]]/ { if (port != "") print port, proto; port = ""; proto = "" }
    /containerPort:/ { v = $0; sub(/.*containerPort:[[:space:]]*/, "", v); port = v }
    /protocol:/ { v = $0; sub(/.*protocol:[[:space:]]*/, "", v); proto = v }
    END { if (port != "") print port, proto }' <<<"$text")
  p=$(grep -oE 'prometheus.io/port:[[:space:]]*"?[0-9]+' <<<"$text" | grep -oE '[0-9]+$')
  [ -z "$p" ] || metrics_ports+=("$f prometheus.io/port=$p")
  if grep -qE '^kind:[[:space:]]*(GameServer|Fleet)[[:space:]]*$' <<<"$text"; then
    grep -qE 'portPolicy:[[:space:]]*Dynamic' <<<"$text" || bad "$f: the game port's portPolicy is not Dynamic"
    grep -qE -- '"?--agones"?' <<<"$text" || bad "$f: steerd is not run with --agones"
  fi
done

# --- flags and environment variables against --help -------------------------------------------

for f in $(printf '%s\n' "${!steerd_flags[@]}" | sort); do
  if in_help "$steerd_help" "$f"; then ok "steerd $f (used in ${steerd_flags[$f]% })"; else bad "steerd has no flag $f (used in ${steerd_flags[$f]% }): not in 'steerd --help'"; fi
done
for n in $(printf '%s\n' "${!steerd_envs[@]}" | sort); do
  if grep -qE -- "(^|[^A-Z0-9_])$n([^A-Z0-9_]|$)" <<<"$steerd_help"; then ok "steerd reads \$$n (set in ${steerd_envs[$n]% })"; else bad "\$$n is set for steerd (${steerd_envs[$n]% }) but 'steerd --help' does not name it (CLI11: ->envname(\"$n\"))"; fi
done
if [ ${#loadtest_flags[@]} -gt 0 ]; then
  if [ -n "$loadtest" ]; then
    for f in $(printf '%s\n' "${!loadtest_flags[@]}" | sort); do
      if in_help "$loadtest_help" "$f"; then ok "steer-loadtest $f (used in ${loadtest_flags[$f]% })"; else bad "steer-loadtest has no flag $f (used in ${loadtest_flags[$f]% }): not in its --help"; fi
    done
  else
    note "skipped steer-loadtest's flags ($(printf '%s\n' "${!loadtest_flags[@]}" | sort | paste -sd' ')): no steer-loadtest binary was passed as the second argument"
  fi
fi

# --- scenario files ------------------------------------------------------------------------------

all_text=$(cat "$dockerfile" "$compose" "${agones[@]}")
for s in $(flag_values "$all_text" --scenario | sort -u); do
  case "$s" in
    *.txtpb) if [ -f "scenarios/$(basename "$s")" ]; then ok "scenario file $s is shipped (scenarios/)"; else bad "--scenario $s: no scenarios/$(basename "$s")"; fi ;;
  esac
done

# --- YAML ----------------------------------------------------------------------------------------

if [ "${MANIFESTS_NO_PYYAML:-0}" != 1 ] && python3 -c 'import yaml' 2>/dev/null; then
  if out=$(python3 - "$compose" "${agones[@]}" 2>&1 <<'PY'
import os, sys, yaml
errors = []
compose, manifests = sys.argv[1], sys.argv[2:]
try:
    doc = yaml.safe_load(open(compose))
    services = doc.get("services") if isinstance(doc, dict) else None
    if not isinstance(services, dict):
        errors.append(f"{compose}: no 'services' mapping")
    else:
        for name in ("steerd", "loadtest"):
            if not isinstance(services.get(name), dict):
                errors.append(f"{compose}: service {name} is missing or not a mapping")
except yaml.YAMLError as e:
    errors.append(f"{compose}: not YAML: {e}")
expected = {"GameServer": "agones.dev/v1", "Fleet": "agones.dev/v1",
            "FleetAutoscaler": "autoscaling.agones.dev/v1",
            "GameServerAllocation": "allocation.agones.dev/v1"}
kinds, fleets, autoscaled, allocated = set(), set(), [], []
for path in manifests:
    try:
        for d in yaml.safe_load_all(open(path)):
            if d is None:
                continue
            kind, api = d.get("kind"), d.get("apiVersion")
            if kind not in expected:
                errors.append(f"{path}: unexpected kind {kind!r}")
                continue
            if api != expected[kind]:
                errors.append(f"{path}: {kind} has apiVersion {api!r}, not {expected[kind]}")
            kinds.add(kind)
            spec = d.get("spec") or {}
            if kind == "Fleet":
                fleets.add((d.get("metadata") or {}).get("name"))
                spec = (spec.get("template") or {}).get("spec") or {}
            if kind in ("GameServer", "Fleet"):
                ports = spec.get("ports") or []
                if not any(p.get("protocol") == "UDP" and p.get("portPolicy") == "Dynamic" for p in ports):
                    errors.append(f"{path}: no UDP port with portPolicy Dynamic")
                health = spec.get("health") or {}
                for k in ("initialDelaySeconds", "periodSeconds", "failureThreshold"):
                    if not isinstance(health.get(k), int):
                        errors.append(f"{path}: health.{k} is not set")
                pod = (spec.get("template") or {}).get("spec") or {}
                secrets = {v.get("name") for v in pod.get("volumes") or [] if (v.get("secret") or {}).get("secretName")}
                for c in pod.get("containers") or []:
                    res = c.get("resources") or {}
                    if not res.get("requests") or not res.get("limits"):
                        errors.append(f"{path}: container {c.get('name')} lacks resources requests/limits")
                    args = [str(a) for a in c.get("args") or []]
                    # A match must end (or its server is never freed), and only token holders get in.
                    if "--agones" in args and not {"--shutdown-when-empty", "--match-time-limit"} & set(args):
                        errors.append(f"{path}: --agones without --shutdown-when-empty or --match-time-limit: the match never ends")
                    if "--token-key" in args:
                        key = args[args.index("--token-key") + 1] if args.index("--token-key") + 1 < len(args) else ""
                        mounts = [m for m in c.get("volumeMounts") or [] if m.get("name") in secrets and key.startswith(str(m.get("mountPath")) + "/")]
                        if not mounts:
                            errors.append(f"{path}: --token-key {key} is not in a volume mounted from a Secret")
                    elif "--agones" in args:
                        errors.append(f"{path}: --agones without --token-key: anyone can connect")
                if "players" not in (spec.get("lists") or {}):
                    errors.append(f"{path}: no players List (steerd tracks players in it)")
            if kind == "GameServerAllocation":
                for sel in spec.get("selectors") or []:
                    allocated.append((path, ((sel.get("matchLabels") or {}).get("agones.dev/fleet"))))
                scenario = ((spec.get("metadata") or {}).get("annotations") or {}).get("steerd.dev/scenario")
                if scenario is not None and not (scenario in ("default", "crowd") or os.path.isfile(f"scenarios/{scenario}") or os.path.isfile(f"scenarios/{scenario}.txtpb")):
                    errors.append(f"{path}: steerd.dev/scenario {scenario!r} is neither built in nor in scenarios/")
            if kind == "FleetAutoscaler":
                autoscaled.append((path, spec.get("fleetName")))
                if (spec.get("policy") or {}).get("type") != "Buffer":
                    errors.append(f"{path}: policy is not Buffer")
    except yaml.YAMLError as e:
        errors.append(f"{path}: not YAML: {e}")
for k in expected:
    if k not in kinds:
        errors.append(f"deploy/agones: no {k}")
for path, name in allocated:
    if name not in fleets:
        errors.append(f"{path}: allocates from fleet {name!r}, no Fleet in deploy/agones ({sorted(map(str, fleets))})")
for path, name in autoscaled:
    if name not in fleets:
        errors.append(f"{path}: fleetName {name!r} is no Fleet in deploy/agones ({sorted(map(str, fleets))})")
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
  ); then
    ok "compose file and Agones manifests parse as YAML (PyYAML) and have the expected shape"
  else
    while IFS= read -r line; do bad "$line"; done <<<"$out"
  fi
else
  note "PyYAML not available (python3-yaml): structural check of the YAML instead"
  for f in "$compose" "${agones[@]}"; do
    ! grep -qP '\t' "$f" || bad "$f: has tab characters (YAML indents with spaces)"
    ! grep -nE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_.-]*[[:space:]]+:' "$f" || bad "$f: a key with space before its colon"
  done
  grep -qE '^services:[[:space:]]*$' "$compose" || bad "$compose: no top-level 'services:'"
  for k in GameServer Fleet; do
    grep -qE "^kind:[[:space:]]*${k}[[:space:]]*\$" "${agones[@]}" || bad "deploy/agones: no kind: $k"
  done
  grep -qE '^kind:[[:space:]]*FleetAutoscaler' "${agones[@]}" || bad "deploy/agones: no kind: FleetAutoscaler"
  for f in "${agones[@]}"; do
    kind=$(sed -nE 's/^kind:[[:space:]]*([A-Za-z]+).*/\1/p' "$f" | head -n1)
    api=$(sed -nE 's/^apiVersion:[[:space:]]*"?([^"[:space:]]+)"?.*/\1/p' "$f" | head -n1)
    case "$kind" in
      GameServer | Fleet) [ "$api" = agones.dev/v1 ] || bad "$f: $kind has apiVersion $api, not agones.dev/v1" ;;
      FleetAutoscaler) [ "$api" = autoscaling.agones.dev/v1 ] || bad "$f: $kind has apiVersion $api, not autoscaling.agones.dev/v1" ;;
      GameServerAllocation) [ "$api" = allocation.agones.dev/v1 ] || bad "$f: $kind has apiVersion $api, not allocation.agones.dev/v1" ;;
      *) bad "$f: unexpected kind '$kind'" ;;
    esac
  done
  fleet_names=$(grep -lE '^kind:[[:space:]]*Fleet[[:space:]]*$' "${agones[@]}" | xargs -r sed -nE '/^metadata:/,/^[^[:space:]m]/ s/^  name:[[:space:]]*"?([^"[:space:]]+).*/\1/p')
  while read -r n; do
    [ -n "$n" ] || continue
    grep -qx -- "$n" <<<"$fleet_names" || bad "deploy/agones: FleetAutoscaler fleetName $n is no Fleet ($fleet_names)"
  done < <(cat "${agones[@]}" | sed -nE 's/^[[:space:]]*fleetName:[[:space:]]*"?([^"[:space:]]+).*/\1/p')
  [ $fail -ne 0 ] || ok "compose file and Agones manifests pass the structural check"
fi

# --- ports agree -----------------------------------------------------------------------------------

check_ports() {  # check_ports WHAT ENTRIES...
  local what=$1
  shift
  [ $# -gt 0 ] || { bad "no $what port found anywhere"; return; }
  local values
  values=$(printf '%s\n' "$@" | sed 's/.*=//' | sort -u)
  if [ "$(wc -l <<<"$values")" -eq 1 ]; then
    ok "$what port $values everywhere ($#: $(printf '%s\n' "$@" | sed 's/=.*//' | paste -sd, | sed 's/,/, /g'))"
  else
    bad "$what ports disagree: $(printf '%s; ' "$@")"
  fi
}
check_ports "game (UDP)" "${game_ports[@]}"
check_ports "metrics (TCP)" "${metrics_ports[@]}"
for where in "Dockerfile EXPOSE" "compose(steerd) ports" "containerPort"; do
  grep -q "$where" <<<"$(printf '%s\n' "${game_ports[@]}")" || bad "no UDP game port in $where"
  grep -q "$where" <<<"$(printf '%s\n' "${metrics_ports[@]}")" || bad "no TCP metrics port in $where"
done

# --- runtime packages --------------------------------------------------------------------------

# The Debian packages owning every library a binary names in DT_NEEDED (their own dependencies
# come with them). Package names are release-specific: only on Debian 12, like the image.
if [ "$(cut -d. -f1 /etc/debian_version 2>/dev/null)" != 12 ] || ! command -v dpkg-query >/dev/null || ! command -v readelf >/dev/null; then
  note "skipped the runtime package check: it needs Debian 12 with dpkg and readelf (binutils)"
elif [ ${#runtime_packages[@]} -eq 0 ]; then
  bad "Dockerfile: no apt-get install in the runtime stage"
else
  declare -A needed_pkgs=()
  for bin in "$steerd" ${loadtest:+"$loadtest"}; do
    if ! readelf -h "$bin" >/dev/null 2>&1; then
      note "skipped the runtime packages of $bin: not an ELF binary"
      continue
    fi
    libs=$(ldd "$bin")
    for soname in $(readelf -d "$bin" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p'); do
      # The dynamic loader (ld-linux, libc6's) is listed by its path, without "=>": PIC code that
      # reaches thread-locals through __tls_get_addr names it as a library of its own.
      path=$(awk -v s="$soname" '($1 == s && $2 == "=>") { print $3 } ($1 ~ ("/" s "$")) { print $1 }' <<<"$libs")
      [ -n "$path" ] || { bad "$bin: ldd cannot resolve $soname"; continue; }
      pkg=
      for candidate in "$path" "$(readlink -f "$path")" "${path/#\/usr\/lib//lib}" "${path/#\/lib//usr/lib}"; do
        pkg=$(dpkg-query -S "$candidate" 2>/dev/null | head -n1 | cut -d: -f1) && [ -n "$pkg" ] && break
      done
      if [ -n "$pkg" ]; then needed_pkgs[$pkg]+="$soname "; else bad "$bin: no Debian package owns $path ($soname)"; fi
    done
  done
  for pkg in $(printf '%s\n' "${!needed_pkgs[@]}" | sort); do
    # Not `printf | grep -q` under pipefail: grep may exit at its match before printf has written
    # everything, and printf's SIGPIPE (141) then fails the pipeline (it did, once, under load).
    if grep -qx -- "$pkg" <<<"$(printf '%s\n' "${runtime_packages[@]}")"; then
      ok "runtime stage installs $pkg (${needed_pkgs[$pkg]% })"
    else
      bad "runtime stage does not install $pkg, which provides ${needed_pkgs[$pkg]% } (add it to the Dockerfile's apt-get install)"
    fi
  done
  [ ${#needed_pkgs[@]} -gt 0 ] && for pkg in "${runtime_packages[@]}"; do
    [ -n "${needed_pkgs[$pkg]:-}" ] || [ "$pkg" = curl ] ||
      note "runtime stage installs $pkg, which no binary checked here needs (fine if steer-loadtest does)"
  done
fi

if [ $fail -eq 0 ]; then echo "deploy manifests consistent"; else echo "deploy manifests INCONSISTENT (see FAIL lines)"; fi
exit $fail
