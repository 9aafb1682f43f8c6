#!/usr/bin/env bash
# Records what the real Claude Code does with a scenario's hooks, as its native.json.
#
# usage: scripts/record-native.sh HARNESS_DIR SCENARIO_DIR...
# Runs each scenario once under the real host (cc_run.py), with its `env` file exported and
# HOOK_PORT pointing at a loopback hook server, and writes the result to SCENARIO_DIR/native.json.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR SCENARIO_DIR...}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
export CLAUDE_BIN=${CLAUDE_BIN:-$("$harness/install-claude.sh")}
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$root/scripts/hook_server.py" "$port" & server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for scenario in "$@"; do
  scenario=${scenario%/}
  copy=$work/$(basename "$scenario")
  cp -r "$scenario" "$copy"
  sed -i "s/HOOK_PORT/$port/g" "$copy/settings.json"
  (
    if [[ -f $scenario/env ]]; then set -a; . "$scenario/env"; set +a; fi
    python3 "$harness/cc_run.py" "$copy" > "$scenario/native.json"
  )
  echo "recorded $scenario"
done
