#!/usr/bin/env bash
# Checks hookmux's npm packages as a user gets them: builds them with scripts/release-npm.sh
# (unless given a folder of tarballs it made), installs the tarballs into a temporary prefix with
# no network (`npm install --offline`), checks that its postinstall step put the native binary in
# the launcher's place, then runs the installed `hookmux --version`, `npx hookmux handlers`, and
# loads the OpenCode plugin from the installed package. Then:
#
# - the win32-x64 package, as npm installs it on Windows: packed around a stand-in for
#   hookmux.exe (a copy of this machine's binary under that name, in the check's own folder:
#   nothing here builds Windows binaries) unless the folder holds one built for Windows,
#   installed with its `os` check overridden, npm's shims for the launcher written by npm's own
#   cmd-shim (what npm does on Windows), and the postinstall step run as on Windows; the shims
#   must then start bin/hookmux.exe, not Node, and the Git Bash one is run;
# - the launcher without a binary for the machine (the platform package left out): as a hook it
#   blocks a tool call with exit 2 and how to install hookmux, never exit 1, which hosts read as
#   "carry on".
#
# usage: scripts/npm-check.sh [TARBALL_DIR]
# Needs node and npm; building needs what release-npm.sh needs (cargo zigbuild and zig).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ $# -gt 0 ]]; then
  tarballs=$(cd "$1" && pwd)
else
  target_dir=${CARGO_TARGET_DIR:-target}
  [[ $target_dir == /* ]] || target_dir=$root/$target_dir
  tarballs=$target_dir/npm
  "$root/scripts/release-npm.sh" --out "$tarballs"
fi

case $(uname -s)-$(uname -m) in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  *) echo "npm-check: no hookmux package for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac
# The newest tarball of a package in the folder, or nothing.
tarball() { find "$tarballs" -maxdepth 1 -name "$1-[0-9]*.tgz" | sort | tail -n 1; }
main=$(tarball hookmux)
native=$(tarball "hookmux-cli-$platform")
[[ -n $main && -n $native ]] || {
  echo "npm-check: $tarballs lacks hookmux-<version>.tgz or hookmux-cli-$platform-<version>.tgz" >&2
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
# A cache of its own: what is not in the tarballs cannot come from an earlier install either.
export npm_config_cache=$work/.npm-cache npm_config_update_notifier=false
install() {
  local into=$1
  shift
  npm install --prefix "$into" --offline --no-audit --no-fund --loglevel=error "$@"
}
echo "npm-check: installing $(basename "$main") and $(basename "$native") into $prefix, offline"
install "$prefix" "$native" "$main"

fail() { echo "npm-check: FAIL: $*" >&2; exit 1; }

# The postinstall step put the native binary in the launcher's place: no Node on every hook.
installed=$(node -e 'console.log(require("fs").realpathSync(process.argv[1]))' "$prefix/node_modules/.bin/hookmux")
[[ $(head -c 2 "$installed") != '#!' ]] ||
  fail "$installed is still the Node launcher: the postinstall step did not link the native binary"
echo "npm-check: $installed is the native binary"

version=$("$prefix/node_modules/.bin/hookmux" --version) || fail "hookmux --version"
echo "npm-check: hookmux --version: $version"
[[ $version == "hookmux "* ]] || fail "unexpected --version output: $version"

handlers=$(cd "$prefix" && npx --offline --no hookmux handlers) || fail "npx hookmux handlers"
grep -q wakeup <<<"$handlers" || fail "npx hookmux handlers lists no wakeup handler: $handlers"
echo "npm-check: npx hookmux handlers: $(wc -l <<<"$handlers" | tr -d ' ') lines"

# The plugin, as OpenCode loads it: the package's main export, called with a context.
(cd "$prefix" && node --input-type=module -e '
  const bare = await import("hookmux");
  const sub = await import("hookmux/opencode");
  if (typeof bare.default !== "function" || sub.default !== bare.default) throw new Error("no plugin export");
  const hooks = await bare.default({ directory: process.cwd(), client: {}, project: {}, worktree: process.cwd() });
  const names = Object.keys(hooks);
  if (!names.some((n) => n.startsWith("tool.execute"))) throw new Error("the plugin wires no tool hooks: " + names);
  console.log("npm-check: OpenCode plugin loaded, hooks: " + names.join(", "));
') || fail "loading the OpenCode plugin from the installed package"

# --- win32-x64, as npm installs it on Windows.
windows=$(tarball hookmux-cli-win32-x64)
if [[ -n $windows ]]; then
  echo "npm-check: win32-x64: $(basename "$windows"), built for Windows"
  standin=""
else
  # hookmux.exe is this machine's binary under the Windows name: the shims' paths and the Git
  # Bash shim are checked by running it; that a Windows binary runs is the release workflow's.
  standin=$work/standin/hookmux.exe
  mkdir -p "${standin%/*}"
  cp "$installed" "$standin"
  "$root/scripts/release-npm.sh" --out "$work/win32" --no-main --binary "x86_64-pc-windows-msvc=$standin" >/dev/null
  windows=$(find "$work/win32" -maxdepth 1 -name 'hookmux-cli-win32-x64-[0-9]*.tgz')
  echo "npm-check: win32-x64: packed around a stand-in for hookmux.exe (no Windows binary is built here)"
fi
[[ $(tar -xzOf "$windows" package/package.json) == *'"os": ["win32"]'* ]] || fail "$windows is not for win32"
listing=$(tar -tzf "$windows")
grep -qx 'package/bin/hookmux.exe' <<<"$listing" || fail "$windows holds no bin/hookmux.exe"
win=$work/win32-prefix
# --force: npm would refuse a win32 package on this machine, which is the point of `os`.
install "$win" --force --os=win32 --cpu=x64 "$windows" "$main"
cmd_shim=$(npm root -g)/npm/node_modules/cmd-shim
[[ -d $cmd_shim ]] || fail "no cmd-shim in npm's own modules ($cmd_shim): cannot write npm's Windows shims"
launcher=$win/node_modules/hookmux/bin/hookmux.js
node -e 'require(process.argv[1])(process.argv[2], process.argv[3])' "$cmd_shim" "$launcher" "$win/node_modules/.bin/hookmux"
grep -q 'hookmux\\bin\\hookmux.js' "$win/node_modules/.bin/hookmux.cmd" || fail "npm's cmd shim does not start the launcher"
printf 'Object.defineProperty(process, "platform", { value: "win32" });\n' >"$work/as-win32.cjs"
(cd "$win/node_modules/hookmux" && node --require "$work/as-win32.cjs" lib/install.js) || fail "the postinstall step as on Windows"
exe=$win/node_modules/hookmux/bin/hookmux.exe
cmp -s "$exe" "$win/node_modules/@hookmux/cli-win32-x64/bin/hookmux.exe" ||
  fail "the postinstall step put no copy of the package's hookmux.exe beside the launcher"
for shim in hookmux hookmux.cmd hookmux.ps1; do
  text=$(cat "$win/node_modules/.bin/$shim")
  [[ $text == *hookmux.exe* && $text != *hookmux.js* ]] ||
    fail "the $shim shim still starts Node, not hookmux.exe:"$'\n'"$text"
done
[[ -f $launcher ]] || fail "the launcher is gone: --ignore-scripts installs and npm rebuild still need it"
echo "npm-check: win32-x64: bin/hookmux.exe beside the launcher; hookmux.cmd, hookmux.ps1 and hookmux start it, not Node"
if [[ -n $standin ]]; then
  version=$("$win/node_modules/.bin/hookmux" --version) || fail "the Git Bash shim did not start hookmux.exe"
  [[ $version == "hookmux "* ]] || fail "the Git Bash shim started something else: $version"
  echo "npm-check: win32-x64: the Git Bash shim runs bin/hookmux.exe: $version"
fi

# --- The launcher with no binary for the machine.
bare=$work/bare-prefix
install "$bare" --omit=optional "$main"
hook=$bare/node_modules/.bin/hookmux
[[ $(head -c 2 "$(node -e 'console.log(require("fs").realpathSync(process.argv[1]))' "$hook")") == '#!' ]] ||
  fail "without the platform package, $hook should be the Node launcher"
event='{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/","tool_name":"Write","tool_input":{"file_path":"/x/.env","content":"K=1"}}'
code=0
stderr=$(printf '%s' "$event" | "$hook" dispatch 2>&1 >/dev/null) || code=$?
[[ $code -eq 2 && $stderr == *"cargo install hookmux"* ]] ||
  fail "a launcher without a binary answered a PreToolUse with exit $code (hosts read 1 as 'carry on'): $stderr"
code=0
stdout=$(printf '{"hook_event_name":"Stop","stop_hook_active":false}' | "$hook" run wakeup 2>/dev/null) || code=$?
[[ $code -eq 0 && $stdout == *'"systemMessage"'* ]] ||
  fail "a launcher without a binary should answer Stop with exit 0 and a systemMessage, not exit $code: $stdout"
echo "npm-check: without a binary the launcher blocks a PreToolUse (exit 2, how to install) and tells the user on Stop"
echo "npm-check: ok"
