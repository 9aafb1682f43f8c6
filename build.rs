//! Records the commit hookmux is built from, for `hookmux --version`. From a git checkout that is
//! `git rev-parse --short HEAD`; a source without git (a crates.io package) says so instead.
//! `HOOKMUX_COMMIT` set at build time wins, for packagers who build from an exported tree.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

// Both paths are made canonical the same way and only compared, never shown or written.
#[allow(clippy::disallowed_methods)]
fn own_checkout() -> bool {
    let (Some(top), Ok(manifest)) = (git(&["rev-parse", "--show-toplevel"]), std::env::var("CARGO_MANIFEST_DIR"))
    else {
        return false;
    };
    match (std::fs::canonicalize(top), std::fs::canonicalize(manifest)) {
        (Ok(top), Ok(manifest)) => top == manifest,
        _ => false,
    }
}

fn main() {
    println!("cargo:rerun-if-env-changed=HOOKMUX_COMMIT");
    let commit = match std::env::var("HOOKMUX_COMMIT") {
        Ok(commit) if !commit.trim().is_empty() => Some(commit.trim().to_string()),
        // Only this package's own checkout: a package unpacked inside some other repository
        // must not take that repository's commit as its own.
        _ if !own_checkout() => None,
        _ => {
            // Rebuild when HEAD moves: HEAD itself (a branch switch) and its log (a commit).
            for path in ["HEAD", "logs/HEAD"] {
                if let Some(file) = git(&["rev-parse", "--git-path", path]) {
                    println!("cargo:rerun-if-changed={file}");
                }
            }
            git(&["rev-parse", "--short", "HEAD"])
        }
    };
    let commit = commit.map_or_else(|| "commit unknown".to_string(), |c| format!("commit {c}"));
    println!("cargo:rustc-env=HOOKMUX_COMMIT={commit}");
}
