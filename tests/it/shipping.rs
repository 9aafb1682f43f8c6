//! What hookmux ships beside itself: shell completions, the manual page, and a `--version` that
//! names the commit it was built from.

use crate::common::Hookmux;

#[test]
fn completions_are_generated_for_each_shell() {
    for (shell, expected) in [
        ("bash", "_hookmux()"),
        ("zsh", "#compdef hookmux"),
        ("fish", "complete -c hookmux"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = Hookmux::new(["completions", shell]).run();
        assert_eq!(out.code, Some(0), "{shell}: {}", out.stderr);
        assert!(out.stdout.contains(expected), "{shell}: no {expected:?} in the script");
        assert!(out.stdout.contains("doctor") || out.stdout.contains("install"), "{shell}: no commands");
    }
}

#[test]
fn an_unknown_shell_is_refused_with_exit_1() {
    let out = Hookmux::new(["completions", "tcsh"]).run();
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("bash"), "the error lists the shells: {}", out.stderr);
}

#[test]
fn the_manual_page_is_printed() {
    let out = Hookmux::new(["man"]).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.starts_with(".ie") || out.stdout.contains(".TH hookmux"),
        "not roff: {}",
        &out.stdout[..200.min(out.stdout.len())]
    );
    assert!(out.stdout.contains("install"));
}

#[test]
fn the_manual_pages_are_written_into_a_folder() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let man = dir.path().join("man1");
    let out = Hookmux::new(["man".to_string(), man.display().to_string()]).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let page = std::fs::read_to_string(man.join("hookmux.1")).expect("hookmux.1 written");
    assert!(page.contains(".TH hookmux"));
    assert!(man.join("hookmux-install.1").is_file(), "a page per command");
}

#[test]
fn the_manual_folder_that_cannot_be_written_is_named() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").expect("write");
    let out = Hookmux::new(["man".to_string(), file.join("man1").display().to_string()]).run();
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("a-file"), "{}", out.stderr);
}

#[test]
fn version_names_the_commit_or_says_there_is_none() {
    for args in [vec!["--version"], vec!["dispatch", "--version"], vec!["run", "--version"]] {
        let out = Hookmux::new(args.clone()).run();
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        let line = out.stdout.trim();
        assert!(line.contains(env!("CARGO_PKG_VERSION")), "{args:?}: {line}");
        let commit = line.split("(commit ").nth(1).and_then(|rest| rest.strip_suffix(')'));
        match commit {
            Some("unknown") => {}
            Some(hash) => assert!(hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit()), "{line}"),
            None => panic!("{args:?}: no commit in {line:?}"),
        }
    }
}

/// The npm package's launcher (`npm/hookmux/`) copied into a folder of its own, where no platform
/// package is installed: what a machine npm has no binary for gets (musl, Windows on arm64, a
/// package left out with `--omit=optional`).
fn launcher_without_a_binary() -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    let node = std::process::Command::new("node").arg("--version").output();
    if !node.is_ok_and(|out| out.status.success()) {
        crate::common::skip("node", "the npm launcher's test needs Node.js on PATH (`node`)");
        return None;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let package = dir.path().join("hookmux");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/hookmux");
    for folder in ["bin", "lib"] {
        std::fs::create_dir_all(package.join(folder)).expect("a package folder");
        for entry in std::fs::read_dir(source.join(folder)).expect("the launcher's sources") {
            let path = entry.expect("an entry").path();
            std::fs::copy(&path, package.join(folder).join(path.file_name().expect("a name"))).expect("copy");
        }
    }
    std::fs::write(package.join("package.json"), r#"{"name": "hookmux", "type": "module"}"#).expect("package.json");
    let launcher = package.join("bin/hookmux.js");
    Some((dir, launcher))
}

/// Hosts read a hook's exit 1 as a non-blocking error and carry on: a launcher with no binary to
/// start would turn every guard `install` moved behind dispatch off without a word. It blocks the
/// tool call instead (exit 2, how to install on stderr), and on Stop, where exit 2 would keep the
/// agent going, tells the user with exit 0.
#[test]
fn the_npm_launcher_without_a_binary_never_exits_1() {
    let Some((_dir, launcher)) = launcher_without_a_binary() else { return };
    let node = |args: &[&str], stdin: &str| {
        Hookmux::new(std::iter::once(launcher.to_string_lossy().into_owned()).chain(args.iter().map(|a| a.to_string())))
            .stdin(stdin.to_string())
            .run_program("node")
    };
    let write_env =
        r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Write","tool_input":{"file_path":".env"}}"#;
    for args in [&["dispatch"][..], &["dispatch", "--host", "codex"], &["run", "protect-paths"]] {
        let out = node(args, write_env);
        assert_eq!(out.code, Some(2), "{args:?} blocks the tool call: {out:?}");
        assert!(out.stderr.starts_with("hookmux: ") && out.stderr.contains("cargo install hookmux"), "{out:?}");
        assert_eq!(out.stdout, "", "{out:?}");
    }
    let out = node(&["dispatch"], "{not json");
    assert_eq!(out.code, Some(2), "an event it cannot read is blocked too: {out:?}");
    for event in ["Stop", "SubagentStop", "AfterAgent"] {
        let out = node(&["dispatch"], &format!(r#"{{"hook_event_name":"{event}","stop_hook_active":false}}"#));
        assert_eq!(out.code, Some(0), "{event}: {out:?}");
        assert!(out.json()["systemMessage"].as_str().is_some_and(|m| m.contains("cargo install hookmux")), "{out:?}");
    }
    let out = node(&["--version"], "");
    assert_eq!(out.code, Some(2), "{out:?}");
}
