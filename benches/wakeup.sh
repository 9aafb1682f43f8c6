#!/usr/bin/env bash
# Whole-process benchmark of `hookmux run wakeup` on the ranked path (a UserPromptSubmit event
# with a prompt of a few dozen words, no session id so that every run does the full work), with
# 1k, 10k and 100k memories in the store, against `/bin/true` started the same way.
#
# Usage: benches/wakeup.sh [SIZE...]        (default sizes: 1000 10000 100000)
# Environment: WAKEUP_BENCH_DIR keeps the corpora and stores between runs (default: a temp dir).
# Needs hyperfine and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked >&2
bin=$PWD/target/release/hookmux
work=${WAKEUP_BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/wakeup-bench.XXXXXX")}
mkdir -p "$work"
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000 10000 100000)

for n in "${sizes[@]}"; do
  project=$work/project-$n
  db=$work/lore-$n.db
  mkdir -p "$project"
  if [[ ! -f $db ]]; then
    python3 benches/wakeup_corpus.py "$n" "$work/corpus-$n.json"
    (cd "$project" && LORE_DB=$db "$bin" memory import "$work/corpus-$n.json" >&2)
  fi
  python3 -c 'import json, sys; print(json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": sys.argv[2],
      "prompt": open(sys.argv[1]).read()}))' "$work/corpus-$n.json.prompt" "$project" >"$work/event-$n.json"

  echo "== $n memories =="
  LORE_DB=$db hyperfine -N --warmup 10 --runs 100 --export-json "$work/hyperfine-$n.json" \
    "sh -c 'cd $project && exec $bin run wakeup < $work/event-$n.json'" \
    "sh -c 'cd $project && exec /bin/true < $work/event-$n.json'" >&2
  LORE_DB=$db python3 benches/wakeup_paired.py "$project" "$bin" "$work/event-$n.json" "$work/hyperfine-$n.json"
done
