//! Settings text, as a cloned repository may write it: reading, `hooks validate`'s checks, the
//! listing and a plan for a few events must never crash (a crashed dispatch runs no guard).

#![no_main]

use hookmux::engine::config::settings::{Scope, SettingsFile};
use hookmux::engine::config::sources::Sources;
use hookmux::engine::select::{listing, plan};
use hookmux::engine::validate;
use hookmux_sdk::{Event, Registry};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const EVENTS: &[&str] = &[
    r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"},"cwd":"/p"}"#,
    r#"{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/.env"},"cwd":"/p"}"#,
    r#"{"hook_event_name":"UserPromptSubmit","prompt":"hi","cwd":"/p"}"#,
    r#"{"hook_event_name":"SessionStart","source":"startup","cwd":"/p"}"#,
    r#"{"hook_event_name":"SessionEnd","reason":"other","cwd":"/p"}"#,
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let file = SettingsFile::parse(Path::new("/p/.claude/settings.json"), Scope::Project, text);
    let sources = Sources::from_files(vec![file]);
    let cx = validate::Context { project_root: Path::new("/p"), home: None, registry: Registry::global().ok() };
    let _ = validate::validate(&sources, &cx);
    let _ = listing::list(&sources);
    let options = plan::PlanOptions { project_root: "/p".into(), home: None, session_end_budget: None };
    for event in EVENTS {
        let plan = plan::plan(&Event::parse(event), &sources, &options);
        for planned in &plan.handlers {
            assert!(std::time::Instant::now().checked_add(planned.timeout).is_some());
        }
    }
});
