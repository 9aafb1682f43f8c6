#!/usr/bin/env bash
# Whole-process benchmark of `hookmux run wakeup` on the ranked path (a UserPromptSubmit event
# with a prompt of a few dozen words, no session id so that every run does the full work), with
# 1k, 10k and 100k memories in the store, against `/bin/true` started the same way.
#
# With WAKEUP_BENCH_POSTGRES_URL (a postgres:// URL of a role that may create databases, on
# loopback), the same corpus is also loaded into a PostgreSQL database per size
# (hookmux_bench_SIZE, made with psql when missing) and measured beside SQLite, connection
# included.
#
# Usage: benches/wakeup.sh [SIZE...]        (default sizes: 1000 10000 100000)
# Environment: WAKEUP_BENCH_DIR keeps the corpora and stores between runs (default: a temp dir).
# Needs hyperfine and python3 (and psql for PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked >&2
target=${CARGO_TARGET_DIR:-target}
[[ $target == /* ]] || target=$PWD/$target
bin=$target/release/hookmux
pg_admin=${WAKEUP_BENCH_POSTGRES_URL:-}
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

  if [[ -n $pg_admin ]]; then
    pg_db=hookmux_bench_$n
    pg_url=$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]);
print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$pg_admin" "$pg_db")
    if [[ -z $(psql "$pg_admin" -Atc "SELECT 1 FROM pg_database WHERE datname = '$pg_db'") ]]; then
      psql "$pg_admin" -qc "CREATE DATABASE $pg_db" >&2
      (cd "$project" && LORE_DB=$pg_url "$bin" memory import "$work/corpus-$n.json" >&2)
      psql "$pg_url" -qc "VACUUM ANALYZE" >&2
    fi
    echo "== $n memories, PostgreSQL on loopback =="
    LORE_DB=$pg_url hyperfine -N --warmup 10 --runs 100 --export-json "$work/hyperfine-pg-$n.json" \
      "sh -c 'cd $project && exec $bin run wakeup < $work/event-$n.json'" \
      "sh -c 'cd $project && exec /bin/true < $work/event-$n.json'" >&2
    LORE_DB=$pg_url python3 benches/wakeup_paired.py "$project" "$bin" "$work/event-$n.json" \
      "$work/hyperfine-pg-$n.json"
  fi
done
