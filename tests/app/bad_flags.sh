#!/usr/bin/env bash
# Bad flags get a non-zero exit and a message that names the problem; never a crash or a hang.
set -uo pipefail
steerd=$1
fail=0
expect_error() {  # expect_error PATTERN ARGS...
  local pattern=$1; shift
  local out rc
  out=$(timeout 10 "$steerd" "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then echo "FAIL: '$*' exited $rc"; fail=1; return; fi
  if ! grep -qiE "$pattern" <<<"$out"; then echo "FAIL: '$*' said: $out"; fail=1; return; fi
  echo "ok: '$*' -> exit $rc: $(head -n1 <<<"$out")"
}
expect_usage_error() {  # expect_usage_error PATTERN ARGS...: exit 2 exactly, the usage-error code
  local before=$fail
  expect_error "$@"
  [ $fail -ne $before ] && return
  timeout 10 "$steerd" "${@:2}" >/dev/null 2>&1
  local rc=$?
  [ $rc -eq 2 ] || { echo "FAIL: '${*:2}' exited $rc, not 2"; fail=1; }
}
expect_error "threads" --headless --ticks 1 --threads abc
expect_error "threads" --headless --ticks 1 --threads -3
expect_error "scenario" --headless --ticks 1 --scenario nope
expect_error "ticks" --headless
expect_error "tick-rate" --tick-rate 0
expect_error "tick-rate" --tick-rate nan
expect_error "seed" --headless --ticks 1 --seed=-1
expect_error "bogus" --bogus
expect_error "report" --report
expect_error "headless" --bots 5
expect_error "headless" --lod
expect_error "contradict" --headless --ticks 1 --lod --no-lod
expect_error "bots" --headless --ticks 1 --bots -1
expect_error "log-level" --log-level loud
expect_error "send-rate" --send-rate nan
expect_error "send-rate" --send-rate 60 --tick-rate 30
expect_error "port" --port 70000
expect_error "port" --port -1
expect_error "metrics-port" --metrics-port abc
expect_error "max-clients" --max-clients 0
expect_error "client-kbps" --client-kbps inf
expect_error "token-key" --token-key /nonexistent/key
expect_error "token-key" --issue-token 5
expect_error "bind" --bind not-an-address --port 0 --metrics-port 0 --ticks 1
# Hostile files behind flags: a device read without end, headers nested without bound, a key file
# that is not one (each once took the process down or kept it reading).
expect_usage_error "regular file" --config /dev/urandom --headless --ticks 1
expect_usage_error "regular file" --config /dev/zero --headless --ticks 1
nested=$(mktemp --suffix=.toml); python3 -c "print('[' + '.'.join(['a'] * 20000) + ']')" >"$nested"
expect_usage_error "levels deep" --config "$nested" --headless --ticks 1
rm -f "$nested"
expect_usage_error "larger than a token key" --token-key /dev/zero --issue-token 5
expect_usage_error "larger than a token key" --token-key /dev/zero --port 0 --metrics-port 0
expect_error "level" --headless --ticks 1 --level /nonexistent/town.glb
expect_error "level-up" --headless --ticks 1 --level-up x
expect_error "level-scale" --headless --ticks 1 --level-scale 0
expect_error "level-scale" --headless --ticks 1 --level-scale nan
expect_error "excludes" --headless --ticks 1 --level "$0" --scenario default
# A file that is not a level: its extension says so; a level file that is not what it says.
notlevel=$(mktemp --suffix=.glb); printf 'not a glb' >"$notlevel"
expect_error "$(basename "$notlevel")" --headless --ticks 1 --level "$notlevel"
rm -f "$notlevel"
# A bad setting found after the metrics endpoint is up: the process still exits at once (an HTTP
# server stopped before its thread started listening used to hang it).
AGONES_SDK_HTTP_PORT=notaport expect_error "AGONES_SDK_HTTP_PORT" --agones --port 0 --metrics-port 0
expect_error "record" --record /nonexistent-dir/x.rec --port 0 --metrics-port 0
expect_error "record" --headless --ticks 1 --record x.rec
expect_error "replay" --replay /nonexistent/x.rec
expect_error "replay" --replay "$0" --headless --ticks 1
out=$(timeout 10 "$steerd" --help) || { echo "FAIL: --help exited non-zero"; fail=1; }
grep -q -- "--headless" <<<"$out" || { echo "FAIL: --help does not list --headless"; fail=1; }
exit $fail
