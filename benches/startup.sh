#!/usr/bin/env bash
# Start-up cost of hookmux's hook paths (`dispatch` over 20 groups none of which match, the same
# with the trace off, `run protect-paths`, `--version`) against /bin/true: whole processes in
# paired rounds, wall and CPU time, page faults and peak memory (benches/startup.py says how each
# is measured on Linux, macOS and Windows). Builds the release binary first.
#
# usage: benches/startup.sh [--runs N] [--direct] [--against REV]
#   --runs N       paired rounds (default 200)
#   --direct       start every command directly instead of through `sh -c 'exec …'`
#   --instructions also count each command's instructions with valgrind (Linux)
#   --against REV  also build hookmux at REV (a commit, tag or branch) in a worktree under
#                  target/startup-against/, and run its hook commands head to head
# On Windows run `python benches/startup.py [OPTIONS] target/release/hookmux.exe` instead.
set -euo pipefail
cd "$(dirname "$0")/.."
options=()
against=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) options+=(--runs "${2:?--runs needs a number}"); shift 2 ;;
    --direct) options+=(--direct); shift ;;
    --instructions) options+=(--instructions); shift ;;
    --against) against=${2:?--against needs a revision}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "startup.sh: unknown option $1 (see --help)" >&2; exit 1 ;;
  esac
done
bin=$(scripts/release-bin.sh)
if [[ -n $against ]]; then
  commit=$(git rev-parse --short "$against^{commit}")
  tree=$PWD/target/startup-against/$commit
  [[ -d $tree ]] || git worktree add --detach "$tree" "$commit" >&2
  (cd "$tree" && CARGO_TARGET_DIR=$tree/target cargo build --release --locked --quiet >&2)
  options+=(--against "$tree/target/release/hookmux")
fi
python3 benches/startup.py "${options[@]}" "$bin"
