//! brewcode v3.4.20 conformance: `hookmux run` against what brewcode's real Node hooks did.
//!
//! The shared scenarios (`../shared/conformance/brewcode-3.4.20/`) and the extra ones in
//! `fixtures/brewcode/scenarios/` each record one hook call: stdin, the project before, and the
//! exit code, stdout and every file after. The comparison is the shared `compare.py`; it needs
//! the shared folder (next to the repository, or `$HOOKMUX_SHARED`) and python3. Without them
//! the tests say so and pass: a checkout of the repository alone cannot run them.

use std::path::PathBuf;
use std::process::Command;

fn shared() -> Option<PathBuf> {
    let folder = std::env::var_os("HOOKMUX_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let ready = folder.join("conformance/brewcode-3.4.20/compare.py").is_file()
        && Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ready {
        crate::common::skip(&format!(
            "no {} with python3 (set HOOKMUX_SHARED)",
            folder.join("conformance/brewcode-3.4.20").display()
        ));
    }
    ready.then_some(folder)
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
}

#[test]
fn every_shared_scenario_is_the_same() {
    let Some(shared) = shared() else { return };
    let _grepai_stopped = crate::common::no_grepai_lookalikes();
    assert_all_same(
        Command::new("python3")
            .arg(shared.join("conformance/brewcode-3.4.20/compare.py"))
            .arg(env!("CARGO_BIN_EXE_hookmux")),
    );
}

#[test]
fn every_extra_scenario_is_the_same() {
    let Some(shared) = shared() else { return };
    let _grepai_stopped = crate::common::no_grepai_lookalikes();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/brewcode_scenarios.py");
    assert_all_same(
        Command::new("python3")
            .arg(script)
            .arg("compare")
            .arg(env!("CARGO_BIN_EXE_hookmux"))
            .arg("--shared")
            .arg(shared),
    );
}
