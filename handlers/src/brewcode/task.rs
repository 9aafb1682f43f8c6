//! The active task: `.claude/TASK.md` names it, its `PLAN.md` says where it stands.
//!
//! A task lives in `.claude/tasks/<stamp>_<name>_task/` with `PLAN.md`, `KNOWLEDGE.jsonl`,
//! `artifacts/`, `.lock` and, for v3 tasks, `phases/`. PLAN.md comes in two formats:
//!
//! - **v3** (a `phases/` folder, and PLAN.md starting with `status:` then `current_phase:`):
//!   `status`, `current_phase` and `total_phases` are header fields.
//! - **v2** (anything else): `status:` is the first such line; the phases are `## Phase N` /
//!   `### Phase N` headers (`Phase 1V` verification headers excluded), and the current phase is
//!   the first whose body has an unchecked box, or no box checked, and no `Status: completed`.

use super::config::Level;
use super::hook::{Hook, Tag};
use super::js::{self, path, text, Js};
use super::patterns;
use serde_json::Value;

/// Statuses after which a task is over: no handoff, no blocking, the lock goes.
pub const TERMINAL_STATUSES: &[&str] = &["finished", "failed", "cancelled", "error"];

/// What `parseTask` returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub status: String,
    pub current_phase: f64,
    pub total_phases: f64,
}

impl Task {
    pub fn is_terminal(&self) -> bool {
        TERMINAL_STATUSES.contains(&self.status.as_str())
    }

    /// `${currentPhase}` and `${totalPhases}` as brewcode prints them.
    pub fn current(&self) -> String {
        js::format_number(self.current_phase)
    }

    pub fn total(&self) -> String {
        js::format_number(self.total_phases)
    }
}

/// `validateTaskPath`: a string under `.claude/tasks/`, in a `*_task` folder, naming its PLAN.md,
/// with no `..` anywhere.
pub fn is_valid_task_path(value: Option<&Value>) -> bool {
    match value {
        Some(Value::String(s)) => !s.is_empty() && is_task_path(s),
        _ => false,
    }
}

fn is_task_path(s: &str) -> bool {
    !s.contains("..") && patterns::is_task_path_shape(s)
}

/// `deriveCwd`: a path inside a task back to its project (everything before the first
/// `/.claude/tasks/`).
pub fn project_of(task_file: &str) -> String {
    match patterns::tasks_suffix_start(task_file) {
        Some(start) => task_file[..start].to_string(),
        None => task_file.to_string(),
    }
}

impl Hook<'_> {
    /// `getActiveTaskPath(cwd)`: the PLAN.md that `.claude/TASK.md`'s first line names, when the
    /// line is a valid task path and the file exists. Reading TASK.md can throw (a folder).
    pub fn active_task_path(&self) -> Js<Option<String>> {
        let reference = self.join(&[".claude", "TASK.md"]);
        if !self.exists(&reference) {
            self.log(Level::Debug, "[task]", "TASK.md not found", Tag::None)?;
            return Ok(None);
        }
        let content = self.read_text(&reference).map_err(js::JsError)?;
        let first = text::trim(text::trim(&content).split('\n').next().unwrap_or_default());
        if !is_task_path(first) {
            return Ok(None);
        }
        let task_path = self.join(&[first]);
        Ok(self.exists(&task_path).then_some(task_path))
    }

    /// `parseTask(taskPath, cwd)`: `None` when PLAN.md cannot be read (logged as an error).
    pub fn parse_task(&self, task_path: &str) -> Js<Option<Task>> {
        let content = match self.read_text(task_path) {
            Ok(content) => content,
            Err(error) => {
                let message = format!("Failed to read {task_path}: {error}");
                self.log(Level::Error, "[parseTask]", &message, Tag::None)?;
                return Ok(None);
            }
        };
        let phases = path::join(&[&path::dirname(task_path), "phases"]);
        if self.exists(&phases) {
            let mut lines = content.split('\n');
            let v3 = lines.next().is_some_and(|l| l.starts_with("status:"))
                && lines.next().is_some_and(|l| l.starts_with("current_phase:"));
            if v3 {
                return Ok(Some(parse_v3(&content)));
            }
            let message = "phases/ dir exists but PLAN.md lacks v3 header, falling back to v2";
            self.log(Level::Warn, "[parseTask]", message, Tag::None)?;
        }
        Ok(Some(parse_v2(&content)))
    }

    /// `updateTaskStatus(taskPath, status)`: rewrites the first `status:` line (or adds one)
    /// atomically. A failure is logged in the task's project and reported as `false`.
    pub fn update_task_status(&self, task_path: &str, status: &str) -> Js<bool> {
        let result = self.read_text(task_path).and_then(|content| {
            let updated = with_status(&content, status);
            if self.dry() {
                return Ok(());
            }
            self.write_atomic(task_path, &updated)
        });
        match result {
            Ok(()) => Ok(true),
            Err(error) => {
                self.log_in(
                    &project_of(task_path),
                    Level::Error,
                    "[updateTaskStatus]",
                    &format!("Failed: {error}"),
                    None,
                )?;
                Ok(false)
            }
        }
    }
}

/// PLAN.md with its status set, as `updateTaskStatus` rewrites it.
pub fn with_status(content: &str, status: &str) -> String {
    let line = format!("status: {status}");
    if let Some((start, end)) = patterns::status_line_span(content) {
        return format!("{}{line}{}", &content[..start], &content[end..]);
    }
    if content.starts_with("---") {
        // The closing `---` of the front matter; without one the text is left as it is.
        return match content.get(3..).and_then(|rest| rest.find("---")) {
            Some(offset) => {
                let end = offset + 3;
                format!("{}{line}\n{}", &content[..end], &content[end..])
            }
            None => content.to_string(),
        };
    }
    format!("{line}\n\n{content}")
}

/// The status a PLAN.md header line gives, trimmed; `pending` when there is none.
fn status_of(content: &str) -> String {
    patterns::header_value(content, "status").map(text::trim).filter(|s| !s.is_empty()).unwrap_or("pending").to_string()
}

/// The v3 header fields.
pub fn parse_v3(content: &str) -> Task {
    let number = |key| patterns::header_number(content, key).and_then(|d| d.parse::<f64>().ok()).unwrap_or(0.0);
    Task { status: status_of(content), current_phase: number("current_phase"), total_phases: number("total_phases") }
}

/// The v2 status line and checkbox phases.
pub fn parse_v2(content: &str) -> Task {
    let headers = patterns::phase_headers(content);
    let mut current_phase = 1.0;
    for &(start, digits) in &headers {
        let number: f64 = digits.parse().unwrap_or(f64::NAN);
        if number.is_nan() {
            continue;
        }
        let end = match content[start..].find('\n') {
            None => content.len(),
            Some(offset) => {
                let rest_start = start + offset + 1;
                patterns::next_phase_header(&content[rest_start..]).map_or(content.len(), |next| rest_start + next)
            }
        };
        let body = &content[start..end];
        let checked = body.matches("[x]").count() + body.matches("[X]").count();
        let unchecked = body.matches("[ ]").count();
        if (checked > 0 && unchecked == 0) || patterns::says_completed(body) {
            current_phase = number + 1.0;
        } else {
            current_phase = number;
            break;
        }
    }
    let total_phases = if headers.is_empty() { 1.0 } else { headers.len() as f64 };
    Task { status: status_of(content), current_phase, total_phases }
}

/// The text between `<!-- TAG -->` and `<!-- /TAG -->`, without lines that are only an HTML
/// comment, trimmed; empty when either marker is missing.
pub fn section(content: &str, tag: &str) -> String {
    let start_tag = format!("<!-- {tag} -->");
    let end_tag = format!("<!-- /{tag} -->");
    let Some(start) = content.find(&start_tag) else { return String::new() };
    let Some(end) = content[start..].find(&end_tag).map(|offset| start + offset) else { return String::new() };
    let inner = content.get(start + start_tag.len()..end).unwrap_or_default();
    let kept: Vec<&str> = inner.split('\n').filter(|line| !patterns::is_comment_line(line)).collect();
    text::trim(&kept.join("\n")).to_string()
}

/// The role an agent's name gives it, for role constraints: `TEST`, `REVIEW` or `DEV`.
pub fn role_of(agent: &str) -> Option<&'static str> {
    let name = agent.to_lowercase();
    if patterns::has_word(&name, patterns::TEST_WORDS) {
        Some("TEST")
    } else if patterns::has_word(&name, patterns::REVIEW_WORDS) {
        Some("REVIEW")
    } else if patterns::has_word(&name, patterns::DEV_WORDS) {
        Some("DEV")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_paths_are_validated_as_brewcode_does() {
        for ok in [
            ".claude/tasks/20260201-120000_x_task/PLAN.md",
            ".claude/tasks/_task/PLAN.md",
            ".claude/tasks/a/b_task/PLAN.md",
        ] {
            assert!(is_valid_task_path(Some(&Value::from(ok))), "{ok}");
        }
        for bad in [
            ".claude/tasks/../x_task/PLAN.md",
            "/abs/.claude/tasks/x_task/PLAN.md",
            ".claude/tasks/x_task/plan.md",
            ".claude/tasks/x/PLAN.md",
            ".claude/tasks/x\n_task/PLAN.md",
            "",
        ] {
            assert!(!is_valid_task_path(Some(&Value::from(bad))), "{bad:?}");
        }
        assert!(!is_valid_task_path(Some(&Value::from(5))));
        assert!(!is_valid_task_path(None));
    }

    #[test]
    fn project_of_cuts_at_the_first_tasks_folder() {
        assert_eq!(project_of("/p/.claude/tasks/x_task/KNOWLEDGE.jsonl"), "/p");
        assert_eq!(project_of("/home/u/.claude/tasks/a/.claude/tasks/x_task/K"), "/home/u");
        assert_eq!(project_of("relative"), "relative");
    }

    const V2: &str = "status: in progress\n\n## Phases\n\n### Phase 1: A\n\n**Status**: completed\n- [x] one\n\n\
                      ### Phase 1V: Verify\n- [ ] not a phase\n\n### Phase 2: B\n- [x] done\n- [ ] open\n\n### Phase 3: C\n- [ ] later\n";

    #[test]
    fn v2_current_phase_is_the_first_open_one() {
        // Phase 1's body runs into `Phase 1V` (not a header) and its open box, but says it is
        // completed; phase 2 has an open box.
        assert_eq!(parse_v2(V2), Task { status: "in progress".into(), current_phase: 2.0, total_phases: 3.0 });
        // `**Status:** completed` does not read as completed: the stars come after the colon.
        let starred = V2.replace("**Status**: completed", "**Status:** completed");
        assert_eq!(parse_v2(&starred).current_phase, 1.0);
    }

    #[test]
    fn v2_edge_cases() {
        // No phases at all: phase 1 of 1.
        assert_eq!(
            parse_v2("status: pending\n"),
            Task { status: "pending".into(), current_phase: 1.0, total_phases: 1.0 }
        );
        // Every phase complete: one past the last.
        let done = "## Phase 1\n- [x] a\n## Phase 2\nStatus: COMPLETED\n";
        assert_eq!(parse_v2(done).current_phase, 3.0);
        // A phase with no boxes and no status is open.
        assert_eq!(parse_v2("## Phase 4 alone\ntext\n## Phase 5\n").current_phase, 4.0);
        // `Phase 12V` reads as phase 1 through backtracking; `####` is not a header.
        let odd = "## Phase 12V verify\n- [ ] a\n#### Phase 7\n";
        assert_eq!(parse_v2(odd), Task { status: "pending".into(), current_phase: 1.0, total_phases: 1.0 });
        // A status with nothing after it on its line takes the next line.
        assert_eq!(parse_v2("status:\nfinished\n").status, "finished");
    }

    #[test]
    fn v3_reads_the_header() {
        let plan = "status: in progress\ncurrent_phase: 3\ntotal_phases: 5\n\n# Plan\n";
        assert_eq!(parse_v3(plan), Task { status: "in progress".into(), current_phase: 3.0, total_phases: 5.0 });
        assert_eq!(
            parse_v3("status: \ncurrent_phase: x\n"),
            Task { status: "current_phase: x".into(), current_phase: 0.0, total_phases: 0.0 }
        );
    }

    #[test]
    fn status_update_replaces_adds_or_leaves() {
        assert_eq!(with_status("status: in progress\n# P\n", "handoff"), "status: handoff\n# P\n");
        assert_eq!(with_status("# P\n", "handoff"), "status: handoff\n\n# P\n");
        assert_eq!(with_status("---\ntitle: x\n---\n# P\n", "handoff"), "---\ntitle: x\nstatus: handoff\n---\n# P\n");
        assert_eq!(with_status("---\nno end\n", "handoff"), "---\nno end\n");
    }

    #[test]
    fn sections_drop_comment_lines() {
        let plan = "<!-- ALL -->\n<!-- note -->\n- a\n  <!-- x --> \n- b\n<!-- /ALL -->\n<!-- DEV -->\n<!-- /DEV -->";
        assert_eq!(section(plan, "ALL"), "- a\n- b");
        assert_eq!(section(plan, "DEV"), "");
        assert_eq!(section(plan, "TEST"), "");
        assert_eq!(section("<!-- ALL -->\n- open", "ALL"), "");
    }

    #[test]
    fn roles_come_from_whole_words_of_the_name() {
        for (agent, role) in [
            ("tester", Some("TEST")),
            ("QA-bot", Some("TEST")),
            ("code-reviewer", Some("REVIEW")),
            ("bc-developer", Some("DEV")),
            ("Fixer", Some("DEV")),
            ("developers", None),
            ("sql_expert", None),
            ("test_dev", None),
            ("dev-tester", Some("TEST")),
        ] {
            assert_eq!(role_of(agent), role, "{agent}");
        }
    }
}
