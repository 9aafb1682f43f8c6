#!/usr/bin/env bash
# Checks hookmux against the real Claude Code when hooks sit in several settings files (user,
# project, local) and when `hookmux install claude` has routed every scope through dispatch.
#
# usage: scripts/scopes-check.sh HARNESS_DIR [--live] [SCENARIO_DIR...]
#   HARNESS_DIR  the Claude Code harness folder (cc_run_scopes.py, scopes_compare.py)
#   --live       run the native side too, instead of reading each scenario's native.json
# With no scenarios: fixtures/conformance/claude-code-2.1.328-scopes/ (recorded from Claude Code
# 2.1.328) and fixtures/conformance/hookmux-scopes/ (one hook in every combination of the three
# scopes, and the model-switch events under `/model`, recorded the same way with
# `cc_run_scopes.py SCENARIO --normalize > native.json`).
# Exit 0 when every scenario is `same` in every mode.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [--live] [SCENARIO_DIR...]}" && pwd)
shift
live=()
if [[ ${1:-} == --live ]]; then live=(--live); shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --locked --quiet
export CLAUDE_BIN=${CLAUDE_BIN:-$("$harness/install-claude.sh")}
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] ||
  scenarios=(fixtures/conformance/claude-code-2.1.328-scopes/*/ fixtures/conformance/hookmux-scopes/*/)
out=$(mktemp); trap 'rm -f "$out"' EXIT
python3 "$harness/scopes_compare.py" "${CARGO_TARGET_DIR:-$root/target}/release/hookmux" "${scenarios[@]}" "${live[@]}" | tee "$out"
! grep -q '^DIFF' "$out"
