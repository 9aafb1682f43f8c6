//! Reading macOS's `KERN_PROCARGS2` answer, kept apart from the `sysctl` that fetches it so that
//! its tests run on every Unix.
//!
//! The layout (xnu `bsd/kern/kern_sysctl.c`, `sysctl_procargsx`): the argument count as a native
//! `int`, the executable's path, NUL padding, then `argc` NUL-terminated arguments, then the
//! environment's NUL-terminated `NAME=value` strings up to an empty one, after which come the
//! loader's own strings (`executable_path=…`, `ptr_munge=…`), which are not the environment.

/// The environment strings of a `KERN_PROCARGS2` answer; nothing when it is cut short or malformed
/// before the environment starts.
pub fn environ(args: &[u8]) -> impl Iterator<Item = &[u8]> {
    environ_start(args).unwrap_or(&[]).split(|byte| *byte == 0).take_while(|string| !string.is_empty())
}

/// The bytes from the first environment string on.
fn environ_start(args: &[u8]) -> Option<&[u8]> {
    let argc = i32::from_ne_bytes(args.get(..4)?.try_into().ok()?);
    let mut rest = args.get(4..)?;
    // The executable's path, then the padding after it.
    rest = rest.get(rest.iter().position(|byte| *byte == 0)?..)?;
    rest = rest.get(rest.iter().position(|byte| *byte != 0)?..)?;
    for _ in 0..argc.max(0) {
        rest = rest.get(rest.iter().position(|byte| *byte == 0)? + 1..)?;
    }
    Some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(argc: i32, rest: &[u8]) -> Vec<u8> {
        let mut bytes = argc.to_ne_bytes().to_vec();
        bytes.extend_from_slice(rest);
        bytes
    }

    #[test]
    fn the_environment_is_what_follows_the_arguments_up_to_the_loaders_strings() {
        let args = answer(
            2,
            b"/bin/sh\0\0\0\0sh\0-c\0PATH=/bin\0HOOKMUX_HOOK_RUN=1-ab\0\0executable_path=/bin/sh\0ptr_munge=\0",
        );
        let environ: Vec<&[u8]> = environ(&args).collect();
        assert_eq!(environ, [&b"PATH=/bin"[..], b"HOOKMUX_HOOK_RUN=1-ab"]);
    }

    #[test]
    fn an_argument_that_looks_like_an_entry_is_not_one() {
        let args = answer(2, b"/bin/env\0\0env\0HOOKMUX_HOOK_RUN=1-ab\0HOME=/h\0\0");
        let environ: Vec<&[u8]> = environ(&args).collect();
        assert_eq!(environ, [&b"HOME=/h"[..]]);
    }

    #[test]
    fn a_short_or_malformed_answer_has_no_environment() {
        for args in [Vec::new(), vec![1, 0], answer(3, b"/bin/sh\0\0sh\0-c\0"), answer(1, b"/bin/sh")] {
            assert_eq!(environ(&args).count(), 0, "{args:?}");
        }
        // A negative count reads no arguments.
        let args = answer(-5, b"/p\0\0A=1\0\0");
        assert_eq!(environ(&args).collect::<Vec<_>>(), [&b"A=1"[..]]);
    }
}
