#!/usr/bin/env bash
# Builds the workspace's tests for x86_64-pc-windows-gnu with the cross recipe and runs them under
# Wine, one test binary at a time, and says per binary how many passed, were ignored and failed.
# A test that cannot run on Windows (a POSIX shell, a symbolic link: Wine makes none) is ignored
# there with its reason (`#[cfg_attr(windows, ignore = "…")]`), so every binary is expected to
# end with no failure.
#
# usage: scripts/windows-tests.sh CROSS_DIR
#   CROSS_DIR  the cross-build tools folder (see scripts/windows-check.sh)
# CROSS_TARGET_DIR: cargo's target folder (default: target/cross-windows); the worktree's own, as
#   for scripts/windows-check.sh.
# SUITES: the binaries to run, by name (default: `sdk platform handlers lib`): `sdk`, `platform`,
#   `handlers` and `lib` are the crates' unit tests, `it` the integration tests, which start the
#   built hookmux.exe for each test and take about ten minutes under Wine on 2 cores.
# TEST_ARGS: more arguments for the test binaries (a name filter, say; default:
#   `--test-threads=2`).
# Exits 0 only when every binary ran with no failure.
set -uo pipefail
tools=$(cd "${1:?usage: $0 CROSS_DIR}" && pwd) || exit 1
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

eval "$("$tools/setup.sh")" || { echo "windows-tests: FAIL: $tools/setup.sh" >&2; exit 1; }
export CARGO_TARGET_DIR=${CROSS_TARGET_DIR:-$root/target/cross-windows}
[[ $CARGO_TARGET_DIR == /* ]] || CARGO_TARGET_DIR=$root/$CARGO_TARGET_DIR
mkdir -p "$CARGO_TARGET_DIR"
read -r -a test_args <<<"${TEST_ARGS:---test-threads=2}"

status=0
results=()
for suite in ${SUITES:-sdk platform handlers lib}; do
  case $suite in
    sdk) selection=(-p hookmux-sdk --lib) ;;
    platform) selection=(-p hookmux-platform --lib) ;;
    handlers) selection=(-p hookmux-handlers --lib) ;;
    lib) selection=(-p hookmux --lib) ;;
    it) selection=(-p hookmux --test it) ;;
    *)
      echo "windows-tests: unknown suite $suite (sdk, platform, handlers, lib, it)" >&2
      exit 2
      ;;
  esac
  log=$CARGO_TARGET_DIR/windows-tests-$suite.log
  started=$SECONDS
  echo "windows-tests: $suite (log: $log)" >&2
  cargo test -Zbuild-std=std,panic_abort --target x86_64-pc-windows-gnu --locked "${selection[@]}" -- "${test_args[@]}" \
    >"$log" 2>&1
  code=$?
  summary=$(grep -E '^test result: ' "$log" | tail -n 1)
  if [[ $code -eq 0 && -n $summary ]]; then
    results+=("$suite: ok, ${summary#test result: ok. } [$((SECONDS - started)) s]")
  else
    status=1
    failed=$(grep -E '^test .* FAILED$' "$log" | sed -E 's/^test (.*) \.\.\. FAILED$/\1/' | paste -sd' ' -)
    results+=("$suite: FAIL (exit $code), ${summary:-no summary (build failed?)}${failed:+; failed: $failed} [$((SECONDS - started)) s]")
  fi
done
printf 'windows-tests: %s\n' "${results[@]}"
exit $status
