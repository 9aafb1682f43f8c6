#!/usr/bin/env bash
# Many hooks at once: `hookmux dispatch` over 5 to 2,000 matching hooks (each `true I` through
# /bin/sh) against a shell loop running the same commands one after another, in paired rounds:
# wall time, CPU time (user + system, the hooks included) and peak RSS. Needs python3 (no
# hyperfine, no GNU time: the runs are timed with wait4, which Linux and macOS both have).
#
# usage: benches/many.sh [--baseline OTHER_HOOKMUX] [--baseline-max N] [--sizes 5,20,100]
#                        [--rounds R] [--budget SECONDS]
#   --baseline  another build (an older commit's release binary) as a third side, with its
#               ratio to this one, for sizes up to --baseline-max (default 1000)
# HOOKMUX_BIN: the binary to measure (default: this checkout's release build).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${HOOKMUX_BIN:-$(scripts/release-bin.sh)}
exec python3 benches/many.py "$bin" "$@"
