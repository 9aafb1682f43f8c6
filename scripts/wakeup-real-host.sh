#!/usr/bin/env bash
# Checks `hookmux run wakeup` inside the real Claude Code: a session whose settings run it on
# UserPromptSubmit shows the model the seeded memories on the first prompt and nothing on the
# second prompt of the same session.
#
# Usage: scripts/wakeup-real-host.sh HARNESS_DIR
#   HARNESS_DIR   the Claude Code harness (install-claude.sh, cc_run.py), e.g. ../shared/tools/claude-harness
# Environment: HOOKMUX (default: ${CARGO_TARGET_DIR:-target}/release/hookmux, built first), CLAUDE_BIN (default:
# installed by the harness). Exit 0 when both checks hold, 1 otherwise.
set -euo pipefail

harness=${1:?usage: scripts/wakeup-real-host.sh HARNESS_DIR}
harness=$(cd "$harness" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${HOOKMUX:-} ]]; then
  (cd "$repo" && cargo build --release --locked >&2)
fi
target=${CARGO_TARGET_DIR:-target}
[[ $target == /* ]] || target=$repo/$target
hookmux=${HOOKMUX:-$target/release/hookmux}
hookmux=$(cd "$(dirname "$hookmux")" && pwd)/$(basename "$hookmux")
export CLAUDE_BIN=${CLAUDE_BIN:-$("$harness/install-claude.sh")}

work=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-real-host.XXXXXX")
trap 'rm -rf "$work"' EXIT
# One store and one state folder for both turns; each turn gets a fresh project folder from the
# harness, so `.lore.yaml` names the project.
export LORE_DB=$work/lore.db
export LORE_HOOK_STATE_DIR=$work/state
project=wakeup-real-host

"$hookmux" memory add "Deploys go through the staging cluster first" --project "$project" \
  --synopsis "promote to prod only after staging is green" --created 2026-01-10 >/dev/null
"$hookmux" memory add "The signing key rotates every 90 days" --project "$project" --kind policy >/dev/null
"$hookmux" memory fact add billing-api depends_on postgres --project "$project" >/dev/null

scenario=$work/scenario
mkdir -p "$scenario/files"
printf 'project: %s\n' "$project" >"$scenario/files/.lore.yaml"
# The second hook records the event, to show that the prompt fired (with the session id) on both
# turns even when wake-up stays silent.
cat >"$scenario/settings.json" <<JSON
{"hooks": {"UserPromptSubmit": [{"hooks": [
  {"type": "command", "command": "$hookmux run wakeup", "timeout": 10},
  {"type": "command", "command": "cat > \"\$DUMP/UserPromptSubmit.json\""}
]}]}}
JSON
session=$(python3 -c 'import uuid; print(uuid.uuid4())')
cat >"$scenario/script.json" <<JSON
{"prompt": "how do we deploy to staging?", "tool_calls": [], "final_text": "noted",
 "extra_args": ["--session-id", "$session"]}
JSON

run_turn() {
  python3 "$harness/cc_run.py" "$scenario" --keep >"$work/turn$1.json"
}
run_turn 1
run_turn 2

python3 - "$work/turn1.json" "$work/turn2.json" "$session" "$LORE_HOOK_STATE_DIR" <<'PY'
import json, os, shutil, sys

needles = ["Deploys go through the staging cluster first", "The signing key rotates every 90 days",
           "billing-api depends on postgres"]
turns, session, state = sys.argv[1:3], sys.argv[3], sys.argv[4]

def model_text(report):
    """Every message of every main-loop request the model got, as one text."""
    text = []
    with open(os.path.join(report["work"], "api.jsonl")) as log:
        for line in log:
            body = json.loads(line)["body"]
            if body.get("tools"):
                text.append(json.dumps(body.get("messages", []), ensure_ascii=False))
    return "\n".join(text)

ok = True
for turn, path in enumerate(turns, 1):
    report = json.load(open(path))
    try:
        text = model_text(report)
    finally:
        shutil.rmtree(report["work"], ignore_errors=True)
    fired = report["events"].get("UserPromptSubmit.json", {}).get("session_id") == session
    seen = [n for n in needles if n in text]
    header = "UserPromptSubmit hook success: # Lore Context" in text
    if turn == 1:
        good = fired and header and seen == needles
    else:
        good = fired and not header and not seen
    ok &= good and report["exit"] == 0
    print(f"turn {turn}: UserPromptSubmit fired for the session: {fired}; wake-up context shown: {header}; "
          f"seeded items the model saw: {len(seen)}/{len(needles)}: {'ok' if good else 'FAILED'}")
marker = os.path.join(state, session + ".wakeup")
print(f"session marker {marker}: {'present' if os.path.exists(marker) else 'MISSING'}")
ok &= os.path.exists(marker)
print("PASS: the model saw the memories on the first prompt only" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
