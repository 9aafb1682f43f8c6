use super::*;
use hookmux_sdk::testing::TestRun;
use hookmux_sdk::Decision;
use serde_json::json;

fn write(path: &str) -> TestRun {
    TestRun::new(&ProtectPaths).event(json!({"tool_name": "Write", "tool_input": {"file_path": path, "content": "x"}}))
}

fn reason(answer: &Answer) -> &str {
    answer.reason.as_deref().unwrap_or_default()
}

#[test]
fn defaults_deny_secrets_relative_to_the_root() {
    for (path, pattern) in [
        (".env", "`.env`"),
        (".env.local", "`.env.*`"),
        ("certs/server.pem", "`**/*.pem`"),
        ("server.key", "`**/*.key`"),
        ("keys/id_rsa.pub", "`**/id_rsa*`"),
        (".git/config", "`.git/**`"),
    ] {
        let answer = write(path).answer();
        assert_eq!(answer.decision, Some(Decision::Deny), "{path}");
        assert!(reason(&answer).contains(pattern), "{path}: {}", reason(&answer));
    }
}

#[test]
fn ordinary_files_get_no_decision_at_all() {
    for path in ["src/main.rs", "README.md", "sub/.env", "env.txt", ".gitignore"] {
        assert_eq!(write(path).answer(), Answer::none(), "{path}");
    }
}

#[test]
fn absolute_paths_under_the_root_are_made_relative() {
    let root = tempfile::tempdir().unwrap();
    let absolute = root.path().join("project/.env");
    let answer = TestRun::new(&ProtectPaths)
        .in_dir(root)
        .event(json!({"tool_name": "Edit", "tool_input": {"file_path": absolute.to_str().unwrap()}}))
        .answer();
    assert_eq!(answer.decision, Some(Decision::Deny));
    assert!(reason(&answer).contains("editing `.env`"), "{}", reason(&answer));
}

#[test]
fn fixture_paths_are_matched_inside_the_project() {
    let answer = TestRun::new(&ProtectPaths)
        .fixture(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/events/PreToolUse-Write.json"))
        .event(json!({"tool_input": {"file_path": "/home/dev/acme/.env.production", "content": "S=1"}}))
        .answer();
    assert_eq!(answer.decision, Some(Decision::Deny));
    assert!(reason(&answer).contains("`.env.production`"));
}

#[test]
fn dot_dot_cannot_escape_the_rules() {
    let answer = write("src/../.env").answer();
    assert_eq!(answer.decision, Some(Decision::Deny));
}

#[test]
fn paths_outside_the_root_match_as_absolute() {
    // An absolute path on this OS (`C:\…` on Windows) in a folder that is not the project's.
    let elsewhere = tempfile::tempdir().unwrap();
    let key = elsewhere.path().join(".ssh").join("id_rsa");
    let answer = write(key.to_str().unwrap()).answer();
    assert_eq!(answer.decision, Some(Decision::Deny));
    assert!(reason(&answer).contains(&format!("`{}`", key.display())), "{}", reason(&answer));
    assert_eq!(write("/etc/hosts").answer(), Answer::none());
}

#[test]
fn deny_adds_allow_carves_out_no_defaults_drops() {
    let answer = write("secrets/db.txt").args(["--deny", "secrets/**"]).answer();
    assert!(reason(&answer).contains("`secrets/**`"));
    assert_eq!(write(".env.example").args(["--allow", ".env.example"]).answer(), Answer::none());
    assert_eq!(write(".env").args(["--no-defaults"]).answer(), Answer::none());
    let answer = write(".env").args(["--no-defaults", "--deny", "*.env", "--deny", ".env"]).answer();
    assert!(reason(&answer).contains("`.env`"));
}

#[test]
fn notebooks_and_multiedit_are_covered_read_only_on_request() {
    let nb = TestRun::new(&ProtectPaths)
        .event(json!({"tool_name": "NotebookEdit", "tool_input": {"notebook_path": "keys/x.key"}}))
        .answer();
    assert_eq!(nb.decision, Some(Decision::Deny));
    let multi = TestRun::new(&ProtectPaths)
        .event(json!({"tool_name": "MultiEdit", "tool_input": {"file_path": ".env"}}))
        .answer();
    assert_eq!(multi.decision, Some(Decision::Deny));

    let read = || TestRun::new(&ProtectPaths).event(json!({"tool_name": "Read", "tool_input": {"file_path": ".env"}}));
    assert_eq!(read().answer(), Answer::none());
    let answer = read().args(["--include-read"]).answer();
    assert_eq!(answer.decision, Some(Decision::Deny));
    assert!(reason(&answer).starts_with("hookmux protect-paths: reading"));
}

#[test]
fn other_tools_and_malformed_inputs_get_no_decision() {
    let bash =
        TestRun::new(&ProtectPaths).event(json!({"tool_name": "Bash", "tool_input": {"command": "cat .env"}})).answer();
    assert_eq!(bash, Answer::none());
    for input in [json!({}), json!({"file_path": 7}), json!("x"), json!({"file_path": ""})] {
        let answer = TestRun::new(&ProtectPaths).event(json!({"tool_name": "Write", "tool_input": input})).answer();
        assert_eq!(answer, Answer::none());
    }
}

#[test]
fn an_invalid_glob_is_an_error_naming_it() {
    let outcome = write("a").args(["--deny", "a[b"]).run();
    let err = outcome.answer.unwrap_err().to_string();
    assert!(err.contains("`a[b`"), "{err}");
}

/// A root or a path spelled through a symlink is still the same folder (macOS's `/tmp` and
/// `/var` are links into `/private`): whichever way the host and the model spell them, the
/// root's `.env` is the root's `.env`. So is a link to it, even before it exists.
#[cfg(unix)]
#[test]
fn links_in_the_root_or_the_path_do_not_hide_a_protected_file() {
    use std::path::{Path, PathBuf};
    let run = |project: &Path, file: &Path, root: &Path| {
        let dir = tempfile::tempdir().unwrap();
        TestRun::new(&ProtectPaths)
            .in_dir(dir)
            .env("CLAUDE_PROJECT_DIR", root.to_str().unwrap())
            .event(json!({"cwd": project.to_str().unwrap(), "tool_name": "Write",
                          "tool_input": {"file_path": file.to_str().unwrap(), "content": "x"}}))
            .answer()
    };
    let top = tempfile::tempdir().unwrap();
    let real = top.path().join("real");
    let link = top.path().join("link");
    std::fs::create_dir_all(real.join("src")).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    std::os::unix::fs::symlink(".env", real.join("notes.txt")).unwrap();
    for (cwd, file, root) in [
        (&real, real.join(".env"), &link),
        (&link, link.join(".env"), &real),
        (&link, PathBuf::from(".env"), &real),
        (&real, PathBuf::from(".env"), &link),
        (&real, PathBuf::from("notes.txt"), &real),
        (&link, link.join("src/../notes.txt"), &real),
    ] {
        let answer = run(cwd, &file, root);
        assert_eq!(answer.decision, Some(Decision::Deny), "cwd {cwd:?}, file {file:?}, root {root:?}");
        assert!(reason(&answer).contains("`.env`"), "{}", reason(&answer));
    }
    assert_eq!(run(&link, Path::new("src/main.rs"), &real), Answer::none());
}

/// Where names that differ only in case are one file (macOS and Windows as they come), `.ENV`
/// is the root's `.env`; where they are not, it is another file and gets no decision.
#[test]
fn letter_case_is_ignored_where_the_file_system_ignores_it() {
    let folded = [".ENV", ".Env.Local", "Certs/SERVER.PEM", ".GIT/config"];
    for path in folded {
        assert!(glob_set(DEFAULT_GLOBS, true).unwrap().is_match(path), "{path}");
        assert!(!glob_set(DEFAULT_GLOBS, false).unwrap().is_match(path), "{path}");
    }
    let dir = tempfile::tempdir().unwrap();
    let folds = names_fold_case(dir.path());
    let answer = TestRun::new(&ProtectPaths)
        .env("CLAUDE_PROJECT_DIR", dir.path().to_str().unwrap())
        .event(json!({"cwd": dir.path().to_str().unwrap(), "tool_name": "Write",
                      "tool_input": {"file_path": ".ENV", "content": "x"}}))
        .answer();
    let expected = if folds { Some(Decision::Deny) } else { None };
    assert_eq!(answer.decision, expected, "names fold case here: {folds}");
}

/// An invalid glob is reported even when the file's name could match no glob at all, where no
/// glob set is compiled.
#[test]
fn an_invalid_glob_is_reported_when_nothing_could_match() {
    // A trailing `\` escapes nothing where it is an escape; on Windows it is a path separator.
    let escape = ["src\\"].into_iter().filter(|_| cfg!(unix));
    for bad in ["a}", "a[", "x/**/{y"].into_iter().chain(escape) {
        let outcome = write("README.md").args(["--no-defaults", "--deny", "*.lock", "--deny", bad]).run();
        let err = outcome.answer.unwrap_err().to_string();
        assert!(err.contains(&format!("`{bad}`")), "{bad}: {err}");
        let outcome = write("README.md").args(["--allow", bad]).run();
        assert!(outcome.answer.is_err(), "allow {bad}");
    }
}

/// The shortcut that skips compiling globs a candidate cannot match never skips one it does
/// match, case folded or not.
#[test]
fn the_plain_text_shortcut_never_hides_a_match() {
    let globs = [
        ".env",
        ".env.*",
        "**/*.pem",
        "**/*.key",
        "**/id_rsa*",
        ".git/**",
        "secrets/**",
        "*.env",
        "a?c/*.md",
        "**",
        "*",
        "**/Secrets/*.TXT",
        "docs/**/draft-*",
        "x,y",
        "[ab]c",
        "{a,b}.txt",
        "caf\u{e9}/*",
    ];
    let candidates = [
        ".env",
        ".ENV",
        ".env.local",
        ".Env.Local",
        "certs/server.pem",
        "Certs/SERVER.PEM",
        "server.key",
        "keys/id_rsa.pub",
        "ID_RSA",
        ".git/config",
        ".GIT/config",
        ".gitignore",
        "secrets/db.txt",
        "SECRETS/a/b",
        "prod.env",
        "abc/x.md",
        "aXc/y.MD",
        "src/main.rs",
        "README.md",
        "/etc/hosts",
        "a/Secrets/NOTE.txt",
        "docs/a/b/draft-1",
        "DOCS/draft-2",
        "x,y",
        "bc",
        "a.txt",
        "CAF\u{c9}/x",
        "\u{212a}.key",
        "s\u{17f}/x",
        "",
        "/home/dev/.ssh/id_rsa",
    ];
    for pattern in globs {
        for fold in [false, true] {
            let matcher = glob(pattern, fold).unwrap().compile_matcher();
            for candidate in candidates {
                if matcher.is_match(candidate) {
                    assert!(may_match(pattern, candidate), "{pattern} matches {candidate} (fold {fold})");
                }
            }
        }
    }
    assert!(!may_match("**/*.pem", "src/main.rs"));
    assert!(!may_match(".git/**", ".gi/t"));
    assert!(may_match(".git/**", "A/.GIT/x"));
}

#[test]
fn the_default_globs_are_valid() {
    for pattern in DEFAULT_GLOBS {
        assert!(glob(pattern, false).is_ok() && glob(pattern, true).is_ok(), "{pattern}");
    }
}
