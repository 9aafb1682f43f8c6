#!/usr/bin/env bash
# Checks hookmux's npm packages as a user gets them: builds them with scripts/release-npm.sh
# (unless given a folder of tarballs it made), installs the tarballs into a temporary prefix with
# no network (`npm install --offline`), checks that its postinstall step put the native binary in
# the launcher's place, then runs the installed `hookmux --version`,
# `npx hookmux handlers`, and loads the OpenCode plugin from the installed package.
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
main=$(ls "$tarballs"/hookmux-[0-9]*.tgz 2>/dev/null | tail -n 1)
native=$(ls "$tarballs"/hookmux-cli-$platform-[0-9]*.tgz 2>/dev/null | tail -n 1)
[[ -n $main && -n $native ]] || {
  echo "npm-check: $tarballs lacks hookmux-<version>.tgz or hookmux-cli-$platform-<version>.tgz" >&2
  exit 1
}

prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
# A cache of its own: what is not in the tarballs cannot come from an earlier install either.
export npm_config_cache=$prefix/.npm-cache npm_config_update_notifier=false
echo "npm-check: installing $(basename "$main") and $(basename "$native") into $prefix, offline"
npm install --prefix "$prefix" --offline --no-audit --no-fund --loglevel=error "$native" "$main"

fail() { echo "npm-check: FAIL: $*" >&2; exit 1; }

# The postinstall step put the native binary in the launcher's place: no Node on every hook.
installed=$(readlink -f "$prefix/node_modules/.bin/hookmux")
[[ $(head -c 4 "$installed" | od -An -c | tr -d ' ') == 177ELF ]] ||
  fail "$installed is still the Node launcher: the postinstall step did not link the native binary"
echo "npm-check: $installed is the native binary"

version=$("$prefix/node_modules/.bin/hookmux" --version) || fail "hookmux --version"
echo "npm-check: hookmux --version: $version"
[[ $version == "hookmux "* ]] || fail "unexpected --version output: $version"

handlers=$(cd "$prefix" && npx --offline --no hookmux handlers) || fail "npx hookmux handlers"
grep -q wakeup <<<"$handlers" || fail "npx hookmux handlers lists no wakeup handler: $handlers"
echo "npm-check: npx hookmux handlers: $(wc -l <<<"$handlers") lines"

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
echo "npm-check: ok"
