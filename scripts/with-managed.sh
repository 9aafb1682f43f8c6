#!/usr/bin/env bash
# Runs a command with a scenario's managed settings in place, as an administrator would put them:
# SCENARIO_DIR/managed_settings.json as /etc/claude-code/managed-settings.json and
# SCENARIO_DIR/managed_settings.d/*.json as /etc/claude-code/managed-settings.d/*.json (Claude
# Code's Linux paths; writing there needs root). Whatever was in /etc/claude-code before is moved
# aside and put back afterwards, also when the command fails or is interrupted.
#
# usage: scripts/with-managed.sh SCENARIO_DIR COMMAND [ARG...]
set -euo pipefail
scenario=${1:?usage: $0 SCENARIO_DIR COMMAND [ARG...]}
shift
managed=/etc/claude-code
if [[ ! -f $scenario/managed_settings.json && ! -d $scenario/managed_settings.d ]]; then
  exec "$@"
fi
aside=
if [[ -e $managed ]]; then
  aside=$(mktemp -d /etc/claude-code.aside.XXXXXX)
  mv "$managed" "$aside/"
fi
restore() {
  rm -rf "$managed"
  if [[ -n $aside ]]; then mv "$aside/claude-code" "$managed" && rmdir "$aside"; fi
}
trap restore EXIT
trap 'exit 130' INT TERM
mkdir -p "$managed"
[[ -f $scenario/managed_settings.json ]] && cp "$scenario/managed_settings.json" "$managed/managed-settings.json"
if [[ -d $scenario/managed_settings.d ]]; then
  mkdir -p "$managed/managed-settings.d"
  cp "$scenario"/managed_settings.d/*.json "$managed/managed-settings.d/" 2>/dev/null || true
fi
"$@"
