#!/usr/bin/env bash
# Checks that Claude Code hooks behave under OpenCode + the hookmux plugin as they did natively in
# Claude Code 2.1.328.
#
# usage: scripts/opencode-check.sh HARNESS_DIR [SCENARIO_DIR...]
#   HARNESS_DIR  the OpenCode harness folder (oc_compare.py, oc_run.py, install-opencode.sh)
# With no scenarios: every shared Claude Code scenario in fixtures/conformance/claude-code-2.1.328/
# except failure-context (OpenCode reports a failing shell command as completed, so there is no
# PostToolUseFailure to map), and the OpenCode-only ones in fixtures/conformance/opencode-1.18.33/
# (a GPT model's apply_patch; their native.json is Claude Code making the same change with its
# own tools). Each runs in the real OpenCode (pinned 1.18.33) with
# integrations/opencode/hookmux.js and this checkout's release build as $HOOKMUX_BIN, and is
# compared with the scenario's native.json: the same hooks ran, the same tool calls were blocked
# or rewritten, the same of the hooks' strings reached the model. Exit 0 when every one is `same`.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [SCENARIO_DIR...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export OPENCODE_BIN=${OPENCODE_BIN:-$("$harness/install-opencode.sh")}
HOOKMUX_BIN=$("$root/scripts/release-bin.sh")
export HOOKMUX_BIN
# The harness makes its projects under TMPDIR: trust them, as a user trusts a project they work on
# (a project's own Claude settings run under this host only once it is trusted).
trusted=$(mktemp -d)
export TMPDIR=$trusted HOOKMUX_TRUST=$trusted
scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  for dir in fixtures/conformance/claude-code-2.1.328/*/; do
    [[ $(basename "$dir") == failure-context ]] || scenarios+=("$dir")
  done
  scenarios+=(fixtures/conformance/opencode-1.18.33/*/)
fi
trap 'rm -rf "$trusted"' EXIT
python3 "$harness/oc_compare.py" integrations/opencode/hookmux.js "${scenarios[@]}"
