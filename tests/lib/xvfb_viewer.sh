# Sourced by the viewer's process tests: steer-viewer under Xvfb, with the viewer's own exit code.
#   xvfb_viewer DIR VIEWER [VIEWER ARGS...]
# Returns the viewer's exit code; 124 when `timeout` (90 s) ended it; 99 when it left none.
# xvfb-run's exit code can be its own: under load it once exited 5 ("problem while cleaning up
# temporary directory") after the viewer had exited as it should, failing a test that was right.
# Display numbers start at a random point (-n) so tests run in parallel rarely race for one
# (xvfb-run -a only takes the first free number).
xvfb_viewer() {
  local dir=$1 viewer=$2
  shift 2
  cat >"$dir/run-viewer" <<EOF
#!/bin/sh
"$viewer" "\$@"
echo \$? >"$dir/viewer-rc"
EOF
  chmod +x "$dir/run-viewer"
  rm -f "$dir/viewer-rc"
  timeout 90 xvfb-run -a -n $((100 + RANDOM % 800)) -s "-screen 0 1280x1024x24" "$dir/run-viewer" "$@"
  local rc=$?
  [ $rc -eq 124 ] && return 124
  return "$(grep -sE '^[0-9]+$' "$dir/viewer-rc" || echo 99)"
}
