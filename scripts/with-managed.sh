#!/usr/bin/env bash
# Runs a command with a scenario's managed settings in place, as an administrator would put them:
# SCENARIO_DIR/managed_settings.json as /etc/claude-code/managed-settings.json and
# SCENARIO_DIR/managed_settings.d/*.json as /etc/claude-code/managed-settings.d/*.json (Claude
# Code's Linux paths; needs root).
#
# Where it can (unshare, and no mounts below /etc), the files are placed in a private mount
# namespace over a copy-on-write layer of /etc: only COMMAND and its children see them, and other
# Claude Code runs on the machine are untouched. Otherwise they are placed in /etc/claude-code
# itself, whatever was there moved aside and put back afterwards, also when the command fails or
# is interrupted; then every Claude Code run on the machine sees them meanwhile (a warning says so).
#
# usage: scripts/with-managed.sh SCENARIO_DIR COMMAND [ARG...]
set -euo pipefail
scenario=$(cd "${1:?usage: $0 SCENARIO_DIR COMMAND [ARG...]}" && pwd)
shift
managed=/etc/claude-code
if [[ ! -f $scenario/managed_settings.json && ! -d $scenario/managed_settings.d ]]; then
  exec "$@"
fi

place() {
  mkdir -p "$managed"
  if [[ -f $scenario/managed_settings.json ]]; then
    cp "$scenario/managed_settings.json" "$managed/managed-settings.json"
  fi
  if [[ -d $scenario/managed_settings.d ]]; then
    mkdir -p "$managed/managed-settings.d"
    find "$scenario/managed_settings.d" -maxdepth 1 -name '*.json' -exec cp {} "$managed/managed-settings.d/" \;
  fi
}

if [[ ${WITH_MANAGED_PRIVATE:-} == 1 ]]; then
  # Inside the private namespace: a layer over /etc that vanishes with it.
  layer=$(mktemp -d)
  trap 'umount /etc 2>/dev/null || true; rm -rf "$layer" 2>/dev/null || true' EXIT
  mkdir "$layer/upper" "$layer/work"
  mount -t overlay overlay -o "lowerdir=/etc,upperdir=$layer/upper,workdir=$layer/work" /etc
  rm -rf "$managed"
  place
  status=0
  "$@" || status=$?
  exit $status
fi

if command -v unshare >/dev/null && ! grep -q ' /etc/' /proc/self/mounts &&
  unshare --mount --propagation private true 2>/dev/null; then
  exec env WITH_MANAGED_PRIVATE=1 unshare --mount --propagation private "$0" "$scenario" "$@"
fi

echo "with-managed.sh: no private mount namespace here; every Claude Code run on this machine sees $managed until this command ends" >&2
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
place
"$@"
