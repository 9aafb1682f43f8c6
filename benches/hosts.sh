#!/usr/bin/env bash
# Whole-process cost of the host adapters: `hookmux dispatch --host codex|opencode` against
# Claude Code's own `hookmux dispatch` on the same hooks, and /bin/true, every side started the
# same way (`sh -c 'exec … < event.json'`). The OpenCode side also records the transcript and
# caches the tool's input, as it does for OpenCode. Needs hyperfine and python3.
# Usage: benches/hosts.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
bin=$PWD/target/release/hookmux
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$work" "$PWD" <<'PY'
import json, sys
work, root = sys.argv[1:3]
# 20 groups a Bash call does not match, and one in-process built-in that does.
groups = [{"matcher": f"Write|Edit|mcp__srv{i}__.*", "hooks": [{"type": "command", "command": f"./hooks/check-{i}.sh"}]} for i in range(20)]
groups.append({"matcher": "Bash", "hooks": [{"type": "command", "command": "hookmux run protect-paths"}]})
json.dump({"hooks": {"PreToolUse": groups}}, open(f"{work}/hooks.json", "w"))
claude = json.load(open(f"{root}/fixtures/events/PreToolUse-Bash.json"))
claude["cwd"] = work
json.dump(claude, open(f"{work}/claude.json", "w"))
codex = json.load(open(f"{root}/fixtures/events/codex/PreToolUse-Bash.json"))
codex["cwd"] = work
json.dump(codex, open(f"{work}/codex.json", "w"))
json.dump({"hook": "tool.execute.before", "directory": work,
           "input": {"tool": "bash", "sessionID": "ses_bench", "callID": "call_1"},
           "output": {"args": {"command": "echo hi", "description": "probe"}}}, open(f"{work}/opencode.json", "w"))
PY
cd "$work"
export XDG_STATE_HOME=$work/state
python3 "$OLDPWD/benches/paired.py" --rounds "${1:-10}" --runs 100 \
  "sh -c 'exec /bin/true < claude.json'" \
  "sh -c 'exec $bin dispatch --settings hooks.json < claude.json'" \
  "sh -c 'exec $bin dispatch --host codex --settings hooks.json < codex.json'" \
  "sh -c 'exec $bin dispatch --host opencode --settings hooks.json < opencode.json'"
