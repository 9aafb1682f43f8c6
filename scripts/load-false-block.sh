#!/usr/bin/env bash
# Counts PreToolUse calls blocked under load although no hook lingered: RUNS dispatches (200) of a
# Bash event whose four hooks print additional context and exit normally, while BUSY processes
# (32) keep every core busy. A hook's capture is unterminated only when a background process still
# holds its stdout or stderr, so every answer should carry the four contexts and none should deny.
#
# usage: scripts/load-false-block.sh [HOOKMUX_BIN]
#   HOOKMUX_BIN  the hookmux to measure; without it, the release build of this checkout
# Environment: RUNS, BUSY. Stops by itself: each dispatch is bounded (60 s), the busy processes
# end with the script (and after 30 minutes whatever happens). Exit 0 when nothing was blocked.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${RUNS:-200}
busy=${BUSY:-32}
if [[ $# -gt 0 ]]; then
  bin=$(realpath "$1")
else
  cargo build --release --locked --quiet
  bin=$(realpath "${CARGO_TARGET_DIR:-$root/target}/release/hookmux")
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

hook() {
  printf '{"type": "command", "timeout": 30, "command": "printf %%s %s"}' \
    "'{\\\"hookSpecificOutput\\\": {\\\"hookEventName\\\": \\\"PreToolUse\\\", \\\"additionalContext\\\": \\\"CTX-$1\\\"}}'"
}
cat > "$work/hooks.json" <<JSON
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [$(hook 1), $(hook 2), $(hook 3), $(hook 4)]}]}}
JSON
sed "s|\"cwd\": \"[^\"]*\"|\"cwd\": \"$work\"|" fixtures/events/PreToolUse-Bash.json > "$work/event.json"

for ((i = 0; i < busy; i++)); do
  # The time limit is a backstop for a script killed too hard to run its trap.
  timeout 1800 sh -c 'while :; do :; done' &
  pids+=($!)
done
sleep 2

blocked=0 refused=0 incomplete=0 failed=0
started=$(date +%s)
for ((i = 1; i <= runs; i++)); do
  if ! out=$(cd "$work" && CLAUDE_PROJECT_DIR=$work HOME=$work timeout 60 \
    "$bin" dispatch --settings "$work/hooks.json" < "$work/event.json" 2>/dev/null); then
    failed=$((failed + 1))
    continue
  fi
  if grep -Eq '"permissionDecision" *: *"deny"' <<<"$out"; then
    blocked=$((blocked + 1))
    if grep -q 'went quiet' <<<"$out"; then refused=$((refused + 1)); fi
  elif ! { grep -q CTX-1 <<<"$out" && grep -q CTX-2 <<<"$out" && grep -q CTX-3 <<<"$out" && grep -q CTX-4 <<<"$out"; }; then
    incomplete=$((incomplete + 1))
  fi
done
read -r load1 _ < /proc/loadavg

printf 'hookmux:     %s\n' "$bin"
printf 'load:        %s busy processes, %s cores, load average %s\n' "$busy" "$(nproc)" "$load1"
printf 'dispatches:  %s in %s s\n' "$runs" "$(($(date +%s) - started))"
printf 'blocked:     %s (refused as unterminated: %s)\n' "$blocked" "$refused"
printf 'incomplete:  %s (an answer missing one of the four contexts)\n' "$incomplete"
printf 'failed:      %s (dispatch did not exit 0 within 60 s)\n' "$failed"
[[ $blocked -eq 0 && $incomplete -eq 0 && $failed -eq 0 ]]
