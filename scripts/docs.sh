#!/usr/bin/env bash
# Builds the book (docs/) with mdBook, installing mdBook from crates.io first when it is missing.
#
# Usage: scripts/docs.sh          build into docs/book/
#        scripts/docs.sh serve    serve on http://localhost:3000 with live reload
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# The mdBook release the book is written for; `cargo install` builds it once.
MDBOOK_VERSION=0.5.4
if ! command -v mdbook >/dev/null 2>&1 || ! mdbook --version | grep -q "v$MDBOOK_VERSION"; then
  echo "docs: installing mdbook $MDBOOK_VERSION from crates.io (once)" >&2
  cargo install --locked mdbook --version "$MDBOOK_VERSION"
fi
cd "$repo/docs"
case "${1:-build}" in
  build) mdbook build && echo "docs: the book is in $repo/docs/book/index.html" ;;
  serve) exec mdbook serve ;;
  *) echo "usage: scripts/docs.sh [build|serve]" >&2; exit 1 ;;
esac
