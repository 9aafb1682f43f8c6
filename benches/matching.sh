#!/usr/bin/env bash
# Whole-process cost of `hookmux dispatch` on what the model controls: a tool name that sends the
# matcher `(a+)+$` backtracking (26 and 41 `a`s and a `b`), and a 1 MB Bash command of nested
# `echo $(` under an `if: "Bash(git *)"` rule; a plain Bash call for scale. Each run is a fresh
# process, as each event is. Needs hyperfine and python3. Usage: benches/matching.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/hookmux
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def event(tool, tool_input):
    return {"hook_event_name": "PreToolUse", "session_id": "bench", "cwd": work, "tool_name": tool, "tool_input": tool_input}
json.dump({"hooks": {"PreToolUse": [{"matcher": "(a+)+$", "hooks": [{"type": "command", "command": "true"}]}]}},
          open(f"{work}/regex.json", "w"))
json.dump({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "if": "Bash(git *)"}]}]}},
          open(f"{work}/if.json", "w"))
for n in (26, 41):
    json.dump(event("a" * n + "b", {}), open(f"{work}/a{n}.json", "w"))
levels = (1 << 20) // len("echo $()")
json.dump(event("Bash", {"command": "echo $(" * levels + "ls" + ")" * levels}), open(f"{work}/nested.json", "w"))
json.dump(event("Bash", {"command": "ls"}), open(f"{work}/ls.json", "w"))
PY
cd "$work"
hyperfine --warmup 2 --runs "${1:-20}" \
  "sh -c 'exec $bin dispatch --settings regex.json < a26.json'" \
  "sh -c 'exec $bin dispatch --settings regex.json < a41.json'" \
  "sh -c 'exec $bin dispatch --settings if.json < nested.json'" \
  "sh -c 'exec $bin dispatch --settings if.json < ls.json'"
/usr/bin/time -f "peak RSS, (a+)+\$ on 41 a's: %M KiB" "$bin" dispatch --settings regex.json < a41.json > /dev/null
/usr/bin/time -f "peak RSS, 1 MB of nesting: %M KiB" "$bin" dispatch --settings if.json < nested.json > /dev/null
