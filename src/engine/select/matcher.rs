//! Matcher groups: which groups of an event apply to this occurrence of it.
//!
//! Claude Code's rules: `*`, `""` or no matcher match everything; a matcher made only of letters,
//! digits, `_`, `-`, spaces, `,` and `|` is an exact name or a list of names (split on `|` or `,`,
//! whitespace around each trimmed); anything else is an unanchored, case-sensitive JavaScript
//! regular expression, and one that does not compile matches nothing. FileChanged and StopFailure
//! keep the older, narrower exact set (`[A-Za-z0-9_|]`, split on `|` only). On tool events the
//! legacy tool names still match their renamed tools: `Task` matches `Agent`.

use hookmux_sdk::HookEvent;

#[derive(Debug)]
pub enum Matcher {
    All,
    Names(Vec<String>),
    Pattern { source: String, regex: regress::Regex },
    Invalid { source: String, error: String },
}

/// Why a group did or did not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Matched,
    NotMatched(String),
}

impl Verdict {
    pub fn is_match(&self) -> bool {
        *self == Verdict::Matched
    }
}

/// Renamed tools: the legacy name a matcher may still use, and the current tool name.
const LEGACY_TOOL_NAMES: &[(&str, &str)] = &[
    ("Task", "Agent"),
    ("KillShell", "TaskStop"),
    ("AgentOutputTool", "TaskOutput"),
    ("BashOutputTool", "TaskOutput"),
];

impl Matcher {
    pub fn compile(matcher: Option<&str>, event: HookEvent) -> Matcher {
        let Some(source) = matcher else { return Matcher::All };
        if source.is_empty() || source == "*" {
            return Matcher::All;
        }
        let narrow = matches!(event, HookEvent::FileChanged | HookEvent::StopFailure);
        let exact = if narrow {
            source.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
        } else {
            source.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|'))
        };
        if exact {
            let separators: &[char] = if narrow { &['|'] } else { &['|', ','] };
            let names = source.split(separators).map(str::trim).filter(|n| !n.is_empty()).map(str::to_string).collect();
            return Matcher::Names(names);
        }
        // Each matcher is tested once per event: skipping regress's optimisation passes makes
        // compiling (most of planning's cost) cheaper than any matching it would speed up.
        let flags = regress::Flags { no_opt: true, ..regress::Flags::default() };
        match regress::Regex::with_flags(source, flags) {
            Ok(regex) => Matcher::Pattern { source: source.to_string(), regex },
            Err(err) => Matcher::Invalid { source: source.to_string(), error: err.to_string() },
        }
    }

    /// Tests `query` (the event's match field); `tool_event` enables the legacy tool names.
    pub fn verdict(&self, query: &str, tool_event: bool) -> Verdict {
        match self {
            Matcher::All => Verdict::Matched,
            Matcher::Names(names) => {
                let hit = names.iter().any(|name| {
                    name == query || (tool_event && current_name(name).is_some_and(|current| current == query))
                });
                if hit {
                    Verdict::Matched
                } else {
                    let case_hint = if names.iter().any(|n| n.eq_ignore_ascii_case(query)) {
                        " (names are case-sensitive)"
                    } else {
                        ""
                    };
                    let list = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
                    Verdict::NotMatched(format!("`{query}` is not one of the exact names {list}{case_hint}"))
                }
            }
            Matcher::Pattern { source, regex } => {
                let hit = regex.find(query).is_some()
                    || (tool_event && legacy_names(query).any(|legacy| regex.find(legacy).is_some()));
                if hit {
                    Verdict::Matched
                } else {
                    Verdict::NotMatched(format!("regular expression `{source}` does not match `{query}`"))
                }
            }
            Matcher::Invalid { source, error } => Verdict::NotMatched(format!(
                "`{source}` is not a valid regular expression ({error}), so it never matches"
            )),
        }
    }
}

fn current_name(legacy: &str) -> Option<&'static str> {
    LEGACY_TOOL_NAMES.iter().find(|(old, _)| *old == legacy).map(|(_, new)| *new)
}

fn legacy_names(current: &str) -> impl Iterator<Item = &'static str> + '_ {
    LEGACY_TOOL_NAMES.iter().filter(move |(_, new)| *new == current).map(|(old, _)| *old)
}

/// Whether a group applies: events without matcher support, and occurrences without a query,
/// run every group whatever its matcher says.
pub fn group_verdict(matcher: Option<&str>, event: HookEvent, query: Option<&str>) -> Verdict {
    match query {
        Some(query) if !query.is_empty() => Matcher::compile(matcher, event).verdict(query, event.is_tool_event()),
        _ => Verdict::Matched,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HookEvent::*;

    fn m(matcher: &str, query: &str) -> bool {
        group_verdict(Some(matcher), PreToolUse, Some(query)).is_match()
    }

    /// Every row of the hooks reference's matcher table, and the conformance scenarios
    /// (match-Bash, match-BashORWrite, match-BaDOTSTAR, match-STAR, match-empty, match-bash,
    /// match-Task-for-Agent).
    #[test]
    fn the_matcher_table() {
        // "*", "" or omitted: everything.
        assert!(m("*", "Bash") && m("", "Bash"));
        assert!(group_verdict(None, PreToolUse, Some("Bash")).is_match());
        // Exact names and lists, with `|` or `,` and optional whitespace.
        assert!(m("Bash", "Bash"));
        assert!(m("Bash|Write", "Bash") && m("Bash|Write", "Write") && !m("Bash|Write", "Edit"));
        assert!(m("Bash, Write", "Write") && m("Edit ,Write", "Write") && m("Edit | Write", "Write"));
        // Exact means exact: no substring, case-sensitive.
        assert!(!m("bash", "Bash"));
        assert!(!m("Edit", "NotebookEdit"));
        assert!(!m("mcp__memory", "mcp__memory__create_entities"));
        // `-` is in the exact set: no substring match for hyphenated names.
        assert!(!group_verdict(Some("code-reviewer"), SubagentStop, Some("senior-code-reviewer")).is_match());
        assert!(group_verdict(Some("code-reviewer"), SubagentStop, Some("code-reviewer")).is_match());
        // Anything else is an unanchored JavaScript regex.
        assert!(m("Ba.*", "Bash"));
        assert!(m("Edit.*", "NotebookEdit"));
        assert!(!m("^Edit$", "NotebookEdit") && m("^Edit$", "Edit"));
        assert!(m("mcp__memory__.*", "mcp__memory__create_entities"));
        assert!(m("mcp__.*__write.*", "mcp__fs__write_file"));
        assert!(!m("^bash$", "Bash"));
        // JavaScript-only syntax works: look-ahead and back-references.
        assert!(m("^(?!Read).*", "Write") && !m("^(?!Read).*", "Read"));
        assert!(m("^(B)a\\1?sh$", "Bash"));
        // An invalid regex never matches.
        assert!(!m("Ba[", "Bash"));
        assert!(!m("(", "("));
    }

    #[test]
    fn legacy_tool_names() {
        assert!(m("Task", "Agent"));
        assert!(m("Task|Read", "Agent"));
        assert!(m("^Task$", "Agent"));
        assert!(m("Agent", "Agent"));
        assert!(!m("Task", "Bash"));
        assert!(m("KillShell", "TaskStop"));
        // Only tool events know tool names.
        assert!(!group_verdict(Some("Task"), SubagentStart, Some("Agent")).is_match());
    }

    #[test]
    fn narrow_exact_set_for_file_changed_and_stop_failure() {
        assert!(group_verdict(Some(".envrc|.env"), FileChanged, Some(".env")).is_match());
        assert!(group_verdict(Some("rate_limit|overloaded"), StopFailure, Some("overloaded")).is_match());
        // A comma is not a separator there: "a,b" is a regex that matches the literal text.
        assert!(!group_verdict(Some("rate_limit,overloaded"), StopFailure, Some("overloaded")).is_match());
        // A hyphen takes the regex path there, which is a substring search.
        assert!(group_verdict(Some("my-file"), FileChanged, Some("a-my-file-b")).is_match());
    }

    #[test]
    fn no_query_runs_every_group() {
        assert!(group_verdict(Some("Bash"), Stop, None).is_match());
        assert!(group_verdict(Some("Bash"), PreToolUse, Some("")).is_match());
    }

    #[test]
    fn verdicts_say_why() {
        let why = |matcher: &str, query: &str| match group_verdict(Some(matcher), PreToolUse, Some(query)) {
            Verdict::NotMatched(why) => why,
            Verdict::Matched => panic!("matched"),
        };
        assert_eq!(why("bash", "Bash"), "`Bash` is not one of the exact names `bash` (names are case-sensitive)");
        assert_eq!(why("^Edit$", "Bash"), "regular expression `^Edit$` does not match `Bash`");
        assert!(why("Ba[", "Bash").contains("never matches"));
    }
}
