#!/usr/bin/env bash
# Checks that `hookmux dispatch` is indistinguishable from native hooks under the real Claude Code.
#
# usage: scripts/dropin-check.sh HARNESS_DIR [--live] [SCENARIO_DIR...]
#   HARNESS_DIR  the Claude Code harness folder (cc_run.py, dropin_compare.py, install-claude.sh)
#   --live       run the native side too, instead of reading each scenario's native.json
# With no scenarios: every scenario in fixtures/conformance/claude-code-2.1.328/ (recorded from
# Claude Code 2.1.328) and fixtures/conformance/hookmux/ (hookmux's own, recorded the same way
# with scripts/record-native.sh). A scenario may carry an `env` file (KEY=VALUE lines exported for
# its run) and use HOOK_PORT in URLs: a loopback hook server (scripts/hook_server.py) answers
# there. Exit 0 when every scenario is `same`.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [--live] [SCENARIO_DIR...]}" && pwd)
shift
stored=--stored
if [[ ${1:-} == --live ]]; then stored=; shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CLAUDE_BIN=${CLAUDE_BIN:-$("$harness/install-claude.sh")}
bin=$("$root/scripts/release-bin.sh")
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] || scenarios=(fixtures/conformance/claude-code-2.1.328/*/ fixtures/conformance/hookmux/*/)

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 scripts/hook_server.py "$port" & server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT

# Copy each scenario (port filled in) into a folder per distinct env file.
for scenario in "${scenarios[@]}"; do
  scenario=${scenario%/}
  envfile=$scenario/env
  group=$work/$( [[ -f $envfile ]] && md5sum < "$envfile" | cut -c1-8 || echo plain )
  mkdir -p "$group"
  [[ -f $envfile ]] && cp "$envfile" "$group/.env"
  cp -r "$scenario" "$group/$(basename "$scenario")"
  sed -i "s/HOOK_PORT/$port/g" "$group/$(basename "$scenario")/settings.json"
done

status=0
total=0 same=0
for group in "$work"/*/; do
  out=$( (
    if [[ -f $group/.env ]]; then set -a; . "$group/.env"; set +a; fi
    python3 "$harness/dropin_compare.py" "$bin" $stored "$group"*/
  ) ) || status=1
  printf '%s\n' "$out" | grep -v 'scenarios equivalent$'
  counts=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\)\/\([0-9]*\) scenarios equivalent$/\1 \2/p')
  same=$((same + ${counts% *})); total=$((total + ${counts#* }))
done
echo "$same/$total scenarios equivalent"
exit $status
