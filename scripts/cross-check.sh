#!/usr/bin/env bash
# Checks every shipped binary that this Linux x86-64 machine cannot build natively:
#   aarch64-apple-darwin, x86_64-apple-darwin  `cargo check --workspace --all-targets` with no
#                                              warning, then a link of the `hookmux` binary is
#                                              attempted and its result reported (Apple's SDK is
#                                              not on any registry: a failed link is reported, not
#                                              a failure of the check)
#   aarch64-unknown-linux-gnu                  a build of `hookmux` for glibc 2.17, run under
#                                              qemu-user by scripts/smoke-check.sh: `--version`, and
#                                              a fixture dispatch whose built-in and spawned hooks
#                                              both deny
#
# usage: scripts/cross-check.sh TOOLS_DIR [TARGET...]
#   TOOLS_DIR  the cross-build tools folder (setup.sh, cc-apple.in): its setup.sh installs, once
#              per machine, Debian's rustc-web with its std sources (std comes from -Zbuild-std,
#              as rustup cannot add targets here) and zig from PyPI as the C compiler; this script
#              adds Debian's qemu-user and the arm64 C library for running, and a zig wrapper for
#              linking aarch64-linux-gnu.2.17
#   TARGET     some of the three above (default: all)
# CROSS_TARGET_DIR: cargo's target folder for these builds (default: target/cross); it must not be
# the one rustup's compiler uses, whose artifacts Debian's compiler cannot share.
# Prints one result line per target and how long each took; exits 1 when one fails.
set -euo pipefail
tools=$(cd "${1:?usage: $0 TOOLS_DIR [TARGET...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(aarch64-apple-darwin x86_64-apple-darwin aarch64-unknown-linux-gnu)
for target in "${targets[@]}"; do
  case $target in
    aarch64-apple-darwin | x86_64-apple-darwin | aarch64-unknown-linux-gnu) ;;
    *) echo "cross-check: cannot check $target (see --help in the script's header)" >&2; exit 1 ;;
  esac
done

export CARGO_TARGET_DIR=${CROSS_TARGET_DIR:-$root/target/cross}
[[ $CARGO_TARGET_DIR == /* ]] || CARGO_TARGET_DIR=$root/$CARGO_TARGET_DIR
mkdir -p "$CARGO_TARGET_DIR"
logs=$CARGO_TARGET_DIR/cross-check-logs
mkdir -p "$logs"

eval "$("$tools/setup.sh")"
export DEBIAN_FRONTEND=noninteractive
if ! command -v qemu-aarch64 >/dev/null || [[ ! -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]]; then
  apt-get update -qq
  apt-get install -y -q --no-install-recommends qemu-user libc6-arm64-cross libgcc-s1-arm64-cross >&2
fi
zig=$(python3 -c 'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')

# zig's cc as C compiler and linker for aarch64 glibc 2.17, as the release builds it: without
# the flags rustc and cc-rs pass that zig does not take (a --target of their own; libgcc_s,
# whose unwinder zig's libunwind replaces).
bin=$CARGO_TARGET_DIR/cross-bin
mkdir -p "$bin"
cat >"$bin/cc-aarch64-linux-gnu" <<WRAPPER
#!/usr/bin/env bash
args=()
for arg in "\$@"; do
  case \$arg in
    --target=*) ;;
    -lgcc_s) args+=(-lunwind) ;;
    *) args+=("\$arg") ;;
  esac
done
exec "$zig" cc -target aarch64-linux-gnu.2.17 "\${args[@]}"
WRAPPER
printf '#!/bin/sh\nexec "%s" ar "$@"\n' "$zig" >"$bin/ar-zig"
chmod +x "$bin/cc-aarch64-linux-gnu" "$bin/ar-zig"
export CC_aarch64_unknown_linux_gnu=$bin/cc-aarch64-linux-gnu AR_aarch64_unknown_linux_gnu=$bin/ar-zig
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=$bin/cc-aarch64-linux-gnu
export CARGO_TARGET_AARCH64_APPLE_DARWIN_LINKER=${CC_aarch64_apple_darwin:?TOOLS_DIR/setup.sh sets it}
export CARGO_TARGET_X86_64_APPLE_DARWIN_LINKER=${CC_x86_64_apple_darwin:?TOOLS_DIR/setup.sh sets it}

build_std=("-Zbuild-std=std,panic_abort")
results=()
status=0

# Warnings and errors as rustc and cargo print them, without cargo's "generated N warnings".
count_warnings() {
  grep -E '^(warning|error)(\[[A-Z0-9]+\])?: ' "$1" | grep -cvE ' generated [0-9]+ warnings?|^error: could not compile' || true
}

check_apple() {
  local target=$1 log=$logs/$1.check.log link=$logs/$1.link.log warnings started
  started=$SECONDS
  if ! cargo check "${build_std[@]}" --target "$target" --workspace --all-targets --locked >"$log" 2>&1; then
    results+=("$target: FAIL cargo check (see $log) [$((SECONDS - started)) s]")
    grep -E '^error' "$log" | head -n 20 >&2
    return 1
  fi
  warnings=$(count_warnings "$log")
  if [[ $warnings -ne 0 ]]; then
    results+=("$target: FAIL $warnings warnings in cargo check (see $log) [$((SECONDS - started)) s]")
    grep -E '^warning' "$log" | head -n 20 >&2
    return 1
  fi
  local linked
  if cargo build "${build_std[@]}" --target "$target" -p hookmux --bin hookmux --locked >"$link" 2>&1; then
    linked="linked: $(file -b "$CARGO_TARGET_DIR/$target/debug/hookmux" | cut -d, -f1-2)"
  else
    local missing
    missing=$(grep -oE 'unable to find (dynamic )?system (library|framework) "[^"]+"|undefined symbol: [^ ]+' "$link" |
      sed -E 's/.*"([^"]+)"$/\1/' | sort -u | paste -sd, - | sed 's/,/, /g')
    linked="link failed (reported, not checked): ${missing:-see $link}"
  fi
  results+=("$target: ok, cargo check with no warning; $linked [$((SECONDS - started)) s]")
}

check_linux_arm64() {
  local target=aarch64-unknown-linux-gnu log=$logs/aarch64-unknown-linux-gnu.build.log started binary
  started=$SECONDS
  if ! cargo build "${build_std[@]}" --target "$target" -p hookmux --bin hookmux --locked >"$log" 2>&1; then
    results+=("$target: FAIL build (see $log) [$((SECONDS - started)) s]")
    grep -E '^error' "$log" | head -n 20 >&2
    return 1
  fi
  binary=$CARGO_TARGET_DIR/$target/debug/hookmux
  local glibc
  glibc=$(readelf --dyn-syms --wide "$binary" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -u -V | tail -n 1)
  if [[ $(printf '%s\n2.17\n' "$glibc" | sort -V | tail -n 1) != 2.17 ]]; then
    results+=("$target: FAIL the binary needs glibc $glibc, newer than 2.17")
    return 1
  fi
  local smoke
  smoke=$(scripts/smoke-check.sh "$binary" qemu-aarch64 -L /usr/aarch64-linux-gnu 2>&1) || {
    printf '%s\n' "$smoke" >&2
    results+=("$target: FAIL under qemu-aarch64: $(tail -n 1 <<<"$smoke")")
    return 1
  }
  results+=("$target: ok, built for glibc 2.17 (needs $glibc; $(readelf -h "$binary" | sed -n 's/ *Machine: *//p')); under qemu-aarch64: $(head -n 1 <<<"$smoke" | sed 's/^smoke-check: //'), and a dispatch denied by both hooks [$((SECONDS - started)) s]")
}

total=$SECONDS
for target in "${targets[@]}"; do
  echo "cross-check: $target" >&2
  case $target in
    *-apple-darwin) check_apple "$target" || status=1 ;;
    aarch64-unknown-linux-gnu) check_linux_arm64 || status=1 ;;
  esac
done
printf 'cross-check: %s\n' "${results[@]}"
echo "cross-check: $((SECONDS - total)) s in all"
exit $status
