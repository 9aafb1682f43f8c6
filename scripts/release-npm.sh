#!/usr/bin/env bash
# Builds hookmux's npm packages, the way @biomejs/biome and lefthook ship: one platform package
# per target holding the native binary (@hookmux/cli-linux-x64, -linux-arm64, -darwin-arm64,
# -darwin-x64, -win32-x64, each with `os` and `cpu` so npm installs only the one that fits), and
# the main `hookmux` package: a small Node launcher as its `bin`, those packages as
# optionalDependencies, the OpenCode plugin inside. Nothing is downloaded at install time: a
# postinstall step only puts the platform package's binary in place of the launcher (on Windows,
# beside it as bin/hookmux.exe, with npm's shims made to start it), so hooks do not start Node.
#
# usage: scripts/release-npm.sh [--out DIR] [--target TRIPLE]... [--binary TRIPLE=PATH]... [--no-main]
#   --out DIR        where the package folders and their tarballs go
#                    (default: $CARGO_TARGET_DIR/npm, else target/npm)
#   --target TRIPLE  build the platform package of this target (repeatable; default: the host's
#                    x86_64-unknown-linux-gnu when neither --target nor --binary is given):
#                      x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu  with cargo zigbuild,
#                        for glibc 2.17 and later (zig from the `ziglang` PyPI package,
#                        `cargo install cargo-zigbuild`)
#                      aarch64-apple-darwin, x86_64-apple-darwin            with cargo, on macOS
#                        (MACOSX_DEPLOYMENT_TARGET, when set, is the oldest macOS it runs on)
#                      x86_64-pc-windows-msvc                               with cargo, on Windows
#   --binary T=PATH  package an already-built binary for target T instead of building it (T may
#                    also be x86_64-pc-windows-gnu, a Windows binary cross-built elsewhere)
#   --no-main        only the platform packages (the main package is the same for every target)
#
# SHIP_RUSTFLAGS: rustc flags for the Linux builds (none by default; the config's are left out).
# The version is the one in Cargo.toml. Linux binaries are checked to need no glibc newer than
# 2.17: the highest GLIBC_ symbol version they use (objdump -T, else readelf) must be 2.17 or less.
# Publishing is left to the release workflow: `npm publish` each platform folder, then the main.
# Runs under the bash 3.2 of macOS: no array is expanded while it may be empty.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

GLIBC_MAX=2.17
out=""
targets=()
binaries=()
main=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --target) targets+=("${2:?--target needs a target triple}"); shift 2 ;;
    --binary) binaries+=("${2:?--binary needs TRIPLE=PATH}"); shift 2 ;;
    --no-main) main=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "release-npm: unknown option $1 (see --help)" >&2; exit 1 ;;
  esac
done
if [[ ${#targets[@]} -eq 0 && ${#binaries[@]} -eq 0 ]]; then
  targets=(x86_64-unknown-linux-gnu)
fi
target_dir=${CARGO_TARGET_DIR:-target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
out=${out:-$target_dir/npm}
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
[[ -n $version ]] || { echo "release-npm: no version in Cargo.toml's [workspace.package]" >&2; exit 1; }

# npm's name, os and cpu for a target.
platform() {
  case $1 in
    x86_64-unknown-linux-gnu) echo "linux-x64 linux x64" ;;
    aarch64-unknown-linux-gnu) echo "linux-arm64 linux arm64" ;;
    aarch64-apple-darwin) echo "darwin-arm64 darwin arm64" ;;
    x86_64-apple-darwin) echo "darwin-x64 darwin x64" ;;
    x86_64-pc-windows-msvc | x86_64-pc-windows-gnu) echo "win32-x64 win32 x64" ;;
    *) echo "release-npm: no npm package for target $1" >&2; return 1 ;;
  esac
}

# The highest GLIBC_ version a binary needs, e.g. 2.17.
glibc_needed() {
  local symbols
  if command -v objdump >/dev/null; then
    symbols=$(objdump -T "$1")
  else
    symbols=$(readelf --dyn-syms --wide "$1")
  fi
  grep -o 'GLIBC_[0-9][0-9.]*' <<<"$symbols" | sed 's/^GLIBC_//' | sort -u -V | tail -n 1
}

check_glibc() {
  local binary=$1 needed
  if readelf --version-info --wide "$binary" | grep -q GLIBC_ABI_DT_RELR; then
    echo "release-npm: $binary needs GLIBC_ABI_DT_RELR (packed relative relocations, glibc 2.36+); build it without -z pack-relative-relocs" >&2
    return 1
  fi
  needed=$(glibc_needed "$binary")
  if [[ -z $needed ]]; then
    echo "release-npm: $binary names no GLIBC_ version: is it a glibc binary?" >&2
    return 1
  fi
  if [[ $(printf '%s\n%s\n' "$needed" "$GLIBC_MAX" | sort -V | tail -n 1) != "$GLIBC_MAX" ]]; then
    echo "release-npm: $binary needs glibc $needed, newer than $GLIBC_MAX: build it with cargo zigbuild --target <triple>.$GLIBC_MAX" >&2
    return 1
  fi
  echo "release-npm: $binary needs glibc $needed (at most $GLIBC_MAX)"
}

build() {
  local triple=$1
  case $triple in
    *-linux-gnu)
      command -v cargo-zigbuild >/dev/null || {
        echo "release-npm: $triple needs cargo zigbuild (cargo install cargo-zigbuild; pip install ziglang)" >&2
        return 1
      }
      # .cargo/config.toml packs relative relocations for local builds, which needs glibc 2.36
      # (and a linker zig does not have): the shipped binary leaves them unpacked, for glibc 2.17.
      # RUSTFLAGS, set, replaces the config's flags rather than adding to them.
      RUSTFLAGS=${SHIP_RUSTFLAGS:-} cargo zigbuild --release --locked -p hookmux --target "$triple.$GLIBC_MAX" >&2
      ;;
    *-apple-darwin | *-windows-msvc)
      cargo build --release --locked -p hookmux --target "$triple" >&2
      ;;
    *) echo "release-npm: cannot build $triple" >&2; return 1 ;;
  esac
  echo "$target_dir/$triple/release/$(binary_name "$triple")"
}

# The binary's file name for a target.
binary_name() {
  case $1 in
    *-windows-*) echo hookmux.exe ;;
    *) echo hookmux ;;
  esac
}

licenses() {
  cp LICENSE-MIT LICENSE-APACHE "$1/"
}

# The platform package of one target, from its binary.
platform_package() {
  local triple=$1 binary=$2 name os cpu dir file
  read -r name os cpu < <(platform "$triple")
  file=$(binary_name "$triple")
  # A Windows binary needs no executable bit, and has none where it was copied from a Linux disk.
  if [[ $os == win32 ]]; then
    [[ -f $binary ]] || { echo "release-npm: $binary is not a file" >&2; return 1; }
  else
    [[ -x $binary ]] || { echo "release-npm: $binary is not an executable file" >&2; return 1; }
  fi
  if [[ $os == linux ]]; then
    check_glibc "$binary"
  fi
  dir=$out/cli-$name
  # The binary may be the one an earlier run put in $dir: take it out before $dir goes.
  local staged
  staged=$(mktemp)
  cp "$binary" "$staged"
  rm -rf "$dir"
  mkdir -p "$dir/bin"
  mv "$staged" "$dir/bin/$file"
  chmod 755 "$dir/bin/$file"
  licenses "$dir"
  local libc=""
  [[ $os == linux ]] && libc=',
  "libc": ["glibc"]'
  cat >"$dir/package.json" <<JSON
{
  "name": "@hookmux/cli-$name",
  "version": "$version",
  "description": "The hookmux binary for $os $cpu; install \`hookmux\`, which picks it",
  "license": "MIT OR Apache-2.0",
  "repository": { "type": "git", "url": "git+https://github.com/hookmux/hookmux.git" },
  "os": ["$os"],
  "cpu": ["$cpu"]$libc,
  "files": ["bin/$file", "LICENSE-MIT", "LICENSE-APACHE"],
  "preferUnplugged": true
}
JSON
  # shellcheck disable=SC2016 # Markdown's backticks, not a command
  printf '# @hookmux/cli-%s\n\nThe hookmux binary for %s %s. Install `hookmux` instead: it depends on this package\non this platform.\n' \
    "$name" "$os" "$cpu" >"$dir/README.md"
  pack "$dir"
}

main_package() {
  local dir=$out/hookmux
  rm -rf "$dir"
  mkdir -p "$dir/opencode"
  cp -R npm/hookmux/. "$dir/"
  cp integrations/opencode/hookmux.js "$dir/opencode/hookmux.js"
  licenses "$dir"
  cat >"$dir/package.json" <<JSON
{
  "name": "hookmux",
  "version": "$version",
  "description": "A fast, native runtime for Claude Code, Codex, Gemini CLI and OpenCode hooks",
  "license": "MIT OR Apache-2.0",
  "repository": { "type": "git", "url": "git+https://github.com/hookmux/hookmux.git" },
  "homepage": "https://github.com/hookmux/hookmux",
  "keywords": ["claude-code", "codex", "opencode", "gemini-cli", "hooks", "opencode-plugin"],
  "type": "module",
  "bin": { "hookmux": "bin/hookmux.js" },
  "scripts": { "postinstall": "node lib/install.js" },
  "main": "opencode.js",
  "exports": {
    ".": "./opencode.js",
    "./opencode": "./opencode.js",
    "./package.json": "./package.json"
  },
  "files": ["bin", "lib", "opencode", "opencode.js", "LICENSE-MIT", "LICENSE-APACHE"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {
    "@hookmux/cli-linux-x64": "$version",
    "@hookmux/cli-linux-arm64": "$version",
    "@hookmux/cli-darwin-arm64": "$version",
    "@hookmux/cli-darwin-x64": "$version",
    "@hookmux/cli-win32-x64": "$version"
  }
}
JSON
  chmod 755 "$dir/bin/hookmux.js"
  pack "$dir"
}

pack() {
  (cd "$out" && npm pack --silent "$1" >/dev/null)
}

# Each loop only when its array has items: bash before 4.4 calls an empty "${a[@]}" unbound.
if [[ ${#targets[@]} -gt 0 ]]; then
  for triple in "${targets[@]}"; do
    platform "$triple" >/dev/null
    binary=$(build "$triple")
    platform_package "$triple" "$binary"
  done
fi
if [[ ${#binaries[@]} -gt 0 ]]; then
  for pair in "${binaries[@]}"; do
    platform_package "${pair%%=*}" "${pair#*=}"
  done
fi
if [[ $main -eq 1 ]]; then
  main_package
fi
echo "release-npm: hookmux $version packages in $out:"
ls -1 "$out"/*.tgz
