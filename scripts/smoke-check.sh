#!/usr/bin/env bash
# Runs a built hookmux the way a release needs it to work before it is published: `--version`,
# and one dispatch of a captured payload (fixtures/events/PreToolUse-Write.json) whose two hooks
# both deny, one built-in (in-process) and one spawned, so that the spawn, its pipes and the
# answer run on the binary's own platform.
#
# usage: scripts/smoke-check.sh BINARY [RUNNER...]
#   RUNNER  what runs the binary when this machine cannot by itself, e.g.
#           `arch -x86_64` (Intel macOS under Rosetta) or `qemu-aarch64 -L /usr/aarch64-linux-gnu`
# Prints what it checked; exits 1 on the first thing that fails. Works with the bash 3.2 of macOS
# and Git Bash on Windows (paths given to a Windows binary are converted with cygpath).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:?usage: $0 BINARY [RUNNER...]}
shift
[[ -f $binary ]] || { echo "smoke-check: $binary is not a file" >&2; exit 1; }
# The dispatch below runs in a folder of its own: a relative path would no longer name the binary.
[[ $binary == /* || $binary == [A-Za-z]:* ]] || binary=$PWD/$binary
run=("$@" "$binary")

fail() { echo "smoke-check: FAIL: $*" >&2; exit 1; }

version=$("${run[@]}" --version) || fail "$binary --version exited non-zero"
[[ $version == "hookmux "* ]] || fail "$binary --version printed: $version"
echo "smoke-check: $version"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project"
# A Windows binary reads Windows paths (C:/…); elsewhere the path is the path.
native() { if command -v cygpath >/dev/null; then cygpath -m "$1"; else printf '%s' "$1"; fi; }
project=$(native "$work/project")
cat >"$work/hooks.json" <<'JSON'
{"hooks": {"PreToolUse": [
  {"matcher": "Write", "hooks": [
    {"type": "command", "command": "hookmux run protect-paths --deny 'notes.*'"},
    {"type": "command", "command": "cat >/dev/null; echo 'the spawned hook says no' >&2; exit 2", "timeout": 30}
  ]}
]}}
JSON
sed -e "s|/home/dev/acme|$project|g" -e "s|/home/dev|$(native "$work")|g" \
  "$root/fixtures/events/PreToolUse-Write.json" >"$work/event.json"
answer=$(cd "$work/project" && HOME=$work TMPDIR=$work CLAUDE_PROJECT_DIR=$project \
  "${run[@]}" dispatch --settings "$(native "$work/hooks.json")" <"$work/event.json") ||
  fail "dispatch exited non-zero"
[[ $answer == *'"permissionDecision":"deny"'* ]] || fail "dispatch did not deny: $answer"
[[ $answer == *'notes.'* ]] || fail "the built-in's reason is not in the answer: $answer"
[[ $answer == *'the spawned hook says no'* ]] || fail "the spawned hook's reason is not in the answer: $answer"
echo "smoke-check: dispatch denied the Write with both hooks' reasons"
