//! Event text, as the model and the host write it: parsing, planning over settings that use
//! every kind of matcher and `if` rule, and the Codex and OpenCode decoders must never crash.

#![no_main]

use hookmux::engine::config::settings::{Scope, SettingsFile};
use hookmux::engine::config::sources::Sources;
use hookmux::engine::dispatch::World;
use hookmux::engine::select::plan;
use hookmux::host::{codex, opencode};
use hookmux_sdk::{Env, Event};
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::OnceLock;

const SETTINGS: &str = r#"{"hooks": {
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "if": "Bash(git *)"}]},
    {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "hookmux run protect-paths"},
                                        {"type": "command", "command": "true", "if": "Edit(src/**)"}]},
    {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "true", "if": "mcp__github__*"}]},
    {"matcher": "*", "hooks": [{"type": "command", "command": "true", "if": "WebFetch(domain:example.com)"},
                               {"type": "command", "command": "true", "if": "Read(~/.ssh/**)"}]}
  ],
  "PostToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "true"}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
  "SessionStart": [{"matcher": "startup|resume", "hooks": [{"type": "command", "command": "true"}]}],
  "FileChanged": [{"matcher": ".envrc", "hooks": [{"type": "command", "command": "true"}]}]
}}"#;

struct Fixture {
    sources: Sources,
    world: World,
    _state: tempfile::TempDir,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let state = tempfile::tempdir().expect("a temporary folder");
        let mut env = Env::empty();
        env.set("HOME", state.path());
        env.set("XDG_STATE_HOME", state.path());
        let file = SettingsFile::parse(Path::new("/p/.claude/settings.json"), Scope::Project, SETTINGS);
        Fixture {
            sources: Sources::from_files(vec![file]),
            world: World { env, cwd: state.path().into() },
            _state: state,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let fixture = fixture();
    let options =
        plan::PlanOptions { project_root: "/p".into(), home: Some("/home/u".into()), session_end_budget: None };
    let event = Event::parse(text);
    let _ = plan::plan(&event, &fixture.sources, &options);
    for decoded in codex::decode(&event).events {
        let _ = plan::plan(&decoded, &fixture.sources, &options);
    }
    if let Ok(plugin) = serde_json::from_str::<opencode::PluginEvent>(text) {
        if let Ok(event) = opencode::decode(&plugin, &fixture.world) {
            let _ = plan::plan(&event, &fixture.sources, &options);
        }
    }
});
