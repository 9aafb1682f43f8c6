#!/usr/bin/env bash
# Checks the hookmux plugin (this repository as a Claude Code plugin marketplace) in the real
# Claude Code: installs it offline from this checkout with the real `claude plugin` commands, seeds
# one memory, and runs a scripted turn (a prompt, then a Write to `.env`), twice:
#   with hookmux on PATH     the wake-up's memory reaches the model, and the `.env` write is denied
#   without any hookmux      one SessionStart message says how to install it, and nothing is blocked
#
# usage: scripts/plugin-self-check.sh HARNESS_DIR
#   HARNESS_DIR  the Claude Code harness folder (cc_run_scopes.py, install-claude.sh)
# Exit 0 when both runs behave so.
set -euo pipefail
harness=$(cd "${1:?usage: $0 HARNESS_DIR}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CLAUDE_BIN=${CLAUDE_BIN:-$("$harness/install-claude.sh")}
bin=$("$root/scripts/release-bin.sh")
bin_dir=$(dirname "$bin")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scenario=$work/hookmux-plugin
mkdir -p "$scenario/marketplace/integrations"
cp -r .claude-plugin "$scenario/marketplace/"
cp -r integrations/claude-plugin "$scenario/marketplace/integrations/"
echo '["hookmux@hookmux"]' > "$scenario/plugins.json"
echo '{}' > "$scenario/settings.json"
cat > "$scenario/script.json" <<'JSON'
{"prompt": "how do we ship the billing service?",
 "tool_calls": [{"name": "Write", "input": {"file_path": "/PROJ/.env", "content": "TOKEN=1\n"}}],
 "final_text": "FINAL"}
JSON

export LORE_DB=$work/lore.db XDG_STATE_HOME=$work/state LORE_HOOK_STATE_DIR=$work/lore-state
"$bin_dir/hookmux" memory add "Billing ships through the staging canary first" --scope global >/dev/null

# A PATH without any hookmux, and one with this build first.
bare_path=$(python3 - <<'PY'
import os
print(os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if not os.path.exists(os.path.join(d, "hookmux"))))
PY
)
PATH="$bin_dir:$bare_path" python3 scripts/plugins_compare.py "$harness" run "$scenario" > "$work/with.json"
PATH="$bare_path" python3 scripts/plugins_compare.py "$harness" run "$scenario" > "$work/without.json"

python3 - "$work/with.json" "$work/without.json" <<'PY'
import json, sys
with_, without = (json.load(open(p)) for p in sys.argv[1:3])
seen = "\n".join(with_["model_saw"] + with_["x_hook_texts"] + [str(t["content"]) for t in with_["tool_results"]])
checks = [
    ("installed from the local marketplace", all(s["rc"] == 0 for s in with_["plugins"])),
    ("with hookmux: the wake-up's memory reached the model", "Billing ships through the staging canary first" in seen),
    ("with hookmux: the .env write was denied by protect-paths",
     with_["tool_results"] and with_["tool_results"][0]["is_error"] and "protect-paths" in seen and ".env" in seen),
    ("without hookmux: the .env write went through", without["tool_results"] and not without["tool_results"][0]["is_error"]),
    ("without hookmux: SessionStart said how to install it",
     any("no hookmux binary found" in (h.get("stdout") or "") for h in without["hooks"])),
    ("without hookmux: no hook error", not any((h.get("exit_code") or 0) != 0 for h in without["hooks"] if h["subtype"] == "hook_response")),
]
for name, ok in checks:
    print(("PASS " if ok else "FAIL ") + name)
if not all(ok for _, ok in checks):
    print(json.dumps({"with": with_, "without": without}, indent=1)[:6000])
    sys.exit(1)
PY
