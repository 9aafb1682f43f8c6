#!/usr/bin/env bash
# Checks that Claude Code hooks behave under GitHub Copilot CLI, in a project installed with
# `hookmux install copilot`, as they did natively in Claude Code 2.1.328.
#
# usage: scripts/copilot-check.sh HARNESS_DIR [SCENARIO_DIR...]
#   HARNESS_DIR  the Copilot harness folder (copilot_compare.py, copilot_run.py, install-copilot.sh)
# With no scenarios: every shared Claude Code scenario in fixtures/conformance/claude-code-2.1.328/
# runs in the real Copilot CLI (pinned 1.0.102): the scenario's settings go to the project's
# .claude/settings.json, this checkout's release build runs `hookmux install copilot` there, and
# the turn is compared with the scenario's native.json. Scenarios Copilot cannot express are
# run too and listed after the count, each with the reason (EXPECTED below); the exit code
# counts only the others.
# Exit 0 when every scenario but the expected ones is `same`.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [SCENARIO_DIR...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export COPILOT_BIN=${COPILOT_BIN:-$("$harness/install-copilot.sh")}
bin=$("$root/scripts/release-bin.sh")

# What Copilot CLI 1.0.102 cannot do, whatever the hook answers (measured with the harness).
declare -A EXPECTED=(
  [pre-continue-false]="Copilot ignores continue:false on every event and has no other way for a hook to end the turn after a tool runs"
  [ups-exit2]="Copilot blocks the prompt (decision: block), but copilot -p then exits 1, where Claude Code's blocked prompt exits 0"
)

scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  scenarios=(fixtures/conformance/claude-code-2.1.328/*/)
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
python3 "$harness/copilot_compare.py" --via "$bin" "${scenarios[@]}" | tee "$out" || true
failed=0
echo
echo "scenarios Copilot cannot express:"
while read -r verdict name; do
  [[ $verdict == DIFF ]] || continue
  if [[ -n ${EXPECTED[$name]:-} ]]; then
    echo "  $name: ${EXPECTED[$name]}"
  else
    echo "  UNEXPECTED DIFF: $name"
    failed=1
  fi
done < <(grep -E '^(same|DIFF) ' "$out")
exit $failed
