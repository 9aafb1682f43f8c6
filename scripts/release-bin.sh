#!/usr/bin/env bash
# Builds hookmux's release binary (`cargo build --release --locked`) and prints its path: under
# $CARGO_TARGET_DIR when set (relative to the checkout when relative), else target/. The check
# scripts run the binary this prints, never a stale one from another target folder.
#
# usage: bin=$(scripts/release-bin.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && cargo build --release --locked --quiet >&2)
target=${CARGO_TARGET_DIR:-target}
[[ $target == /* ]] || target=$root/$target
echo "$target/release/hookmux"
