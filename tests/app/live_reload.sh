#!/usr/bin/env bash
# Live tuning on a running server (real process, real signals): SIGHUP reloads the scenario
# file's archetypes without losing agents; a broken or incompatible edit is rejected and the
# server keeps running on the old version; --watch reloads when the file changes.
set -uo pipefail
steerd=$1
source_file=$2
dir=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null; rm -rf "$dir"' EXIT
file="$dir/yard.txtpb"
log="$dir/log"
cp "$source_file" "$file"
wait_for() {  # wait_for PATTERN: up to 10 s for a log line
  for _ in $(seq 100); do grep -q "$1" "$log" && return 0; sleep 0.1; done
  echo "no '$1' in 10 s:"; cat "$log"; return 1
}
alive() { kill -0 $pid 2>/dev/null || { echo "steerd died:"; cat "$log"; exit 1; }; }

"$steerd" --scenario "$file" --status-interval 0.2 --threads 1 --port 0 --metrics-port 0 >"$log" 2>&1 &
pid=$!
wait_for "tick .* agents" || exit 1

sed -i 's/max_speed: 6 /max_speed: 3 /' "$file"
kill -HUP $pid
wait_for "reloaded .*SIGHUP.*126 agents kept" || exit 1
alive

echo 'archetypes { nme: "broken" }' >>"$file"
kill -HUP $pid
wait_for "rejected: 1 error" || exit 1
grep -q "$file:.*:.*: " "$log" || { echo "no FILE:LINE:COL for the broken edit"; cat "$log"; exit 1; }
alive

cp "$source_file" "$file"
sed -i 's/"patrol"/"guard"/' "$file"
kill -HUP $pid
wait_for "needs a restart" || exit 1
alive

# A spawn group changed: applied as far as it can be (archetypes), and said plainly that the rest
# waits for a restart.
cp "$source_file" "$file"
sed -i 's/count: 120/count: 200/' "$file"
kill -HUP $pid
wait_for "read at start only" || exit 1
grep -q "reloaded .*126 agents kept" "$log" || { echo "agents changed on a spawn edit"; cat "$log"; exit 1; }
alive

# A new archetype: the file has no "player" of its own, so the built-in one (appended last) would
# change number: refused, saying how to add one.
cp "$source_file" "$file"
cat >>"$file" <<'TXT'
archetypes {
  name: "visitor"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER }
}
TXT
kill -HUP $pid
wait_for 'define \"player\" in the file before them' || exit 1
alive
kill -INT $pid
wait $pid || { echo "exit $? after SIGINT"; cat "$log"; exit 1; }

# --watch: a change to the file is picked up without a signal.
cp "$source_file" "$file"
: >"$log"
"$steerd" --scenario "$file" --watch --status-interval 0.2 --threads 1 --port 0 --metrics-port 0 >"$log" 2>&1 &
pid=$!
wait_for "tick .* agents" || exit 1
sleep 1.1  # file times have a resolution of their own; make the edit land in a later one
sed -i 's/max_speed: 7 /max_speed: 5 /' "$file"
wait_for "reloaded .*file changed" || exit 1
kill -INT $pid
wait $pid || { echo "exit $? after SIGINT"; exit 1; }
echo "SIGHUP reload, broken edit rejected, incompatible edit rejected, --watch reload: ok"
