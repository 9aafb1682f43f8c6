#!/usr/bin/env bash
# Whole-process cost of `hookmux dispatch`, against /bin/true and `node -e 0`, every side
# started the same way (`sh -c 'exec … < event.json'`). Needs hyperfine and python3; node is
# optional. Usage: benches/dispatch.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
bin=$PWD/target/release/hookmux
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, shlex, sys
work = sys.argv[1]
# 20 groups a Bash call does not match.
groups = [{"matcher": f"Write|Edit|mcp__srv{i}__.*", "hooks": [{"type": "command", "command": f"./hooks/check-{i}.sh", "timeout": 10}]} for i in range(20)]
json.dump({"hooks": {"PreToolUse": groups}}, open(f"{work}/nomatch.json", "w"))
# Five in-process built-ins: protect-paths with different options.
options = [[], ["--include-read"], ["--deny", "secrets/**"], ["--allow", ".env.example"], ["--no-defaults", "--deny", "*.pem"]]
hooks = [{"type": "command", "command": " ".join(["hookmux", "run", "protect-paths"] + [shlex.quote(o) for o in opts])} for opts in options]
json.dump({"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": hooks}]}}, open(f"{work}/builtins.json", "w"))
PY
cp fixtures/events/PreToolUse-Bash.json "$work/bash.json"
cp fixtures/events/PreToolUse-Write.json "$work/write.json"
cd "$work"
commands=(
  "sh -c 'exec /bin/true < bash.json'"
  "sh -c 'exec $bin dispatch --settings nomatch.json < bash.json'"
  "sh -c 'exec $bin dispatch --settings builtins.json < write.json'"
)
command -v node >/dev/null && commands+=("sh -c 'exec node -e 0 < bash.json'")
python3 "$OLDPWD/benches/paired.py" --rounds "${1:-10}" --runs 100 "${commands[@]}"
echo
for args in "nomatch.json bash.json" "builtins.json write.json"; do
  set -- $args
  /usr/bin/time -f "peak RSS, dispatch --settings $1: %M KiB" "$bin" dispatch --settings "$1" < "$2" > /dev/null
done
/usr/bin/time -f "peak RSS, /bin/true: %M KiB" /bin/true
