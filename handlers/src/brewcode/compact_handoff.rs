//! `compact-handoff` (SessionStart), brewcode's `session-start.mjs`: logs the session, links a
//! plan fresh from Plan Mode as `.claude/plans/LATEST.md` after `/clear`, and tells the model to
//! re-read the plan after a compaction.
//!
//! Answer: `systemMessage` `brewcode: <plugin root> | session: <8 chars>[ | mode: <name>]`, and
//! `additionalContext` `brewcode: active | session: <8 chars>` (preceded by `BC_PLUGIN_DATA=` and
//! `BC_PLUGIN_ROOT=` lines when those are set), plus:
//!
//! | condition | added context |
//! |---|---|
//! | an active mode | `[MODE: <name>] <instructions>` |
//! | `source: compact`, a v2 task whose lock is unbound or this session's | `[HANDOFF after compact] Re-read PLAN.md and KNOWLEDGE.jsonl, then continue current phase.` |
//! | the same with a v3 task (`phases/`) | the v3 handoff steps |
//! | a v3 task whose lock is unbound or this session's | `brewcode v3: You work through Task API. …` |
//! | `source: compact`, a lock of another session or none, TASK.md naming a task | the v2 handoff line |
//!
//! On `source: clear`, the newest `~/.claude/plans/*.md` modified in the last 60 s becomes the
//! target of the symlink `.claude/plans/LATEST.md` (whatever `LATEST.md` was is replaced).
//!
//! brewcode also checks GitHub and npm for newer brewcode and Claude Code releases at every
//! session start. hookmux answers as brewcode does offline unless `--check-updates` is given:
//! a plugin root without a version still gets `check brewcode updates: <url>`.

use super::config::Level;
use super::hook::{Hook, Tag};
use super::js::{self, date, errno, path, Js};
use super::patterns;
use hookmux_sdk::{register_handler, Answer, Context, Env, Handler, HandlerInfo, HookEvent, OptionKind, OptionSpec};
use serde_json::{Map, Value};
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

pub struct CompactHandoff;

static INFO: HandlerInfo = HandlerInfo {
    name: "compact-handoff",
    description:
        "brewcode's session start: log the session, link a fresh plan on /clear, hand the task off after compaction",
    events: &[HookEvent::SessionStart],
    matcher: None,
    options: &[OptionSpec {
        name: "check-updates",
        kind: OptionKind::Flag,
        default: None,
        help: "ask GitHub and npm for newer brewcode and Claude Code releases, as brewcode does online",
    }],
};

/// How long a plan counts as fresh from Plan Mode.
const PLAN_FRESHNESS_MS: f64 = 60_000.0;
const RELEASES_URL: &str = "https://github.com/kochetkov-ma/claude-brewcode/releases/latest";
const RELEASES_API: &str = "https://api.github.com/repos/kochetkov-ma/claude-brewcode/releases/latest";
const NPM_LATEST: &str = "https://registry.npmjs.org/@anthropic-ai/claude-code/latest";

const V2_HANDOFF: &str =
    "\n\n[HANDOFF after compact] Re-read PLAN.md and KNOWLEDGE.jsonl, then continue current phase.";
const V3_HANDOFF: &str = "\n\n[HANDOFF after compact] 1) TaskList() for current task state 2) Read PLAN.md for protocol 3) DO NOT read phases/ — they are for agents 4) Continue with current in_progress or next pending task 5) WRITE report -> CALL coordinator after EVERY agent";
const V3_REMINDER: &str =
    "\n\nbrewcode v3: You work through Task API. Call TaskList() to get current task state. DO NOT read phases/ files.";

impl Handler for CompactHandoff {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        Hook::answer(cx, "[session-start]", "Error", Answer::none(), session_start)
    }
}

register_handler!(CompactHandoff);

fn session_start(h: &Hook) -> Js<Answer> {
    let source = h.field("source");
    let started = format!("Started: {} ({})", h.session_short()?, js::string_of(source));
    h.log(Level::Info, "[session-start]", &started, Tag::Session)?;
    let is = |value: &str| source.and_then(Value::as_str) == Some(value);

    if is("clear") {
        match link_latest_plan(h) {
            Ok(Some(name)) => {
                let message = format!("Linked: .claude/plans/LATEST.md -> {name}");
                h.log(Level::Info, "[session-start]", &message, Tag::Session)?;
            }
            Ok(None) => {}
            Err(error) => {
                h.log(Level::Warn, "[session-start]", &format!("Plan linking failed: {error}"), Tag::Session)?
            }
        }
    }

    let env = h.cx().env();
    let plugin_root = env.get("CLAUDE_PLUGIN_ROOT").unwrap_or_default();
    let plugin_data = env.get("CLAUDE_PLUGIN_DATA").unwrap_or_default();
    let short = h.session_short()?;
    let mut context = format!("brewcode: active | session: {short}");
    if !plugin_root.is_empty() {
        context = format!("BC_PLUGIN_ROOT={plugin_root}\n{context}");
    }
    if !plugin_data.is_empty() {
        context = format!("BC_PLUGIN_DATA={plugin_data}\n{context}");
    }
    let mode = h.active_mode()?;
    if let Some(mode) = &mode {
        context.push_str(&format!("\n[MODE: {}] {}", mode.name, mode.instructions));
    }

    let version_lines = version_lines(h, plugin_root)?;

    let lock = h.get_lock()?;
    match lock.filter(|lock| !lock.is_bound() || lock.is_owned_by(h.session())) {
        Some(lock) => {
            let task_dir = path::dirname(&h.join(&[lock.task_path()]));
            let v3 = h.exists(&path::join(&[&task_dir, "phases"]));
            if is("compact") {
                context.push_str(if v3 { V3_HANDOFF } else { V2_HANDOFF });
            }
            if v3 {
                context.push_str(V3_REMINDER);
                let message = format!("v3 task detected at {task_dir}, injected Task API reminder");
                h.log(Level::Info, "[session-start]", &message, Tag::Session)?;
            }
        }
        None => {
            if is("compact") && h.active_task_path()?.is_some() {
                context.push_str(V2_HANDOFF);
            }
        }
    }

    let mode_tag = mode.map(|mode| format!(" | mode: {}", mode.name)).unwrap_or_default();
    let versions = if version_lines.is_empty() { String::new() } else { format!("\n{}", version_lines.join("\n")) };
    let mut answer = Answer::context(context);
    answer.system_message = Some(format!("brewcode: {plugin_root} | session: {short}{mode_tag}{versions}"));
    Ok(answer)
}

/// `linkLatestPlan(cwd)`: the name of the plan linked, `None` when no plan is fresh, `Err` with
/// Node's message when a file operation fails.
fn link_latest_plan(h: &Hook) -> Result<Option<String>, String> {
    let home = hookmux_platform::dirs::home(h.cx().env());
    let Some(home) = home.as_deref().and_then(|home| home.to_str()) else { return Ok(None) };
    let plans = path::join(&[home, ".claude", "plans"]);
    if !h.exists(&plans) {
        return Ok(None);
    }
    let listing = fs::read_dir(h.fs_path(&plans)).map_err(|err| errno::message(&err, "scandir", Some(&plans), None))?;
    // Node lists a folder sorted by name; the sort by time below is stable, so ties keep that order.
    let mut names: Vec<String> = listing.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let mut candidates: Vec<(String, String, f64)> = names
        .into_iter()
        .filter(|name| name.ends_with(".md"))
        .filter_map(|name| {
            let full = path::join(&[&plans, &name]);
            let modified = fs::metadata(h.fs_path(&full)).and_then(|m| m.modified()).ok()?;
            // `stat().mtime` is a Date: whole milliseconds, rounded.
            let ms = date::epoch_ms_fraction(modified).round();
            Some((name, full, ms))
        })
        .collect();
    candidates.sort_by(|a, b| b.2.total_cmp(&a.2));
    let Some((name, full, modified)) = candidates.into_iter().next() else { return Ok(None) };
    if h.now_ms() - modified > PLAN_FRESHNESS_MS {
        return Ok(None);
    }
    if h.dry() {
        return Ok(Some(name));
    }
    let project_plans = h.join(&[".claude", "plans"]);
    let link = path::join(&[&project_plans, "LATEST.md"]);
    h.mkdir_all(&project_plans)?;
    let _ = fs::remove_file(h.fs_path(&link));
    hookmux_platform::fs::symlink_file(Path::new(&full), &h.fs_path(&link))
        .map_err(|err| errno::message(&err, "symlink", Some(&full), Some(&link)))?;
    Ok(Some(name))
}

/// The update lines of the system message. Offline (the default), only a plugin root without a
/// version yields one, as it does for brewcode without a network. The log follows brewcode's
/// order: its local version, then the Claude Code check, then the release lookup.
fn version_lines(h: &Hook, plugin_root: &str) -> Js<Vec<String>> {
    let online = h.cx().args().flag("check-updates");
    let local = match plugin_root.is_empty() {
        true => None,
        false => Some(local_brewcode_version(h, plugin_root)),
    };
    match &local {
        Some(None) => {
            let message = format!("Cannot parse version from path: {plugin_root}");
            h.log(Level::Debug, "[version]", &message, Tag::Session)?;
        }
        Some(Some(version)) => h.log(Level::Debug, "[version]", &format!("Local brewcode: {version}"), Tag::Session)?,
        None => {}
    }
    // Online, the release lookup runs while Claude Code is asked for its version, as in brewcode.
    let (env, cwd) = (h.cx().env(), h.cx().cwd());
    let (release, claude) = std::thread::scope(|scope| {
        let lookup =
            (online && matches!(local, Some(Some(_)))).then(|| scope.spawn(|| fetch_json(env, cwd, RELEASES_API)));
        let claude = claude_version(h, online);
        (lookup.map(|thread| thread.join().ok().flatten()), claude)
    });
    let mut lines = Vec::new();
    match local {
        Some(None) => lines.push(format!("check brewcode updates: {RELEASES_URL}")),
        Some(Some(local)) => {
            if let Some((local, remote)) = brewcode_update(h, local, release)? {
                lines.push(format!("UPDATE brewcode {local} → {remote}: {RELEASES_URL}"));
            }
        }
        None => {}
    }
    if let Some((local, remote)) = claude? {
        lines.push(format!("UPDATE claude {local} → {remote}: claude update"));
    }
    Ok(lines)
}

/// The rest of `checkLatestVersion`: an update when the release found is newer. `release` is
/// `None` when nothing was asked (offline), `Some(None)` when the lookup failed.
fn brewcode_update(
    h: &Hook,
    local: String,
    release: Option<Option<Map<String, Value>>>,
) -> Js<Option<(String, String)>> {
    let Some(lookup) = release else {
        h.log(Level::Debug, "[version]", "GitHub release check off (--check-updates turns it on)", Tag::Session)?;
        return Ok(None);
    };
    let Some(release) = lookup else {
        h.log(Level::Debug, "[version]", "GitHub API fetch failed (timeout or error)", Tag::Session)?;
        return Ok(None);
    };
    let tag = js::or_none(release.get("tag_name")).map(|t| js::string_of(Some(t))).unwrap_or_default();
    let remote = tag.strip_prefix('v').unwrap_or(&tag).to_string();
    if remote.is_empty() {
        let shown = release.get("tag_name").map(js::stringify).unwrap_or_else(|| "undefined".into());
        h.log(Level::Debug, "[version]", &format!("GitHub tag_name missing: {shown}"), Tag::Session)?;
        return Ok(None);
    }
    let update = is_newer(&remote, &local);
    let message = format!("brewcode: local={local}, remote={remote}, update={update}");
    h.log(Level::Debug, "[version]", &message, Tag::Session)?;
    Ok(update.then_some((local, remote)))
}

/// The version in a plugin root's last folder (`…/brewcode/3.4.20`), else its plugin.json's.
fn local_brewcode_version(h: &Hook, plugin_root: &str) -> Option<String> {
    if let Some(version) = patterns::plugin_version(plugin_root) {
        return Some(version.to_string());
    }
    let manifest = path::join(&[plugin_root, ".claude-plugin", "plugin.json"]);
    let parsed: Value = serde_json::from_str(&h.read_text(&manifest).ok()?).ok()?;
    js::or_none(parsed.get("version")).map(|v| js::string_of(Some(v)))
}

/// `checkClaudeCodeVersion`: an update of Claude Code, if one was looked for and found.
fn claude_version(h: &Hook, online: bool) -> Js<Option<(String, String)>> {
    let search_path = h.cx().env().get("PATH").unwrap_or_default().to_string();
    if !online {
        let message = if find_program("claude", &search_path) {
            "Claude Code update check off (--check-updates turns it on)"
        } else {
            "claude -v failed: spawnSync claude ENOENT"
        };
        h.log(Level::Debug, "[version]", message, Tag::Session)?;
        return Ok(None);
    }
    let output = match run_with_timeout(h.cx().env(), h.cx().cwd(), "claude", &["-v"], Duration::from_millis(500)) {
        Ok(output) => output,
        Err(error) => {
            h.log(Level::Debug, "[version]", &format!("claude -v failed: {error}"), Tag::Session)?;
            return Ok(None);
        }
    };
    let Some(local) = first_version(&output) else {
        let message = format!("Cannot parse claude version from: {}", js::text::trim(&output));
        h.log(Level::Debug, "[version]", &message, Tag::Session)?;
        return Ok(None);
    };
    h.log(Level::Debug, "[version]", &format!("Claude Code local: {local}"), Tag::Session)?;
    let remote = fetch_json(h.cx().env(), h.cx().cwd(), NPM_LATEST)
        .and_then(|data| js::or_none(data.get("version")).map(|v| js::string_of(Some(v))));
    let Some(remote) = remote else {
        h.log(Level::Debug, "[version]", "npm fetch failed or no version in response", Tag::Session)?;
        return Ok(None);
    };
    let update = is_newer(&remote, &local);
    let message = format!("Claude Code: local={local}, remote={remote}, update={update}");
    h.log(Level::Debug, "[version]", &message, Tag::Session)?;
    Ok(update.then_some((local, remote)))
}

/// `isNewer(remote, local)`: dotted numbers compared part by part, a non-number part as 0.
fn is_newer(remote: &str, local: &str) -> bool {
    let parts = |v: &str| -> Vec<f64> {
        v.split('.').map(|p| js::text::trim(p).parse::<f64>().ok().filter(|x| !x.is_nan()).unwrap_or(0.0)).collect()
    };
    let (l, r) = (parts(local), parts(remote));
    for i in 0..l.len().max(r.len()) {
        let (a, b) = (r.get(i).copied().unwrap_or(0.0), l.get(i).copied().unwrap_or(0.0));
        if a > b {
            return true;
        }
        if a < b {
            return false;
        }
    }
    false
}

/// The first `N.N.N` in a text.
fn first_version(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find_map(|start| {
        let mut end = start;
        let mut groups = 0;
        loop {
            let digits = bytes[end..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            end += digits;
            groups += 1;
            if groups == 3 {
                return Some(text[start..end].to_string());
            }
            if bytes.get(end) != Some(&b'.') {
                return None;
            }
            end += 1;
        }
    })
}

fn find_program(name: &str, search_path: &str) -> bool {
    search_path
        .split(':')
        .filter(|dir| !dir.is_empty())
        .any(|dir| fs::metadata(std::path::Path::new(dir).join(name)).is_ok_and(|m| m.is_file()))
}

/// Runs a program with the hook's environment; its stdout, or why it failed (Node's words).
fn run_with_timeout(env: &Env, cwd: &Path, program: &str, args: &[&str], limit: Duration) -> Result<String, String> {
    use wait_timeout::ChildExt;
    let mut command = Command::new(program);
    command.args(args).env_clear().envs(env.iter()).current_dir(cwd);
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null());
    // Through hookmux's spawn lock, so that this child never holds a hook's pipe.
    let mut child = hookmux_platform::process::spawn(&mut command)
        .map_err(|err| format!("spawnSync {program} {}", errno::code(&err)))?;
    // The answers are a few kilobytes at most: they fit the pipe, so waiting before reading
    // cannot block.
    match child.wait_timeout(limit) {
        Ok(Some(status)) => {
            let mut out = String::new();
            if let Some(mut stdout) = child.stdout.take() {
                let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
            }
            if status.success() {
                Ok(out)
            } else {
                Err(format!("Command failed: {program} {}", args.join(" ")))
            }
        }
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!("spawnSync {program} ETIMEDOUT"))
        }
    }
}

/// `fetch(url)` with a one-second budget, through `curl`: the JSON body of a successful answer.
fn fetch_json(env: &Env, cwd: &Path, url: &str) -> Option<Map<String, Value>> {
    let limit = Duration::from_millis(1500);
    let body = run_with_timeout(env, cwd, "curl", &["-sf", "--max-time", "1", url], limit).ok()?;
    serde_json::from_str::<Value>(&body).ok()?.as_object().cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_part_by_part() {
        assert!(is_newer("3.4.21", "3.4.20"));
        assert!(is_newer("3.10.0", "3.9.9"));
        assert!(!is_newer("3.4.20", "3.4.20"));
        assert!(!is_newer("3.4", "3.4.1"));
        assert!(is_newer("4", "3.99.99"));
        assert_eq!(first_version("2.1.328 (Claude Code)\n").as_deref(), Some("2.1.328"));
        assert_eq!(first_version("v1.2"), None);
    }
}
