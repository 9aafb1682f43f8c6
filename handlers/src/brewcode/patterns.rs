//! brewcode's regular expressions, compiled once with `regress`, a JavaScript-compatible engine.
//!
//! brewcode reads PLAN.md, task paths and knowledge entries with JavaScript regular expressions,
//! and some of their behaviour is JavaScript's alone: the v2 phase header `(\d+)(?!V)` uses a
//! look-ahead (and, through backtracking, reads `Phase 12V` as phase 1); `\s*` in `^status:\s*(.+)`
//! crosses line breaks; `^` under the `m` flag also starts a line after `\r` or U+2028; `/i` folds
//! ASCII letters only. `regress` implements exactly these semantics, so the patterns are written
//! as brewcode writes them instead of being re-derived by hand. They are immutable and shared by
//! every call; nothing in them is state.

use regress::Regex;
use std::sync::OnceLock;

pub struct Patterns {
    /// `validateTaskPath` and `getActiveTaskPath`.
    pub task_path: Regex,
    /// v2 phase headers, every match (`gm`).
    pub phase_header: Regex,
    /// The next v2 phase header after the current one (`m`).
    pub next_phase_header: Regex,
    /// A phase marked complete in its body (`i`).
    pub status_completed: Regex,
    /// v2 status line (`m`).
    pub status_v2: Regex,
    /// v3 status line (`m`).
    pub status_v3: Regex,
    pub current_phase: Regex,
    pub total_phases: Regex,
    /// The line `updateTaskStatus` replaces (`m`).
    pub status_line: Regex,
    /// A line that is only an HTML comment, inside a constraint section (`s`).
    pub comment_line: Regex,
    pub role_test: Regex,
    pub role_review: Regex,
    pub role_dev: Regex,
    /// Knowledge entries that are narration, not knowledge (`i`, each).
    pub blocklist: [Regex; 6],
    /// `deriveCwd`: a KNOWLEDGE.jsonl path back to its project.
    pub tasks_suffix: Regex,
    /// A plugin root that ends in a version folder.
    pub plugin_version: Regex,
    /// A Bash command that runs a search tool (later brewcode versions remind on these).
    pub bash_search: Regex,
}

fn compile(pattern: &str, flags: &str) -> Regex {
    // The patterns are constants; a failure here is a bug caught by the first test that runs.
    Regex::with_flags(pattern, flags).unwrap_or_else(|err| panic!("brewcode pattern {pattern:?}: {err}"))
}

/// The compiled patterns.
pub fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| Patterns {
        task_path: compile(r"^\.claude\/tasks\/.*_task\/PLAN\.md$", ""),
        phase_header: compile(r"^#{2,3}\s*Phase\s+(\d+)(?!V)[^\n]*", "gm"),
        next_phase_header: compile(r"^#{2,3}\s*Phase\s+\d+(?!V)", "m"),
        status_completed: compile(r"\*?\*?[Ss]tatus\*?\*?:\s*completed", "i"),
        status_v2: compile(r"^status:\s*(.+)$", "m"),
        status_v3: compile(r"^status:\s*(.+)", "m"),
        current_phase: compile(r"^current_phase:\s*(\d+)", "m"),
        total_phases: compile(r"^total_phases:\s*(\d+)", "m"),
        status_line: compile(r"^status:\s*.+$", "m"),
        comment_line: compile(r"^\s*<!--.*-->\s*$", "s"),
        role_test: compile(r"\b(?:test(?:er)?|qa|sdet)\b", ""),
        role_review: compile(r"\b(?:review(?:er)?|check(?:er)?|audit(?:or)?)\b", ""),
        role_dev: compile(
            r"\b(?:dev(?:eloper)?|implement(?:er)?|cod(?:er|ing)|engineer|architect|build(?:er)?|fix(?:er)?)\b",
            "",
        ),
        blocklist: [
            compile(r"^(Working|Starting|Completed|Finished|Beginning)", "i"),
            compile(r"^(Let me|I will|I am|I'll)", "i"),
            compile(r"^(Looks? good|LGTM|Done|Fixed)", "i"),
            compile(r"^Phase \d+", "i"),
            compile(r"^Task (completed|done|finished)", "i"),
            compile(r"^(Now|Next|Then) (I|we|let)", "i"),
        ],
        tasks_suffix: compile(r"\/\.claude\/tasks\/.*$", ""),
        plugin_version: compile(r"\/(\d+\.\d+\.\d+)\/?$", ""),
        bash_search: compile(
            r"(?:^|[|;&(\n]|&&|\|\|)\s*(?:command\s+)?(grep|egrep|fgrep|ugrep|rg|ag|ack|find|bfs|fd)\b",
            "",
        ),
    })
}

/// The text of capture group `index` of the first match.
pub fn capture<'t>(regex: &Regex, text: &'t str, index: usize) -> Option<&'t str> {
    regex.find(text).and_then(|m| m.group(index)).map(|range| &text[range])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_header_look_ahead_backtracks_as_javascript_does() {
        let p = patterns();
        let text = "## Phase 1: a\n### Phase 1V: check\n## Phase 12V: odd\n#### Phase 9\n##\nPhase 4 spans\n";
        let found: Vec<(usize, &str)> = p
            .phase_header
            .find_iter(text)
            .map(|m| (m.start(), m.group(1).map(|r| &text[r]).unwrap_or_default()))
            .collect();
        // `12V` backtracks to phase 1; `####` is not a header; `\s*` crosses the line break.
        assert_eq!(found, [(0, "1"), (34, "1"), (65, "4")]);
    }

    #[test]
    fn status_spans_lines_when_the_value_is_on_the_next_one() {
        let p = patterns();
        assert_eq!(capture(&p.status_v2, "status:\n  in progress\n", 1), Some("in progress"));
        assert_eq!(capture(&p.status_v2, "x\nstatus: done\r\n", 1), Some("done"));
    }

    #[test]
    fn blocklist_folds_ascii_case_only() {
        let p = patterns();
        assert!(p.blocklist[2].find("looks GOOD to me").is_some());
        assert!(p.blocklist[3].find("phase 2 done").is_some());
        assert!(p.blocklist[0].find("Avoid working late").is_none());
    }

    #[test]
    fn bash_search_finds_search_tools_after_separators() {
        let p = patterns();
        for command in ["grep -r x .", "cd src && rg foo", "ls | fd x", "command find . -name y", "(ag z)"] {
            assert!(p.bash_search.find(command).is_some(), "{command}");
        }
        for command in ["cargo build", "echo grep", "git grep x", "rgx", "ls"] {
            assert!(p.bash_search.find(command).is_none(), "{command}");
        }
    }
}
