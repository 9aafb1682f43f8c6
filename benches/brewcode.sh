#!/usr/bin/env bash
# Whole-process timing of the seven brewcode handlers (`hookmux run NAME` with the event on stdin)
# against Node: `node -e 0`, the floor any Node hook pays, and, when brewcode's hooks folder is
# given, brewcode's own hook on the same fixture.
#
#   benches/brewcode.sh [BREWCODE_HOOKS_DIR] [--runs N]
#
# BREWCODE_HOOKS_DIR is the folder holding session-start.mjs and lib/ (a checkout of
# kochetkov-ma/claude-brewcode at v3.4.20, brewcode/hooks). Each handler runs on its fixture in
# fixtures/brewcode/bench/, in the steady state of a real project: its folders and log exist
# after the warm-up; what a call changes and the next call must find as before (the reminder's
# stamp, the task files a compaction rewrites) is put back before every run (hyperfine
# --prepare, not timed). Runs without a shell in between (hyperfine -N, the event fed with --input), so it
# needs hyperfine 1.16 or later, node and python3. Prints a Markdown table of medians and ratios.
set -euo pipefail
cd "$(dirname "$0")/.."

hooks=""
runs=200
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    *) hooks="$1"; shift ;;
  esac
done
if [[ -n $hooks ]]; then
  for candidate in "$hooks" "$hooks/hooks" "$hooks/brewcode/hooks"; do
    if [[ -f $candidate/lib/utils.mjs ]]; then hooks="$(cd "$candidate" && pwd)"; break; fi
  done
  [[ -f $hooks/lib/utils.mjs ]] || { echo "benches/brewcode.sh: no brewcode hooks folder (lib/utils.mjs) at $hooks" >&2; exit 2; }
fi
for tool in hyperfine node python3; do
  command -v "$tool" >/dev/null || { echo "benches/brewcode.sh: $tool is not installed" >&2; exit 2; }
done
hyperfine --help | grep -q -- '--input' || {
  echo "benches/brewcode.sh: hyperfine $(hyperfine --version | cut -d' ' -f2) has no --input; install 1.16 or later (cargo install hyperfine)" >&2
  exit 2
}
node_bin="$(command -v node)"

cargo build --release --locked --quiet
bin="$PWD/target/release/hookmux"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# handler  fixture  brewcode hook  what to put back before each run (comma-separated; "-": nothing)
cases=(
  "compact-handoff ss-compact-bound-v2 session-start.mjs -"
  "grepai-status gs-index-missing grepai-session.mjs -"
  "knowledge-inject pt-developer-bound pre-task.mjs -"
  "grepai-reminder gr-first-reminder grepai-reminder.mjs .grepai/.reminder-ts"
  "task-bind po-worker-done post-task.mjs -"
  "knowledge-compact pc-at-threshold pre-compact.mjs .claude/tasks/20260201-120000_auth_refactor_task,.claude/tasks/cfg"
  "stop-guard st-incomplete-v2-block stop.mjs -"
)

# Copies a fixture with its placeholders filled in ({{PROJECT}}, {{HOME}}, {{NOW-2h}}, ...), as
# the conformance sandbox does, and sizes grepai's index.
materialize() {
  python3 - "$1" "$2" <<'PY'
import datetime, os, re, shutil, sys, time
src, dst = sys.argv[1], sys.argv[2]
now = time.time()
areas = {"PROJECT": "project", "HOME": "home", "TMP": "tmp"}
# The project runs from a fresh copy at <dst>/project; home and tmp stay in the fixture.
where = {"PROJECT": os.path.join(dst, "project"), "HOME": os.path.join(dst, "fixture", "home"),
         "TMP": os.path.join(dst, "fixture", "tmp")}
def iso(t):
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (d.microsecond // 1000)
def fill(text):
    for token, path in where.items():
        text = text.replace("{{%s}}" % token, path)
    unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    return re.sub(r"\{\{NOW(?:([+-])(\d+)([smhd]))?\}\}",
                  lambda m: iso(now + (int(m.group(2)) * unit[m.group(3)] * (-1 if m.group(1) == "-" else 1) if m.group(2) else 0)), text)
for area in areas.values():
    target = os.path.join(dst, "fixture", area)
    os.makedirs(target, exist_ok=True)
    for root, dirs, files in os.walk(os.path.join(src, area)):
        rel = os.path.relpath(root, os.path.join(src, area))
        os.makedirs(os.path.join(target, rel), exist_ok=True)
        for name in files:
            with open(os.path.join(root, name), encoding="utf-8") as f:
                text = f.read()
            with open(os.path.join(target, rel, name), "w", encoding="utf-8") as f:
                f.write(fill(text))
with open(os.path.join(src, "event.json"), encoding="utf-8") as f:
    event = fill(f.read())
with open(os.path.join(dst, "event.json"), "w", encoding="utf-8") as f:
    f.write(event)
if os.path.isdir(os.path.join(dst, "fixture", "project", ".grepai")) and "first-reminder" in src:
    with open(os.path.join(dst, "fixture", "project", ".grepai", "index.gob"), "wb") as f:
        f.truncate(150000)
PY
}

results=()
for case in "${cases[@]}"; do
  read -r handler fixture hook restore <<<"$case"
  dir="$work/$handler"
  mkdir -p "$dir"
  materialize "fixtures/brewcode/bench/$fixture" "$dir"
  cp -a "$dir/fixture/project" "$dir/project"
  # hyperfine -N runs the prepare command without a shell too: a script puts things back.
  printf '#!/bin/sh\n' > "$dir/reset"
  if [[ $restore != - ]]; then
    IFS=, read -r -a paths <<<"$restore"
    for rel in "${paths[@]}"; do
      printf 'rm -rf "%s/project/%s" && cp -a "%s/fixture/project/%s" "%s/project/%s" 2>/dev/null\n' \
        "$dir" "$rel" "$dir" "$rel" "$dir" "$rel" >> "$dir/reset"
    done
    printf 'exit 0\n' >> "$dir/reset"
  fi
  chmod +x "$dir/reset"
  commands=(-n hookmux "$bin run $handler" -n "node -e 0" "$node_bin -e 0")
  if [[ -n $hooks ]]; then
    commands+=(-n brewcode "$node_bin $hooks/$hook")
  fi
  echo "== $handler ($fixture)" >&2
  HOME="$dir/fixture/home" hyperfine -N --style basic --warmup 10 --runs "$runs" --input "$dir/event.json" \
    --prepare "$dir/reset" --export-json "$dir/times.json" "${commands[@]}" >&2
  results+=("$handler=$dir/times.json")
done

python3 - "${results[@]}" <<'PY'
import json, sys
rows = []
for item in sys.argv[1:]:
    handler, path = item.split("=", 1)
    results = {r["command"]: r for r in json.load(open(path))["results"]}
    rows.append((handler, results))
brewcode = any("brewcode" in r for _, r in rows)
head = "| handler | hookmux median | hookmux CPU | `node -e 0` median | node / hookmux |"
line = "|---|---|---|---|---|"
if brewcode:
    head += " brewcode hook median | brewcode / hookmux |"
    line += "---|---|"
print(head)
print(line)
ms = lambda r: r["median"] * 1000
for handler, r in rows:
    hm, node = r["hookmux"], r["node -e 0"]
    cpu = (hm["user"] + hm["system"]) * 1000
    out = "| `%s` | %.2f ms | %.2f ms | %.1f ms | %.0f× |" % (handler, ms(hm), cpu, ms(node), ms(node) / ms(hm))
    if brewcode:
        out += " %.1f ms | %.0f× |" % (ms(r["brewcode"]), ms(r["brewcode"]) / ms(hm))
    print(out)
PY
