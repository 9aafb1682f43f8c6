#!/usr/bin/env bash
# Checks hookmux against the real Claude Code when hooks come from plugins: each scenario installs
# plugins offline from a local marketplace with the real `claude plugin` commands, and is compared
# with what Claude Code 2.1.328 did (its native.json) after `hookmux install claude` (the plugins'
# hooks stay with Claude Code) and with dispatch running the plugins' hooks itself (`--plugins`).
#
# usage: scripts/plugins-check.sh HARNESS_DIR [SCENARIO_DIR...]
#   HARNESS_DIR  the Claude Code harness folder (cc_run_scopes.py, dropin_compare.py)
# With no scenarios: fixtures/conformance/claude-code-2.1.328-plugins/. Record a new scenario with
#   scripts/with-managed.sh SCENARIO_DIR python3 scripts/plugins_compare.py HARNESS_DIR record SCENARIO_DIR
# (with-managed.sh places the scenario's managed_settings.json, when it has one, for the run only).
# Exit 0 when every scenario is `same` in every mode.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [SCENARIO_DIR...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CLAUDE_BIN=${CLAUDE_BIN:-$("$harness/install-claude.sh")}
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] || scenarios=(fixtures/conformance/claude-code-2.1.328-plugins/*/)
bin=$("$root/scripts/release-bin.sh")
out=$(mktemp); one=$(mktemp); trap 'rm -f "$out" "$one"' EXIT
# Each scenario on its own: one with managed_settings.json has it placed as /etc/claude-code's
# for its run only (scripts/with-managed.sh). A run that fails without a verdict is an ERROR.
for scenario in "${scenarios[@]}"; do
  if ! scripts/with-managed.sh "$scenario" \
    python3 scripts/plugins_compare.py "$harness" compare "$bin" "$scenario" >"$one" 2>&1 &&
    ! grep -q '^DIFF' "$one"; then
    echo "ERROR $scenario: $(tail -n 1 "$one")" >>"$one"
  fi
  grep -v ' scenarios equivalent$' "$one" | tee -a "$out"
done
for mode in installed dispatch; do
  echo "$mode: $(grep -cE "^same +$mode " "$out")/$(grep -cE "^(same|DIFF) +$mode " "$out") scenarios equivalent"
done
! grep -qE '^(DIFF|ERROR)' "$out"
