#!/usr/bin/env bash
# Checks hookmux against the real Claude Code when hooks sit in several settings files (user,
# project, local) and when `hookmux install claude` has routed every scope through dispatch.
#
# usage: scripts/scopes-check.sh HARNESS_DIR [--live] [SCENARIO_DIR...]
#   HARNESS_DIR  the Claude Code harness folder (cc_run_scopes.py, scopes_compare.py)
#   --live       run the native side too, instead of reading each scenario's native.json
# With no scenarios: fixtures/conformance/claude-code-2.1.328-scopes/ (recorded from Claude Code
# 2.1.328) and fixtures/conformance/hookmux-scopes/ (one hook in every combination of the three
# scopes, the model-switch events under `/model`, and managed settings with their switches,
# recorded the same way with `cc_run_scopes.py SCENARIO --normalize > native.json`, under
# `scripts/with-managed.sh SCENARIO …` for the managed ones).
# A scenario with managed_settings.json or managed_settings.d/ runs alone, with those files placed
# as /etc/claude-code's for its run (scripts/with-managed.sh: needs root) and removed after.
# Exit 0 when every scenario is `same` in every mode.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [--live] [SCENARIO_DIR...]}" && pwd)
shift
live=()
if [[ ${1:-} == --live ]]; then live=(--live); shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CLAUDE_BIN=${CLAUDE_BIN:-$("$harness/install-claude.sh")}
bin=$("$root/scripts/release-bin.sh")
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] ||
  scenarios=(fixtures/conformance/claude-code-2.1.328-scopes/*/ fixtures/conformance/hookmux-scopes/*/)
plain=() managed=()
for scenario in "${scenarios[@]}"; do
  scenario=${scenario%/}
  if [[ -e $scenario/managed_settings.json || -e $scenario/managed_settings.d ]]; then
    managed+=("$scenario")
  else
    plain+=("$scenario")
  fi
done
out=$(mktemp); trap 'rm -f "$out"' EXIT
if [[ ${#plain[@]} -gt 0 ]]; then
  python3 "$harness/scopes_compare.py" "$bin" "${plain[@]}" "${live[@]}" | tee -a "$out"
fi
for scenario in "${managed[@]}"; do
  scripts/with-managed.sh "$scenario" python3 "$harness/scopes_compare.py" "$bin" "$scenario" "${live[@]}" | tee -a "$out"
done
echo "all:"
awk '/^[a-z]+: [0-9]+\/[0-9]+ scenarios equivalent$/ { split($2, n, "/"); ok[$1] += n[1]; all[$1] += n[2] }
     END { for (m in ok) printf "  %s %d/%d scenarios equivalent\n", m, ok[m], all[m] }' "$out"
! grep -q '^DIFF' "$out"
