#!/usr/bin/env bash
# Builds and tests examples/custom-handler the way "Write a handler" tells its reader to: the
# crate copied into a folder of its own outside the checkout, its two path dependencies pointed
# at the checkout, its committed Cargo.lock used as it is (--locked), and nothing fetched
# (--offline: a machine that has built hookmux has every crate the example needs).
#
# Usage: scripts/example-check.sh   (CARGO_TARGET_DIR is honoured, and shared with hookmux's build)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$repo/examples/custom-handler" "$work/hookmux-bash-guard"
cd "$work/hookmux-bash-guard"
# The guide's step 1: point the two path dependencies at your checkout of hookmux.
sed -i.bak \
  -e "s#^hookmux-sdk = { path = \"[^\"]*\" }#hookmux-sdk = { path = \"$repo/sdk\" }#" \
  -e "s#^hookmux = { path = \"[^\"]*\" }#hookmux = { path = \"$repo\" }#" \
  Cargo.toml
rm Cargo.toml.bak
grep -q "path = \"$repo/sdk\"" Cargo.toml || { echo "example-check: Cargo.toml's hookmux-sdk line was not found" >&2; exit 1; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# The guide's steps 3 and 4: the tests, which build the binary too; it must list bash-guard.
cargo test --locked --offline
cargo clippy --locked --offline --all-targets -- -D warnings
"$CARGO_TARGET_DIR/debug/hookmux-with-bash-guard" handlers | grep -q '^bash-guard' || {
  echo "example-check: the built binary does not list bash-guard" >&2
  exit 1
}
echo "example-check: examples/custom-handler builds and passes its tests from $work, offline"
