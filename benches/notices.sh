#!/usr/bin/env bash
# Whole-process cost of a settings file full of malformed entries (handlers without a `type`):
# `hookmux dispatch` (the first event of a session, which tells every problem, and a later one,
# which tells none) and `hookmux hooks validate`, over 6,000 and 30,000 entries; prints each one's
# median. Needs hyperfine and python3. Usage: benches/notices.sh [RUNS]; HOOKMUX=/path/to/hookmux
# times another build, DISPATCH_SIZES="6000" leaves out dispatch over 30,000.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${HOOKMUX:-}" ]; then
  cargo build --release --locked --quiet
  HOOKMUX=${CARGO_TARGET_DIR:-$PWD/target}/release/hookmux
fi
runs=${1:-5}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
for n in (6000, 30000):
    # One good handler, so that dispatch has something to run, then n malformed ones.
    hooks = [{"type": "command", "command": "true"}] + [{} for _ in range(n)]
    with open(f"{work}/malformed-{n}.json", "w") as out:
        json.dump({"hooks": {"PreToolUse": [{"hooks": hooks}]}}, out, separators=(",", ":"))
PY
cp fixtures/events/PreToolUse-Bash.json "$work/bash.json"
cd "$work"
mkdir tmp
ls -l malformed-*.json | awk '{print $5, $9}'
# hyperfine's summary shows the mean; a shared machine's outliers move it, the median less.
median() {
  python3 - "$1" <<'PY'
import json, statistics, sys
for result in json.load(open(sys.argv[1]))["results"]:
    median = statistics.median(result["times"]) * 1000
    print(f"{result['command']}: median {median:.1f} ms over {len(result['times'])} runs")
PY
}
for n in ${DISPATCH_SIZES:-6000 30000}; do
  dispatch="env TMPDIR=$work/tmp $HOOKMUX dispatch --settings malformed-$n.json"
  event="sh -c 'exec $dispatch < bash.json'"
  # A fresh session each run: `--prepare` forgets what earlier runs told.
  hyperfine -N --runs "$runs" --style none --export-json "first-$n.json" \
    --prepare "rm -rf $work/tmp/hookmux-notices-$(id -u)" \
    --command-name "dispatch, $n malformed, first event of the session" "$event"
  median "first-$n.json"
  hyperfine -N --warmup 1 --runs "$runs" --style none --export-json "later-$n.json" \
    --command-name "dispatch, $n malformed, later event of the session" "$event"
  median "later-$n.json"
done
for n in 6000 30000; do
  # validate exits 1: the files hold errors.
  hyperfine -N -i --runs "$runs" --style none --export-json "validate-$n.json" \
    --command-name "validate, $n malformed" "$HOOKMUX hooks validate --settings malformed-$n.json"
  median "validate-$n.json"
done
rm -rf "tmp/hookmux-notices-$(id -u)"
env TMPDIR="$work/tmp" "$HOOKMUX" dispatch --settings malformed-6000.json < bash.json > answer.json 2>/dev/null || true
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
message = json.load(open(f"{work}/answer.json")).get("systemMessage", "")
folder = f"{work}/tmp/hookmux-notices-{os.getuid()}"
print(f"first event over 6000: systemMessage {len(message.encode())} bytes, {len(message.splitlines())} lines; "
      f"{len(os.listdir(folder))} file(s) in the notices folder")
PY
