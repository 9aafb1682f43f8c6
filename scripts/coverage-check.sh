#!/usr/bin/env bash
# Checks `hookmux log coverage` in a real host: the host's tool calls, a subagent's among them
# (where the host has subagents), an MCP call and calls no hook saw, counted against the host's
# own JSON output.
#
# usage: scripts/coverage-check.sh HARNESS_DIR [--keep]
#   HARNESS_DIR  one host's harness folder (claude-harness, codex-harness, gemini-harness,
#                copilot-harness or opencode-harness)
#   --keep       keep every run's work folder (a failing run's is always kept)
# Runs the scenarios of fixtures/coverage/scenarios/ for that host with this checkout's release
# build installed as a user installs it, then `hookmux log coverage --json` in the run's home;
# scripts/coverage_check.py says what is compared. Exit 0 when every scenario agrees.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [--keep]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=$("$root/scripts/release-bin.sh")
work=$(mktemp -d)
# The harness makes its projects under TMPDIR: trust them, as a user trusts a project they work on
# (a project's own Claude settings run under Codex, Gemini CLI and OpenCode only once trusted).
mkdir -p "$work/tmp"
export TMPDIR=$work/tmp HOOKMUX_TRUST=$work/tmp
status=0
python3 "$root/scripts/coverage_check.py" "$harness" "$bin" "$work" "$@" || status=$?
if [[ $status -eq 0 && " $* " != *" --keep "* ]]; then
  rm -rf "$work"
else
  echo "work folder kept: $work"
fi
exit $status
