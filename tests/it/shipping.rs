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
