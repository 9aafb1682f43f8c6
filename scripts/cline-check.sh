#!/usr/bin/env bash
# Checks that Claude Code hooks behave under the Cline CLI + `hookmux dispatch --host cline` as
# they did natively in Claude Code 2.1.328.
#
# usage: scripts/cline-check.sh HARNESS_DIR [SCENARIO_DIR...]
#   HARNESS_DIR  the Cline harness folder (cline_compare.py, cline_run.py, install-cline.sh)
# With no scenarios: every shared Claude Code scenario in fixtures/conformance/claude-code-2.1.328/
# runs in the real Cline CLI (pinned 3.0.65, offline against a scripted model): the scenario's
# settings go to the project's .claude/settings.json, this checkout's release build runs
# `hookmux install cline` there (hook files in ~/.cline/hooks/), and the turn is compared with the
# scenario's native.json. Scenarios Cline cannot express are run too and listed after the count,
# each with the reason (EXPECTED below, measured with the harness; the Cline page of the book has
# them too); the exit code counts only the others.
# Exit 0 when every scenario but the expected ones is `same`.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [SCENARIO_DIR...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CLINE_BIN=${CLINE_BIN:-$("$harness/install-cline.sh")}
bin=$("$root/scripts/release-bin.sh")
# The harness makes its projects under TMPDIR: trust them, as a user trusts a project they work on
# (a project's own Claude settings run under Cline only once it is trusted: Cline keeps no trust).
trusted=$(mktemp -d)
trap 'rm -rf "$trusted"' EXIT
export TMPDIR=$trusted HOOKMUX_TRUST=$trusted

# What Cline CLI 3.0.65 cannot do, whatever the hook answers.
declare -A EXPECTED=(
  [ups-exit2]="Cline never runs UserPromptSubmit hooks in a one-shot run"
  [ups-json-context]="Cline never runs UserPromptSubmit hooks in a one-shot run"
  [ups-plain-stdout]="Cline never runs UserPromptSubmit hooks in a one-shot run"
  [ups-two-plain]="Cline never runs UserPromptSubmit hooks in a one-shot run"
  [ss-json]="Cline does not wait for a TaskStart hook and ignores its answer: SessionStart context cannot reach the model"
  [ss-plain]="Cline does not wait for a TaskStart hook and ignores its answer: SessionStart context cannot reach the model"
  [stop-block-once]="Cline does not wait for a TaskComplete hook and ignores its answer: a Stop hook cannot continue the turn"
  [stop-context]="Cline does not wait for a TaskComplete hook and ignores its answer: a Stop hook cannot continue the turn"
  [pre-exit2-stderr]="Cline's only block (cancel) ends the whole run, where Claude Code tells the model and goes on"
  [pre-exit2-no-stderr]="Cline's only block (cancel) ends the whole run, where Claude Code tells the model and goes on"
  [pre-json-deny]="Cline's only block (cancel) ends the whole run, where Claude Code tells the model and goes on"
  [pre-legacy-block]="Cline's only block (cancel) ends the whole run, where Claude Code tells the model and goes on"
  [pre-allow-and-deny]="Cline's only block (cancel) ends the whole run, where Claude Code tells the model and goes on"
  [pre-json-updated-input]="the rewrite runs and prints rewritten-command as in Claude Code, but Cline's run_commands result repeats the command it ran (query), so the model also sees the rewritten command, which Claude Code's Bash result does not show"
  [pre-two-updated-inputs]="the second rewrite runs and prints second-rewrite as in Claude Code, but Cline's run_commands result repeats the command it ran (query), so the model also sees the rewritten command, which Claude Code's Bash result does not show"
  [pre-continue-false]="the turn ends after the tool as in Claude Code, but the harness reads a tool's output from the next model request, which continue:false rightly never makes"
)

scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  scenarios=(fixtures/conformance/claude-code-2.1.328/*/)
fi
out=$trusted/compare.out
python3 "$harness/cline_compare.py" --via "$bin" "${scenarios[@]}" | tee "$out" || true
failed=0
echo
echo "scenarios Cline cannot express:"
while read -r verdict name; do
  [[ $verdict == DIFF ]] || continue
  if [[ -n ${EXPECTED[$name]:-} ]]; then
    echo "  $name: ${EXPECTED[$name]}"
  else
    echo "  UNEXPECTED DIFF: $name"
    failed=1
  fi
done < <(grep -E '^(same|DIFF) ' "$out")
grep -q ' scenarios equivalent$' "$out" || failed=1
exit $failed
