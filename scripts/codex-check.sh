#!/usr/bin/env bash
# Checks that Claude Code hooks behave under Codex + `hookmux dispatch --host codex` as they did
# natively in Claude Code 2.1.328, and that `hookmux install codex --trust` is trusted by Codex.
#
# usage: scripts/codex-check.sh HARNESS_DIR [SCENARIO_DIR...]
#   HARNESS_DIR  the Codex harness folder (codex_compare.py, codex_run.py, install-codex.sh)
# 1. `hookmux install codex --trust` into a fresh CODEX_HOME, then Codex's own `hooks/list`
#    (through `codex app-server`) must list every entry it wrote as trusted.
# 2. With no scenarios: every shared Claude Code scenario in
#    fixtures/conformance/claude-code-2.1.328/ except failure-context (Codex has no
#    PostToolUseFailure) and pre-continue-false (Codex refuses `continue: false` on PreToolUse)
#    runs in the real Codex (pinned 0.169.0) with every event routed through this checkout's
#    release build, and is compared with the scenario's native.json.
# Exit 0 when the entries are trusted and every scenario is `same`.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR [SCENARIO_DIR...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CODEX_BIN=${CODEX_BIN:-$("$harness/install-codex.sh")}
bin=$("$root/scripts/release-bin.sh")
# The harness makes its projects under TMPDIR: trust them, as a user trusts a project they work on
# (a project's own Claude settings run under this host only once it is trusted).
trusted=$(mktemp -d)
export TMPDIR=$trusted HOOKMUX_TRUST=$trusted

work=$(mktemp -d)
trap 'rm -rf "$work" "$trusted"' EXIT
mkdir -p "$work/home/project"
git -C "$work/home/project" init -q
(cd "$work/home/project" && HOME=$work/home CODEX_HOME=$work/home/.codex "$bin" install codex --trust)
python3 - "$harness" "$work/home" "$work/home/project" <<'PY'
import json, os, sys
harness, home, project = sys.argv[1:4]
sys.path.insert(0, harness)
from codex_run import AppServer  # the harness's client for `codex app-server`
env = {k: v for k, v in os.environ.items() if not k.startswith(("CODEX_", "OPENAI_"))}
env.update(HOME=home, CODEX_HOME=os.path.join(home, ".codex"))
server = AppServer(os.environ["CODEX_BIN"], env, project)
try:
    listed = server.call("hooks/list", {"cwds": [project]})["data"][0]
finally:
    server.close()
ours = [h for h in listed["hooks"] if "dispatch --host codex" in (h.get("command") or "")]
trusted = [h for h in ours if h.get("trustStatus") == "trusted"]
print(f"install codex --trust: {len(trusted)}/{len(ours)} entries trusted by Codex")
for h in ours:
    if h not in trusted:
        print(f"   {h['key']}: {h.get('trustStatus')}")
sys.exit(0 if ours and len(trusted) == len(ours) else 1)
PY

scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  for dir in fixtures/conformance/claude-code-2.1.328/*/; do
    case $(basename "$dir") in failure-context | pre-continue-false) ;; *) scenarios+=("$dir") ;; esac
  done
fi
python3 "$harness/codex_compare.py" --via "$bin" "${scenarios[@]}"
