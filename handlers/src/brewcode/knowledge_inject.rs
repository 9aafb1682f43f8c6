//! `knowledge-inject` (PreToolUse `Task|Agent`), brewcode's `pre-task.mjs`: prepends context to a
//! subagent's prompt and lets the call through (`permissionDecision: allow` with the new
//! `updatedInput.prompt`).
//!
//! Each step that applies puts its text, then a blank line, in front of the prompt, so the last
//! step ends up first:
//!
//! | step | applies to | when | text |
//! |---|---|---|---|
//! | 1 | every agent | `$CLAUDE_PLUGIN_ROOT` is set | `BC_PLUGIN_ROOT=<root>` |
//! | 2 | every agent | `$CLAUDE_PLUGIN_DATA` is set | `BC_PLUGIN_DATA=<data>` |
//! | 3 | every agent | a mode is active | `[MODE: <name>] <instructions>` |
//! | 4 | every agent | `.claude/teams/` exists | `SID=<8 chars of the session>` |
//! | 5 | every agent | `.grepai/index.gob` exists | `grepai: USE grepai_search FIRST for code exploration` |
//! | 6 | non-system agents | the lock is this session's, KNOWLEDGE.jsonl has entries | the `## K` block |
//! | 7 | non-system agents | the lock is this session's, the task has `phases/` | `## Task Context` with its folders |
//! | 8 | non-system agents | the lock is this session's, PLAN.md has `ALL` or role sections | `## Task Constraints` |
//!
//! The role comes from the agent's name: `test`, `tester`, `qa`, `sdet` → TEST; `review(er)`,
//! `check(er)`, `audit(or)` → REVIEW; `dev(eloper)`, `implement(er)`, `coder`, `coding`,
//! `engineer`, `architect`, `build(er)`, `fix(er)` → DEV. No tool input, no `subagent_type`, or
//! nothing to add: no answer at all.

use super::config::Level;
use super::hook::{Hook, Tag, GREPAI_REMINDER};
use super::js::{self, path, Js, JsError};
use super::knowledge::{compress, knowledge_path};
use super::task::{role_of, section};
use hookmux_sdk::{register_handler, Answer, Context, Decision, Handler, HandlerInfo, HookEvent};
use serde_json::Value;

pub struct KnowledgeInject;

static INFO: HandlerInfo = HandlerInfo {
    name: "knowledge-inject",
    description: "brewcode's pre-task: put task knowledge, role constraints and reminders into subagent prompts",
    events: &[HookEvent::PreToolUse],
    matcher: Some("Task|Agent"),
    options: &[],
};

impl Handler for KnowledgeInject {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        Hook::answer(cx, "[pre-task]", "Error", Answer::none(), pre_task)
    }
}

register_handler!(KnowledgeInject);

/// The prompt being built: each step puts its text in front.
struct Prompt {
    text: String,
    modified: bool,
}

impl Prompt {
    fn prepend(&mut self, text: &str) {
        self.text = format!("{text}\n\n{}", self.text);
        self.modified = true;
    }
}

fn pre_task(h: &Hook) -> Js<Answer> {
    let tool_input = h.field("tool_input");
    if !js::truthy(tool_input) {
        return Ok(Answer::none());
    }
    let Some(agent) = js::or_none(js::prop(tool_input, "subagent_type")) else { return Ok(Answer::none()) };
    let agent_name = js::string_of(Some(agent));
    let has_grepai = h.exists(&h.join(&[".grepai"])) && h.exists(&h.join(&[".grepai", "index.gob"]));
    let original = js::or_none(js::prop(tool_input, "prompt")).map(|p| js::string_of(Some(p))).unwrap_or_default();
    let mut prompt = Prompt { text: original, modified: false };
    let debug = |message: String| h.log(Level::Debug, "[pre-task]", &message, Tag::Session);

    let env = h.cx().env();
    let plugin_root = env.get("CLAUDE_PLUGIN_ROOT").unwrap_or_default();
    if !plugin_root.is_empty() {
        prompt.prepend(&format!("BC_PLUGIN_ROOT={plugin_root}"));
        debug(format!("Injected BC_PLUGIN_ROOT for {agent_name}"))?;
    }
    let plugin_data = env.get("CLAUDE_PLUGIN_DATA").unwrap_or_default();
    if !plugin_data.is_empty() {
        prompt.prepend(&format!("BC_PLUGIN_DATA={plugin_data}"));
        debug(format!("Injected BC_PLUGIN_DATA for {agent_name}"))?;
    }
    if let Some(mode) = h.active_mode()? {
        prompt.prepend(&format!("[MODE: {}] {}", mode.name, mode.instructions));
        debug(format!("Injected mode \"{}\" for {agent_name}", mode.name))?;
    }
    if let Some(Value::String(session)) = h.session() {
        if h.exists(&h.join(&[".claude", "teams"])) && js::text::len16(session) >= 8 {
            let sid = js::text::short_id(session);
            prompt.prepend(&format!("SID={sid}"));
            debug(format!("Injected SID={sid} for {agent_name}"))?;
        }
    }
    if has_grepai {
        prompt.prepend(GREPAI_REMINDER);
        debug(format!("grepai reminder for {agent_name}"))?;
    }

    if !h.config()?.is_system_agent(Some(agent)) {
        inject_task(h, agent, &agent_name, &mut prompt)?;
    }

    if !prompt.modified {
        return Ok(Answer::none());
    }
    let mut updated = tool_input.and_then(Value::as_object).cloned().unwrap_or_default();
    updated.insert("prompt".into(), Value::from(prompt.text));
    Ok(Answer {
        decision: Some(Decision::Allow),
        updated_input: Some(js::js_order(Value::Object(updated))),
        ..Answer::none()
    })
}

/// Steps 6 to 8: what the session's task knows and asks of this agent.
fn inject_task(h: &Hook, agent: &Value, agent_name: &str, prompt: &mut Prompt) -> Js<()> {
    let config = h.config()?;
    let Some(lock) = h.check_lock()? else { return Ok(()) };
    let task_path = h.join(&[lock.task_path()]);
    let task_dir = path::dirname(&task_path);

    let entries = h.read_knowledge(&knowledge_path(&task_path))?;
    if !entries.is_empty() {
        let block = compress(&entries, config.max_tokens)?;
        if !block.is_empty() {
            prompt.prepend(&block);
            let message = format!("Injecting knowledge for {agent_name} ({} entries)", entries.len());
            h.log(Level::Info, "[pre-task]", &message, Tag::Session)?;
        }
    }

    if h.exists(&path::join(&[&task_dir, "phases"])) {
        let artifacts = path::join(&[&task_dir, "artifacts"]);
        prompt.prepend(&format!(
            "## Task Context\nTask dir: {task_dir}\nArtifacts: {artifacts}\n\n> ⛔ READ the phases/ file referenced in your task description FIRST before doing any work."
        ));
        h.log(Level::Debug, "[pre-task]", &format!("Injecting v3 task context for {agent_name}"), Tag::Session)?;
    }

    if !config.constraints_enabled {
        return Ok(());
    }
    // brewcode reads PLAN.md quietly: a folder or an unreadable file just means no constraints.
    let plan = if h.exists(&task_path) { h.read_text(&task_path).unwrap_or_default() } else { String::new() };
    if plan.is_empty() {
        return Ok(());
    }
    let all = section(&plan, "ALL");
    let Value::String(name) = agent else {
        return Err(JsError::new("subagentType.toLowerCase is not a function"));
    };
    let role = role_of(name);
    let role_text = role.map(|role| section(&plan, role)).unwrap_or_default();
    if all.is_empty() && role_text.is_empty() {
        return Ok(());
    }
    let lines: Vec<&str> = [all.as_str(), role_text.as_str()].into_iter().filter(|s| !s.is_empty()).collect();
    prompt.prepend(&format!("## Task Constraints\n{}", lines.join("\n")));
    let message = format!("Injecting {} constraints for {agent_name}", role.unwrap_or("ALL"));
    h.log(Level::Debug, "[pre-task]", &message, Tag::Session)
}
