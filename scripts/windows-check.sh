#!/usr/bin/env bash
# Builds hookmux.exe for x86_64-pc-windows-gnu with the cross recipe and runs it under Wine, as a
# Windows user's host would run it:
#   version     `hookmux --version`
#   guard       `hookmux run protect-paths` denies a Write of `C:\…\.env`, and of `C:\…\.ENV`
#               (Windows' file names ignore case), read as a PreToolUse event on stdin
#   exec-form   a `dispatch` whose exec-form hook (`cmd.exe /C "echo no 1>&2 & exit 2"`, no
#               shell) blocks the Bash call with the hook's stderr as the reason
#   timeout     a `dispatch` whose hook overruns its 3 s timeout: the answer says so, and the
#               process the hook started (`start /B` a batch file that writes a line a second)
#               has ended with it: no line is added after the answer, and no process of the
#               check's is left in the hook's folder
#   async       a `dispatch` whose `async` hook (`cmd.exe /C "ping -n 300 127.0.0.1"`) runs on
#               after the answer, then the session's SessionEnd `dispatch`: the hook and its
#               `ping` have ended, and the session's records are gone
#   validate    `hooks validate` on a file with Windows paths: a missing `C:\…\hook.exe` (exec
#               form) and a 5000 s timeout are errors at their JSON paths,
#               `C:\Windows\System32\cmd.exe` is found (exit 1)
#   install     `install claude --scope user` in a Windows-style home (USERPROFILE, APPDATA,
#               LOCALAPPDATA, TEMP set to a folder of the check's own): the hook moves to
#               `%USERPROFILE%\.claude\hookmux-hooks.json` behind a `dispatch --installed` entry;
#               `uninstall claude --scope user` gives the settings file back byte for byte
#
# usage: scripts/windows-check.sh CROSS_DIR
#   CROSS_DIR  the cross-build tools folder: its setup.sh installs (once per machine) Debian's
#              rustc-web with std's sources, mingw-w64 and Wine, and prints the environment
# CROSS_TARGET_DIR: cargo's target folder for the build (default: target/cross-windows); it must
# not be the one rustup's compiler uses, whose artifacts Debian's compiler cannot share, nor one
# another worktree of this repository builds in: cargo names a workspace's own crates by their
# path below the workspace, so two worktrees take each other's builds for their own.
# STEPS: the steps to run, by name with `_` for `-` (default: all of them, in the order above).
# Prints one line per step, `ok` or `FAIL` with what was seen; exits 0 only when every step is as
# expected. The steps run in a folder under the Wine prefix's C: drive, so the paths hookmux sees
# are `C:\…`; it is removed at the end, and any process of the check's still running there is
# ended (and reported).
set -uo pipefail
tools=$(cd "${1:?usage: $0 CROSS_DIR}" && pwd) || exit 1
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

eval "$("$tools/setup.sh")" || { echo "windows-check: FAIL: $tools/setup.sh" >&2; exit 1; }
export CARGO_TARGET_DIR=${CROSS_TARGET_DIR:-$root/target/cross-windows}
[[ $CARGO_TARGET_DIR == /* ]] || CARGO_TARGET_DIR=$root/$CARGO_TARGET_DIR
wine=${CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER:-/usr/lib/wine/wine64}
mkdir -p "$CARGO_TARGET_DIR"

started=$SECONDS
log=$CARGO_TARGET_DIR/windows-check-build.log
echo "windows-check: building hookmux.exe (log: $log)" >&2
if ! cargo build -Zbuild-std=std,panic_abort --target x86_64-pc-windows-gnu -p hookmux --bin hookmux --locked \
  >"$log" 2>&1; then
  grep -E '^error' "$log" | head -n 20 >&2
  echo "windows-check: build: FAIL (see $log) [$((SECONDS - started)) s]"
  exit 1
fi
warnings=$(grep -E '^warning(\[[A-Z0-9]+\])?: ' "$log" | grep -cvE ' generated [0-9]+ warnings?' || true)
if [[ $warnings -ne 0 ]]; then
  grep -E '^warning' "$log" | head -n 20 >&2
  echo "windows-check: build: FAIL, $warnings warnings (see $log)"
  exit 1
fi
echo "windows-check: build: ok, no warning [$((SECONDS - started)) s]"

# The check's folder, on Wine's C: drive.
drive_c=$WINEPREFIX/drive_c
work=$(mktemp -d "$drive_c/hookmux-windows-check.XXXXXX")
win_work="C:\\${work#"$drive_c/"}"
home=$work/home
mkdir -p "$work/bin" "$home/AppData/Roaming" "$home/AppData/Local/Temp"
cp "$CARGO_TARGET_DIR/x86_64-pc-windows-gnu/debug/hookmux.exe" "$work/bin/"

# A Unix path under the check's folder as Windows names it.
win() { local rest=${1#"$work"}; printf '%s%s' "$win_work" "${rest//\//\\}"; }

# The check's own processes (Wine runs each Windows process as a Linux one) still running with
# their folder under $1: `pid command line`, one a line.
left_in() {
  local proc cwd
  for proc in /proc/[0-9]*; do
    cwd=$(readlink "$proc/cwd" 2>/dev/null) || continue
    [[ $cwd == "$1" || $cwd == "$1"/* ]] || continue
    printf '%s %s\n' "${proc#/proc/}" "$(tr '\0' ' ' <"$proc/cmdline" 2>/dev/null)"
  done
}

end_left_in() {
  local pid rest
  while read -r pid rest; do
    echo "windows-check: ending a process left in $1: $pid $rest" >&2
    kill -KILL "$pid" 2>/dev/null
  done < <(left_in "$1")
}

cleanup() {
  end_left_in "$work"
  rm -rf "$work"
}
trap cleanup EXIT

# Runs hookmux.exe under Wine in folder $1 (a Unix path under $work) with the rest as its
# arguments, stdin passed on. Wine gives a process started from Linux the prefix's own
# USERPROFILE and APPDATA, whatever the Linux environment says; cmd.exe sets the check's home
# for hookmux instead, as a Windows parent process would, and puts hookmux.exe on PATH.
hookmux() {
  local dir=$1
  shift
  local h
  h=$(win "$home")
  env -i PATH=/usr/bin:/bin HOME="$HOME" WINEPREFIX="$WINEPREFIX" WINEDEBUG=-all "$wine" cmd.exe /C \
    "set USERPROFILE=$h& set APPDATA=$h\\AppData\\Roaming& set LOCALAPPDATA=$h\\AppData\\Local& set TEMP=$h\\AppData\\Local\\Temp& set TMP=$h\\AppData\\Local\\Temp& set PATH=$(win "$work/bin");%PATH%& cd /D $(win "$dir")& hookmux.exe $*"
}

results=()
status=0
pass() { results+=("$1: ok, $2"); }
fail() {
  results+=("$1: FAIL, $2")
  status=1
}

# --version
step_version() {
  local out
  out=$(hookmux "$work" --version 2>&1)
  if [[ $out == "hookmux "* ]]; then pass version "$out"; else fail version "printed: $out"; fi
}

# A PreToolUse Write of `name` in the project, as Claude Code sends it on Windows.
write_event() {
  local project
  project=$(win "$work/project")
  python3 -c 'import json, sys
project, name = sys.argv[1], sys.argv[2]
print(json.dumps({"session_id": "s-windows", "cwd": project, "hook_event_name": "PreToolUse",
  "tool_name": "Write", "tool_input": {"file_path": project + "\\" + name, "content": "KEY=1\n"},
  "tool_use_id": "toolu_1"}))' "$project" "$1"
}

step_guard() {
  mkdir -p "$work/project"
  local name out seen=()
  for name in .env .ENV; do
    out=$(write_event "$name" | hookmux "$work/project" run protect-paths 2>&1)
    if [[ $out != *'"permissionDecision":"deny"'* ]]; then
      fail guard "a Write of $(win "$work/project")\\$name was not denied: $out"
      return
    fi
    seen+=("$name")
  done
  pass guard "a Write of C:\\…\\.env and of C:\\…\\.ENV denied"
}

# Runs dispatch in the project with hooks file $1 (JSON) on a PreToolUse Bash event.
dispatch() {
  printf '%s' "$1" >"$work/project/hooks.json"
  local project
  project=$(win "$work/project")
  python3 -c 'import json, sys
print(json.dumps({"session_id": "s-windows", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
  "tool_name": "Bash", "tool_input": {"command": "git push"}, "tool_use_id": "toolu_2"}))' "$project" |
    hookmux "$work/project" dispatch --settings "$project\\hooks.json"
}

step_exec_form() {
  mkdir -p "$work/project"
  local out
  out=$(dispatch '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "cmd.exe", "args": ["/C", "echo no 1>&2 & exit 2"], "timeout": 60}]}]}}' 2>&1)
  # The reason is Claude Code's: the hook's command in brackets, then its stderr (cmd's `\r\n`
  # included).
  if [[ $out == *'"permissionDecision":"deny"'* && $out == *'"permissionDecisionReason":"[cmd.exe /C echo no 1>&2 & exit 2]: no '* ]]; then
    pass exec-form "cmd.exe /C \"echo no 1>&2 & exit 2\" blocked the Bash call with its stderr as the reason"
  else
    fail exec-form "dispatch answered: $out"
  fi
}

step_timeout() {
  local folder=$work/timeout
  mkdir -p "$folder/project"
  # A batch file that writes a line a second, for ever.
  printf '@echo off\r\n:loop\r\necho tick>>tick.txt\r\nping -n 2 127.0.0.1 >NUL\r\ngoto loop\r\n' >"$folder/project/ticker.cmd"
  local project out
  project=$(win "$folder/project")
  printf '%s' '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "cmd.exe", "args": ["/C", "start /B ticker.cmd & ping -n 300 127.0.0.1 >NUL"], "timeout": 3}]}]}}' \
    >"$folder/project/hooks.json"
  out=$(python3 -c 'import json, sys
print(json.dumps({"session_id": "s-windows", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
  "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "toolu_3"}))' "$project" |
    hookmux "$folder/project" dispatch --settings "$project\\hooks.json" 2>&1)
  if [[ $out != *"timed out after 3 s"* ]]; then
    fail timeout "dispatch did not report the timeout: $out"
    end_left_in "$folder"
    return
  fi
  local before after
  before=$(wc -l <"$folder/project/tick.txt" 2>/dev/null || echo 0)
  sleep 4
  after=$(wc -l <"$folder/project/tick.txt" 2>/dev/null || echo 0)
  local left
  left=$(left_in "$folder")
  end_left_in "$folder"
  if [[ $before -eq 0 ]]; then
    fail timeout "the hook's child never ran (no tick.txt): $out"
  elif [[ $after -ne $before ]]; then
    fail timeout "the hook's child still ran after the answer ($before lines, then $after 4 s later)"
  elif [[ -n $left ]]; then
    fail timeout "processes left in the hook's folder: $(paste -sd';' <<<"$left")"
  else
    pass timeout "the answer said \"timed out after 3 s\", and the hook's child ended with it ($before lines, none after)"
  fi
}

# An event of session s-async in the project $1 (a Windows path), as Claude Code sends it.
async_event() {
  python3 -c 'import json, sys
print(json.dumps({"session_id": "s-async", "cwd": sys.argv[1], "hook_event_name": sys.argv[2],
  "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {}, "reason": "other"}))' "$1" "$2"
}

step_async() {
  local folder=$work/async
  mkdir -p "$folder/project"
  local project out running left records
  project=$(win "$folder/project")
  printf '%s' '{"hooks": {"PostToolUse": [{"hooks": [
    {"type": "command", "command": "cmd.exe", "args": ["/C", "ping -n 300 127.0.0.1 >NUL"], "async": true}]}]}}' \
    >"$folder/project/hooks.json"
  # Into a file, not a pipe: under Wine the hook's Unix process keeps hookmux's Unix stdout (its
  # own stdout, NUL, is no Unix file), and a captured output would end only with the hook.
  async_event "$project" PostToolUse |
    hookmux "$folder/project" dispatch --settings "$project\\hooks.json" >"$folder/answer.txt" 2>&1
  out=$(cat "$folder/answer.txt")
  local tries=0
  until running=$(left_in "$folder") && [[ $running == *ping* ]] || ((++tries > 50)); do sleep 0.2; done
  if [[ $running != *ping* ]]; then
    fail async "the async hook's ping never ran: $out"
    end_left_in "$folder"
    return
  fi
  async_event "$project" SessionEnd |
    hookmux "$folder/project" dispatch --settings "$project\\hooks.json" >"$folder/answer.txt" 2>&1
  out=$(cat "$folder/answer.txt")
  sleep 1
  left=$(left_in "$folder")
  end_left_in "$folder"
  records=$(find "$home/AppData/Local/hookmux/detached" -mindepth 1 2>/dev/null)
  if [[ -n $left ]]; then
    fail async "still running after SessionEnd: $(paste -sd';' <<<"$left") (dispatch said: $out)"
  elif [[ -n $records ]]; then
    fail async "the session's records are left: $(paste -sd';' <<<"$records")"
  else
    pass async "the async hook and its ping ran on after the answer and ended at SessionEnd; no record left"
  fi
}

step_validate() {
  mkdir -p "$work/project"
  printf '%s' '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "C:\\Windows\\System32\\cmd.exe", "args": ["/C", "exit 0"]},
    {"type": "command", "command": "C:\\nowhere\\hook.exe", "args": ["--check"]},
    {"type": "command", "command": "cmd.exe", "args": ["/C", "exit 0"], "timeout": 5000}]}]}}' >"$work/project/validate.json"
  local out code
  out=$(hookmux "$work/project" hooks validate --settings "$(win "$work/project")\\validate.json" --format json 2>&1)
  code=$?
  local verdict
  verdict=$(python3 -c 'import json, sys
try:
    found = {(f["json_path"], f["rule"]) for f in json.loads(sys.stdin.read())["findings"]}
except Exception as e:
    print("not the JSON report:", e); sys.exit()
want = {("hooks.PreToolUse[0].hooks[1].command", "missing-program"), ("hooks.PreToolUse[0].hooks[2].timeout", "timeout-milliseconds")}
if want - found: print("missing:", sorted(want - found))
elif any(path.startswith("hooks.PreToolUse[0].hooks[0]") for path, _ in found): print("cmd.exe was not found:", sorted(found))' <<<"$out")
  if [[ $code -eq 1 && -z $verdict ]]; then
    pass validate "missing-program and timeout-milliseconds at their JSON paths, C:\\Windows\\System32\\cmd.exe found, exit 1"
  else
    fail validate "exit $code, ${verdict:-findings as expected}: $out"
  fi
}

step_install() {
  mkdir -p "$home/.claude" "$work/project"
  local settings=$home/.claude/settings.json
  printf '%s\n' '{
  "model": "sonnet",
  "hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "hookmux run protect-paths"}]}]}
}' >"$settings"
  cp "$settings" "$work/settings.original"
  local out
  out=$(hookmux "$work/project" install claude --scope user 2>&1) || {
    fail install "install exited non-zero: $out"
    return
  }
  if ! grep -q 'dispatch --installed' "$settings" || ! grep -q 'protect-paths' "$home/.claude/hookmux-hooks.json" 2>/dev/null; then
    fail install "install did not move the hook: $(cat "$settings") / $out"
    return
  fi
  out=$(hookmux "$work/project" uninstall claude --scope user 2>&1) || {
    fail install "uninstall exited non-zero: $out"
    return
  }
  if cmp -s "$settings" "$work/settings.original"; then
    pass install "install moved the hook to $(win "$home")\\.claude\\hookmux-hooks.json; uninstall gave settings.json back byte for byte"
  else
    fail install "after uninstall settings.json differs: $(diff "$work/settings.original" "$settings" | head -n 20)"
  fi
}

for step in ${STEPS:-version guard exec_form timeout async validate install}; do
  echo "windows-check: ${step//_/-}" >&2
  "step_$step"
done
printf 'windows-check: %s\n' "${results[@]}"
echo "windows-check: $((SECONDS - started)) s in all"
exit $status
