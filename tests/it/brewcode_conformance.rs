//! brewcode v3.4.20 conformance: `hookmux run` against what brewcode's real Node hooks did.
//!
//! The recorded scenarios (`fixtures/brewcode/conformance/`, see its PROVENANCE.md) and the extra
//! ones in `fixtures/brewcode/scenarios/` each record one hook call: stdin, the project before,
//! and the exit code, stdout and every file after. The comparison is the recorded set's
//! `compare.py`, which runs each call in a sandbox of its own under the system's temporary folder;
//! it needs python3.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn conformance() -> PathBuf {
    common::fixture("brewcode/conformance")
}

fn python3_runs() -> bool {
    Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success())
}

fn assert_all_same(command: &mut Command) {
    let out = command.output().expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let differing: Vec<&str> = stdout.lines().filter(|line| !line.starts_with("same ")).collect();
    assert!(
        out.status.success(),
        "not every scenario is equivalent:\n{}\n{}",
        differing.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.lines().any(|line| line.starts_with("same ")), "no scenario ran:\n{stdout}");
}

#[test]
fn every_recorded_scenario_is_the_same() {
    if !python3_runs() {
        return common::skip("python3", "the brewcode conformance scenarios need python3 on PATH");
    }
    let _grepai_stopped = common::no_grepai_lookalikes();
    assert_all_same(
        Command::new("python3")
            .arg(conformance().join("compare.py"))
            .arg(env!("CARGO_BIN_EXE_hookmux"))
            .current_dir(repository()),
    );
}

#[test]
fn every_extra_scenario_is_the_same() {
    if !python3_runs() {
        return common::skip("python3", "the brewcode conformance scenarios need python3 on PATH");
    }
    let _grepai_stopped = common::no_grepai_lookalikes();
    assert_all_same(
        Command::new("python3")
            .arg(repository().join("scripts/brewcode_scenarios.py"))
            .arg("compare")
            .arg(env!("CARGO_BIN_EXE_hookmux"))
            .arg("--conformance")
            .arg(conformance())
            .current_dir(repository()),
    );
}
