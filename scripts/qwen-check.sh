#!/usr/bin/env bash
# Checks that Claude Code hooks behave under Qwen Code + `hookmux dispatch --host qwen` as they did
# natively in Claude Code 2.1.328.
#
# usage: scripts/qwen-check.sh HARNESS_DIR [SCENARIO_DIR...]
#   HARNESS_DIR  the Qwen Code harness folder (qwen_compare.py, qwen_run.py, install-qwen.sh)
# With no scenarios: every shared Claude Code scenario in fixtures/conformance/claude-code-2.1.328/
# runs in the real Qwen Code (pinned 0.24.4, offline against a scripted model): the scenario's
# settings go to the project's .claude/settings.json, this checkout's release build runs
# `hookmux install qwen` there, and the turn is compared with the scenario's native.json.
# Scenarios whose difference is listed below (EXPECTED, each with its reason) are run too and
# listed after the count; the exit code counts only the others.
# Exit 0 when every scenario but the expected ones is `same`.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [SCENARIO_DIR...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export QWEN_BIN=${QWEN_BIN:-$("$harness/install-qwen.sh")}
bin=$("$root/scripts/release-bin.sh")
# The harness makes its projects under TMPDIR: trust them, as a user trusts a project they work on
# (a project's own Claude settings run under Qwen only once it is trusted: Qwen asks nothing).
trusted=$(mktemp -d)
trap 'rm -rf "$trusted"' EXIT
export TMPDIR=$trusted HOOKMUX_TRUST=$trusted

# What Qwen Code 0.24.4 cannot do, or the harness cannot see, whatever the hook answers (measured).
declare -A EXPECTED=(
  [pre-json-updated-input]="Qwen runs a tool only with the input the model gave it: hookmux refuses the rewritten call and gives the model the input the hook allows"
  [pre-two-updated-inputs]="the same: no rewritten input can be applied under Qwen"
  [pre-continue-false]="the turn ends as in Claude Code (the tool runs and prints original-command, no further model request), but the harness reads a tool's output from the next model request, which continue:false rightly never makes"
)

scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  scenarios=(fixtures/conformance/claude-code-2.1.328/*/)
fi
out=$trusted/compare.out
python3 "$harness/qwen_compare.py" --via "$bin" "${scenarios[@]}" | tee "$out" || true
grep -q ' scenarios equivalent$' "$out"
failed=0
echo
echo "scenarios Qwen Code cannot express:"
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
