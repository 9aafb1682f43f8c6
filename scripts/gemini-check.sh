#!/usr/bin/env bash
# Checks that Claude Code hooks behave under Gemini CLI + `hookmux dispatch --host gemini` as they
# did natively in Claude Code 2.1.328.
#
# usage: scripts/gemini-check.sh HARNESS_DIR [SCENARIO_DIR...]
#   HARNESS_DIR  the Gemini CLI harness folder (gemini_compare.py, gemini_run.py, install-gemini.sh)
# With no scenarios: every shared Claude Code scenario in fixtures/conformance/claude-code-2.1.328/
# runs in the real Gemini CLI (pinned 0.61.0, offline against a scripted model) after
# `hookmux install gemini` (this checkout's release build) in the scenario's project, and is
# compared with the scenario's native.json. Exit 0 when every scenario is `same` but the ones
# Gemini cannot express, listed below with the reason (the README's Gemini section has them too).
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [SCENARIO_DIR...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GEMINI_BIN=${GEMINI_BIN:-$("$harness/install-gemini.sh")}
bin=$("$root/scripts/release-bin.sh")
# The harness makes its projects under TMPDIR: trust them, as a user trusts a project they work on
# (a project's own Claude settings run under this host only once it is trusted).
trusted=$(mktemp -d)
trap 'rm -rf "$trusted"' EXIT
export TMPDIR=$trusted HOOKMUX_TRUST=$trusted

scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  scenarios=(fixtures/conformance/claude-code-2.1.328/*/)
fi
# pre-continue-false: the turn ends as in Claude Code, but the harness reads a shell call's output
# from the next model request, which `continue:false` rightly never makes.
expected_different=(pre-continue-false)
out=$trusted/compare.out
python3 "$harness/gemini_compare.py" --via "$bin" "${scenarios[@]}" | tee "$out" || true
unexpected=$(grep '^DIFF ' "$out" | awk '{print $2}' | grep -vxF -f <(printf '%s\n' "${expected_different[@]}") || true)
if [[ -n $unexpected ]]; then
  echo "unexpected differences: $unexpected"
  exit 1
fi
grep -q ' scenarios equivalent$' "$out"
