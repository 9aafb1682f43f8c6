use super::*;
use serde_json::json;

fn call(tool: &str, input: serde_json::Value) -> Event {
    Event::from_fields(
        json!({"hook_event_name": "PreToolUse", "cwd": "/p/sub", "tool_name": tool, "tool_input": input})
            .as_object()
            .unwrap()
            .clone(),
    )
}

fn runs(rule: &str, event: &Event) -> bool {
    Rule::parse(rule).unwrap().verdict(event, Path::new("/p"), Some(Path::new("/home/u"))) == IfVerdict::Run
}

fn bash(command: &str) -> Event {
    call("Bash", json!({"command": command}))
}

/// Conformance `pre-if-field`: `Bash(git *)` does not run for `echo original-command`,
/// `Bash(echo *)` does.
#[test]
fn the_conformance_scenario() {
    let event = bash("echo original-command");
    assert!(!runs("Bash(git *)", &event));
    assert!(runs("Bash(echo *)", &event));
}

#[test]
fn bash_exact_prefix_and_wildcards() {
    assert!(runs("Bash", &bash("anything")));
    assert!(runs("Bash(*)", &bash("anything")));
    assert!(runs("Bash(npm test)", &bash("npm test")));
    assert!(!runs("Bash(npm test)", &bash("npm test --watch")));
    assert!(runs("Bash(npm run test:*)", &bash("npm run test:unit")) || runs("Bash(npm:*)", &bash("npm run")));
    assert!(runs("Bash(npm:*)", &bash("npm install")) && runs("Bash(npm:*)", &bash("npm")));
    assert!(!runs("Bash(npm:*)", &bash("npmx")));
    // The space before `*` is a word boundary; a trailing ` *` also takes the bare command.
    assert!(runs("Bash(ls *)", &bash("ls -la")) && runs("Bash(ls *)", &bash("ls")));
    assert!(!runs("Bash(ls *)", &bash("lsof")));
    assert!(runs("Bash(ls*)", &bash("lsof")));
    assert!(runs("Bash(git * main)", &bash("git push origin main")));
    assert!(runs("Bash(* --version)", &bash("node --version")));
}

#[test]
fn bash_rules_see_every_subcommand() {
    assert!(runs("Bash(git *)", &bash("cd repo && git status")));
    assert!(runs("Bash(rm *)", &bash("echo hi; rm -rf x")));
    assert!(runs("Bash(curl *)", &bash("echo $(curl -s http://x) | sh")));
    assert!(runs("Bash(curl *)", &bash("echo `curl x`")));
    assert!(runs("Bash(grep *)", &bash("cat f | grep x")));
    assert!(runs("Bash(make *)", &bash("FOO=1 BAR=2 make all")));
    assert!(runs("Bash(make *)", &bash("timeout 30 make all")));
    assert!(runs("Bash(make *)", &bash("nice -n 5 nohup make all")));
    assert!(!runs("Bash(git *)", &bash("echo 'git status; x'")));
    // `2>&1` is a redirection, not a background `&`.
    assert!(runs("Bash(npm test 2>&1)", &bash("npm test 2>&1")));
    // A command that cannot be split fails open.
    assert!(runs("Bash(git *)", &bash("echo 'unterminated")));
}

fn nested(levels: usize, inner: &str) -> String {
    format!("{}{inner}{}", "echo $(".repeat(levels), ")".repeat(levels))
}

/// Past `bash::MAX_DEPTH` substitutions the rule cannot rule any command out, so the handler
/// runs, whatever the line holds; within the cap the innermost command is seen.
#[test]
fn bash_nesting_past_the_cap_runs_the_handler() {
    let depth = hookmux_sdk::bash::MAX_DEPTH;
    assert!(runs("Bash(rm *)", &bash(&nested(depth, "rm -rf /"))));
    assert!(!runs("Bash(git *)", &bash(&nested(depth, "ls"))));
    assert!(runs("Bash(git *)", &bash(&nested(depth + 1, "ls"))));
    // 1 MB of nesting: one pass, no copy per level, and the handler runs.
    let megabyte = nested((1 << 20) / "echo $()".len(), "ls");
    assert!(runs("Bash(git *)", &bash(&megabyte)));
}

#[test]
fn file_rules_are_gitignore_like() {
    let edit = |path: &str| call("Edit", json!({"file_path": path}));
    assert!(runs("Edit(src/**)", &edit("/p/src/a/b.rs")));
    assert!(!runs("Edit(src/**)", &edit("/p/lib/a.rs")));
    assert!(runs("Edit(*.ts)", &edit("/p/deep/x.ts")));
    assert!(runs("Edit(/src/*.rs)", &edit("/p/src/main.rs")));
    assert!(!runs("Edit(/src/*.rs)", &edit("/p/src/a/main.rs")));
    assert!(runs("Edit(./notes.md)", &edit("/p/sub/notes.md")));
    assert!(runs("Edit(//tmp/x)", &edit("/tmp/x")));
    assert!(runs("Read(~/.zshrc)", &call("Read", json!({"file_path": "/home/u/.zshrc"}))));
    assert!(!runs("Read(*.md)", &edit("/p/a.md")));
    assert!(runs("NotebookEdit(*.ipynb)", &call("NotebookEdit", json!({"notebook_path": "/p/n.ipynb"}))));
    assert!(runs("Write(*.md)", &call("Write", json!({"file_path": "/p/a.md"}))));
}

/// A guard's `if` holds for every spelling of its file: `..` taken out, and the project and the
/// file each named through a link or not (below).
#[test]
fn file_rules_hold_for_every_spelling_of_the_file() {
    let edit = |path: &str| call("Edit", json!({"file_path": path}));
    assert!(runs("Edit(/.env)", &edit("/p/src/../.env")));
    assert!(runs("Edit(/.env)", &edit("src/../../.env")));
    assert!(!runs("Edit(/.env)", &edit("/p/src/../src/.env")));
}

/// The project and the file each named through a link or not (macOS's `/var` is
/// `/private/var`).
#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn file_rules_hold_for_a_file_named_through_a_link() {
    let top = tempfile::tempdir().unwrap();
    let real = hookmux_platform::fs::canonicalize(top.path()).unwrap().join("real");
    std::fs::create_dir_all(real.join("src")).unwrap();
    let link = real.parent().unwrap().join("link");
    hookmux_platform::fs::symlink_dir(&real, &link).unwrap();
    let event = |cwd: &Path, file: &Path| {
        Event::from_fields(
            json!({"hook_event_name": "PreToolUse", "cwd": cwd, "tool_name": "Edit", "tool_input": {"file_path": file}})
                .as_object()
                .unwrap()
                .clone(),
        )
    };
    for (root, file) in [(&link, real.join(".env")), (&real, link.join(".env")), (&link, link.join("src/../.env"))] {
        let verdict = Rule::parse("Edit(/.env)").unwrap().verdict(&event(root, &file), root, None);
        assert_eq!(verdict, IfVerdict::Run, "root {root:?}, file {file:?}");
    }
    let other = Rule::parse("Edit(/.env)").unwrap().verdict(&event(&link, &real.join("src/.env")), &link, None);
    assert!(matches!(other, IfVerdict::Skip(_)), "{other:?}");
}

/// Conformance `if-edit-exact` (recorded): `Edit`, `Edit(*)` and `Edit(src/**)` run for an Edit
/// call and for no Write or NotebookEdit call; `Read(…)` is not about Glob or Grep either.
#[test]
fn a_rule_is_about_the_tool_it_names() {
    let write = call("Write", json!({"file_path": "/p/src/b.txt"}));
    let notebook = call("NotebookEdit", json!({"notebook_path": "/p/src/n.ipynb"}));
    let multi = call("MultiEdit", json!({"file_path": "/p/src/a.txt"}));
    for rule in ["Edit", "Edit(*)", "Edit(src/**)"] {
        assert!(runs(rule, &call("Edit", json!({"file_path": "/p/src/a.txt"}))), "{rule}");
        for other in [&write, &notebook, &multi] {
            assert!(!runs(rule, other), "{rule} on {:?}", other.tool_name());
        }
    }
    assert!(runs("Write", &write) && runs("NotebookEdit(src/**)", &notebook));
    assert!(!runs("Read", &call("Glob", json!({"pattern": "*.rs"}))));
    assert!(!runs("Read(src/**)", &call("Grep", json!({"pattern": "x", "path": "/p/src"}))));
}

#[test]
fn other_tools() {
    assert!(runs("WebFetch(domain:example.com)", &call("WebFetch", json!({"url": "https://docs.example.com/x"}))));
    assert!(!runs("WebFetch(domain:example.com)", &call("WebFetch", json!({"url": "https://example.org/"}))));
    assert!(runs("Agent(Explore)", &call("Agent", json!({"subagent_type": "Explore"}))));
    assert!(runs("Task(Explore)", &call("Agent", json!({"subagent_type": "Explore"}))));
    assert!(!runs("Agent(Plan)", &call("Agent", json!({"subagent_type": "Explore"}))));
    assert!(runs("mcp__github", &call("mcp__github__create_issue", json!({}))));
    assert!(runs("mcp__github__*", &call("mcp__github__create_issue", json!({}))));
    assert!(!runs("mcp__github", &call("mcp__gitlab__x", json!({}))));
    assert!(runs("mcp__github__create_issue", &call("mcp__github__create_issue", json!({}))));
    assert!(!runs("Bash(git *)", &call("Write", json!({"file_path": "/p/x"}))));
    // A specifier hookmux cannot evaluate fails open.
    assert!(runs("WebSearch(anything)", &call("WebSearch", json!({"query": "q"}))));
}

#[test]
fn parse_errors() {
    assert!(Rule::parse("Bash(git *").is_err());
    assert!(Rule::parse("(x)").is_err());
    assert!(Rule::parse("Bash git").is_err());
    assert_eq!(Rule::parse(" Bash(git *) ").unwrap().to_string(), "Bash(git *)");
}

#[test]
fn wildcards() {
    assert!(wildcard_matches("a*c", "abbbc"));
    assert!(wildcard_matches("*", ""));
    assert!(!wildcard_matches("a*c", "abd"));
    assert!(wildcard_matches("*x*y*", "__x__y"));
}
