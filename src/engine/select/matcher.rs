//! Matcher groups: which groups of an event apply to this occurrence of it.
//!
//! Claude Code's rules: `*`, `""` or no matcher match everything; a matcher made only of letters,
//! digits, `_`, `-`, spaces, `,` and `|` is an exact name or a list of names (split on `|` or `,`,
//! whitespace around each trimmed); anything else is an unanchored, case-sensitive JavaScript
//! regular expression, and one that does not compile matches nothing. FileChanged and StopFailure
//! keep the older, narrower exact set (`[A-Za-z0-9_|]`, split on `|` only). On tool events the
//! legacy tool names still match their renamed tools: `Task` matches `Agent`.
//!
//! The query is the model's to choose (a tool name) and the regex the settings' (a cloned
//! repository's), and a backtracking regex can take exponential time: `(a+)+$` needs seconds for
//! 26 `a`s and a `b`, days for 41. regress has no step limit, so the time is bounded around it. [`risk`] reads a
//! regex's shape for what can blow up (a repeated group holding a quantifier or an alternation,
//! more than [`MAX_UNBOUNDED`] unbounded quantifiers, more than [`MAX_CHOICES`] quantifiers and
//! alternatives); a regex without such a shape, on a query of at most [`MAX_DIRECT_QUERY`]
//! bytes, is tested where it is. Anything else is tested on a worker thread given
//! [`DEADLINE`]: when it has not answered by then, the group runs as if it matched (a guard must
//! not be skipped because its matcher was slow) and the verdict, [`Verdict::Unchecked`], names
//! the regex. Rust cannot stop a thread, so a runaway test keeps its thread busy until it ends
//! or the process exits; dispatch exits once the event is answered, and a long-lived process that
//! uses hookmux as a library has at most [`MAX_RUNNING`] such threads: past that, a regex that
//! needs the bound is not tested at all and its group runs unchecked at once.

use hookmux_sdk::HookEvent;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug)]
pub enum Matcher {
    All,
    Names(Vec<String>),
    /// A regex that is only alternatives of plain text, each maybe with a leading or trailing
    /// `.*` (`Write|Edit|mcp__github__.*`): unanchored, it finds a match exactly where the query
    /// holds one of the texts, so it is tested as that, without compiling it. Most regex
    /// matchers in real settings are of this shape, and compiling a regex costs more than
    /// planning everything else of a group.
    Substrings {
        source: String,
        texts: Vec<String>,
    },
    /// A regex; `risk` is why its shape may backtrack steeply, when it may.
    Pattern {
        source: String,
        regex: Arc<regress::Regex>,
        risk: Option<Risk>,
    },
    Invalid {
        source: String,
        error: String,
    },
}

/// Why a group did or did not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Matched,
    NotMatched(String),
    /// The regex did not answer within [`DEADLINE`]: the group runs, and this says which regex.
    Unchecked(String),
}

impl Verdict {
    /// Whether the group's hooks run: it matched, or the regex could not be tested in time.
    pub fn is_match(&self) -> bool {
        matches!(self, Verdict::Matched | Verdict::Unchecked(_))
    }
}

/// How long a regex that needs the bound may take on one query before its group runs unchecked.
#[cfg(not(test))]
pub const DEADLINE: Duration = Duration::from_millis(100);

/// The unit tests share the machine with a runaway regex of their own and with each other, and
/// assert what a regex answers in time: a loaded machine must not turn that into `Unchecked`.
#[cfg(test)]
pub const DEADLINE: Duration = Duration::from_secs(5);

/// The longest query a regex of a safe shape is tested on directly: tool names and the other
/// match values are far shorter, and a short query keeps even a safe shape's polynomial cost small.
pub const MAX_DIRECT_QUERY: usize = 64;

/// More unbounded quantifiers (`*`, `+`, `{n,}`, `{n,m}` with `m` at least [`MANY`]) than this
/// make a regex's cost a high power of the query's length: `a*a*a*b`.
pub const MAX_UNBOUNDED: usize = 2;

/// More quantifiers and alternatives inside groups than this can multiply into many paths:
/// `a?a?a?a?a?a?a?a?a?aaaaaaaaa`, `(a|a)(a|a)(a|a)…`.
pub const MAX_CHOICES: usize = 8;

/// A counted repetition with this many or more as its maximum counts as unbounded.
pub const MANY: u32 = 16;

/// How many bounded tests may still be running, runaways included, before no more are started:
/// [`hookmux_sdk::bound`]'s, which every bounded test in the process shares.
pub const MAX_RUNNING: usize = hookmux_sdk::bound::MAX_RUNNING;

/// A shape of regex whose backtracking can grow steeply with the query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Risk {
    /// A repeated group that holds a quantifier or an alternation: `(a+)+`, `(a|ab)*`.
    Nested,
    /// More than [`MAX_UNBOUNDED`] unbounded quantifiers: `a*a*a*b`.
    ManyUnbounded,
    /// More than [`MAX_CHOICES`] quantifiers and alternatives inside groups.
    ManyChoices,
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Risk::Nested => f.write_str("a repeated group holds a quantifier or an alternation (as in `(a+)+`)"),
            Risk::ManyUnbounded => {
                write!(f, "it has more than {MAX_UNBOUNDED} unbounded quantifiers (as in `a*a*a*b`)")
            }
            Risk::ManyChoices => write!(f, "it has more than {MAX_CHOICES} quantifiers and alternatives inside groups"),
        }
    }
}

impl Risk {
    /// How to write the regex without the shape.
    pub fn hint(self) -> &'static str {
        match self {
            Risk::Nested => {
                "drop the repetition around a group that repeats or alternates inside (`(a+)+` matches what \
                 `a+` does), anchor a list instead of repeating it (`^(Bash|Write)$`), or list exact names as `A|B`"
            }
            Risk::ManyUnbounded => {
                "keep at most two `*`, `+` or `{n,}`; a leading or trailing `.*` adds nothing to an unanchored \
                 matcher (`.*mcp__.*__write.*` matches what `mcp__.*__write` does)"
            }
            Risk::ManyChoices => "list exact names as `A|B`, or split the matcher into several groups",
        }
    }
}

/// What can make a (valid) JavaScript regex backtrack steeply, read from its text: a heuristic
/// that decides which regexes are tested under [`DEADLINE`], not a proof either way.
pub fn risk(source: &str) -> Option<Risk> {
    #[derive(Clone, Copy)]
    enum Atom {
        Simple,
        /// A group, and whether it holds a quantifier or an alternation.
        Group(bool),
    }
    let chars: Vec<char> = source.chars().collect();
    // Per open group: whether it holds a quantifier or an alternation so far.
    let mut groups: Vec<bool> = Vec::new();
    let (mut nested, mut unbounded, mut choices) = (false, 0, 0);
    let mut atom: Option<Atom> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let quantifier = match c {
            '*' | '+' => Some((true, 1)),
            '?' => Some((false, 1)),
            '{' => braces(&chars[i..]),
            _ => None,
        };
        if let (Some((repeats, len)), Some(quantified)) = (quantifier, atom) {
            let unbounded_here = matches!(c, '*' | '+') || (c == '{' && is_unbounded(&chars[i..i + len]));
            choices += 1;
            unbounded += usize::from(unbounded_here);
            nested |= repeats && matches!(quantified, Atom::Group(true));
            if let Some(holds) = groups.last_mut() {
                *holds = true;
            }
            i += len;
            // `*?`, `+?`: lazy, not another quantifier.
            if chars.get(i) == Some(&'?') {
                i += 1;
            }
            atom = None;
            continue;
        }
        match c {
            '\\' => {
                atom = Some(Atom::Simple);
                i += 2;
                continue;
            }
            '[' => {
                // A class is one atom, whatever it holds; `]` first in it closes it in JavaScript.
                let mut j = i + 1;
                if chars.get(j) == Some(&'^') {
                    j += 1;
                }
                while j < chars.len() && chars[j] != ']' {
                    j += if chars[j] == '\\' { 2 } else { 1 };
                }
                atom = Some(Atom::Simple);
                i = j + 1;
                continue;
            }
            '(' => {
                groups.push(false);
                // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the `?` is not a quantifier.
                i += 1;
                if chars.get(i) == Some(&'?') {
                    i += 1;
                    match chars.get(i) {
                        Some('<') if matches!(chars.get(i + 1), Some('=' | '!')) => i += 2,
                        Some('<') => i += chars[i..].iter().position(|&c| c == '>').map_or(chars.len(), |end| end + 1),
                        _ => i += 1,
                    }
                }
                atom = None;
                continue;
            }
            ')' => {
                let holds = groups.pop().unwrap_or(false);
                if let Some(outer) = groups.last_mut() {
                    *outer |= holds;
                }
                atom = Some(Atom::Group(holds));
            }
            '|' => {
                if let Some(holds) = groups.last_mut() {
                    *holds = true;
                    choices += 1;
                }
                atom = None;
            }
            '^' | '$' => atom = None,
            _ => atom = Some(Atom::Simple),
        }
        i += 1;
    }
    if nested {
        Some(Risk::Nested)
    } else if unbounded > MAX_UNBOUNDED {
        Some(Risk::ManyUnbounded)
    } else if choices > MAX_CHOICES {
        Some(Risk::ManyChoices)
    } else {
        None
    }
}

/// A `{n}`, `{n,}` or `{n,m}` quantifier at the start of `chars`: whether it repeats (its
/// maximum is above one) and its length. Anything else is a literal `{` in JavaScript.
fn braces(chars: &[char]) -> Option<(bool, usize)> {
    let close = chars.iter().position(|&c| c == '}')?;
    let inner: String = chars[1..close].iter().collect();
    let (min, max) = match inner.split_once(',') {
        Some((min, "")) => (min, None),
        Some((min, max)) => (min, Some(max)),
        None => (inner.as_str(), Some(inner.as_str())),
    };
    let number = |text: &str| !text.is_empty() && text.chars().all(|c| c.is_ascii_digit());
    if !number(min) || max.is_some_and(|max| !number(max)) {
        return None;
    }
    let repeats = max.is_none_or(|max| max.parse::<u32>().map_or(true, |max| max > 1));
    Some((repeats, close + 1))
}

fn is_unbounded(quantifier: &[char]) -> bool {
    let inner: String = quantifier.iter().filter(|c| !matches!(c, '{' | '}')).collect();
    match inner.split_once(',') {
        Some((_, "")) => true,
        Some((_, max)) => max.parse::<u32>().map_or(true, |max| max >= MANY),
        None => false,
    }
}

/// Tests `regex` against `queries` on a worker thread; `None` when it has not answered within
/// [`DEADLINE`], or when [`MAX_RUNNING`] tests are still running, or no thread can be started.
fn bounded_find(regex: &Arc<regress::Regex>, queries: Vec<String>) -> Option<bool> {
    let regex = Arc::clone(regex);
    hookmux_sdk::bound::within(DEADLINE, move || queries.iter().any(|query| regex.find(query).is_some())).ok()
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
        if let Some(texts) = substrings(source) {
            return Matcher::Substrings { source: source.to_string(), texts };
        }
        // Each matcher is tested once per event: skipping regress's optimisation passes makes
        // compiling (most of planning's cost) cheaper than any matching it would speed up.
        let flags = regress::Flags { no_opt: true, ..regress::Flags::default() };
        match regress::Regex::with_flags(source, flags) {
            Ok(regex) => Matcher::Pattern { source: source.to_string(), regex: Arc::new(regex), risk: risk(source) },
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
            Matcher::Substrings { source, texts } => {
                let finds = |name: &str| texts.iter().any(|text| name.contains(text.as_str()));
                if finds(query) || legacy_names(query).filter(|_| tool_event).any(finds) {
                    Verdict::Matched
                } else {
                    Verdict::NotMatched(format!("regular expression `{source}` does not match `{query}`"))
                }
            }
            Matcher::Pattern { source, regex, risk } => {
                let legacy = legacy_names(query).filter(|_| tool_event);
                let hit = if risk.is_none() && query.len() <= MAX_DIRECT_QUERY {
                    Some(regex.find(query).is_some() || legacy.into_iter().any(|name| regex.find(name).is_some()))
                } else {
                    let mut queries = vec![query.to_string()];
                    queries.extend(legacy.map(str::to_string));
                    bounded_find(regex, queries)
                };
                match hit {
                    Some(true) => Verdict::Matched,
                    Some(false) => {
                        Verdict::NotMatched(format!("regular expression `{source}` does not match `{query}`"))
                    }
                    None => Verdict::Unchecked(format!(
                        "regular expression `{source}` did not finish within {} ms on `{}`, so the group runs \
                         as if it matched{}",
                        DEADLINE.as_millis(),
                        shorten(query),
                        risk.map(|risk| format!(": {risk}")).unwrap_or_default()
                    )),
                }
            }
            Matcher::Invalid { source, error } => Verdict::NotMatched(format!(
                "`{source}` is not a valid regular expression ({error}), so it never matches"
            )),
        }
    }
}

/// The texts of a regex made only of `|`-separated alternatives of letters, digits, `_`, `-`,
/// spaces and commas, each maybe opened or closed by `.*`; `None` for any other regex. Those
/// characters are literal in a JavaScript regex, and an optional `.*` at either end of an
/// unanchored alternative widens nothing (it may match no character), so the regex finds a match
/// in a query exactly when one of the texts is a part of it (an empty text is part of any).
fn substrings(source: &str) -> Option<Vec<String>> {
    source
        .split('|')
        .map(|alternative| {
            let text = alternative.strip_prefix(".*").unwrap_or(alternative);
            let text = text.strip_suffix(".*").unwrap_or(text);
            let plain = text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ','));
            plain.then(|| text.to_string())
        })
        .collect()
}

/// A query as a verdict quotes it: long ones are cut, on a character boundary.
fn shorten(query: &str) -> String {
    const MAX: usize = 80;
    match query.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &query[..end]),
        None => query.to_string(),
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

    /// Alternatives of plain text, `.*` at their ends, are tested as substrings without compiling
    /// a regex, and find exactly what the compiled regex finds.
    #[test]
    fn plain_alternatives_are_substring_tests() {
        for source in
            ["Write|Edit|mcp__srv0__.*", "mcp__github__.*", ".*Edit", ".*", "Bash|mcp__.*|", "Read|.*", "a b,c|.*x.*"]
        {
            assert!(matches!(Matcher::compile(Some(source), PreToolUse), Matcher::Substrings { .. }), "{source}");
        }
        for source in ["^Edit$", "Edit.", "mcp__.*__write", "Ba.*.*", "(Bash)", "Bash\\d", "a?", "é.*"] {
            assert!(!matches!(Matcher::compile(Some(source), PreToolUse), Matcher::Substrings { .. }), "{source}");
        }
        let regex_finds = |source: &str, query: &str| regress::Regex::new(source).unwrap().find(query).is_some();
        let alternative = ("(\\.\\*)?", "[ab_ ,-]{0,3}", "(\\.\\*)?");
        proptest::proptest!(|(alternatives in proptest::collection::vec(alternative, 1..4), query in "[ab_ ,-]{0,6}")| {
            let source = alternatives.iter().map(|(open, text, close)| format!("{open}{text}{close}"));
            let source = source.collect::<Vec<_>>().join("|");
            let matcher = Matcher::compile(Some(&source), PreToolUse);
            if matches!(matcher, Matcher::Substrings { .. }) {
                let found = regex_finds(&source, &query);
                proptest::prop_assert_eq!(matcher.verdict(&query, true).is_match(), found, "{} on {:?}", source, query);
            }
        });
        // The legacy tool names still match through the fast path.
        assert!(m("Write|Task.*", "Agent") && m(".*Task", "Agent") && !m("Write|Edit|mcp__srv0__.*", "Bash"));
        assert!(m("Write|Edit|mcp__srv0__.*", "mcp__srv0__query") && m("Write|Edit|mcp__srv0__.*", "NotebookEdit"));
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
    fn shapes_that_backtrack_steeply_are_found() {
        for (source, expected) in [
            ("(a+)+$", Some(Risk::Nested)),
            ("(a|ab)*c", Some(Risk::Nested)),
            ("^(\\w+\\s?)*$", Some(Risk::Nested)),
            ("(?:a*){2,}", Some(Risk::Nested)),
            ("((ab)*)+", Some(Risk::Nested)),
            ("(?<x>a+)+", Some(Risk::Nested)),
            ("(?=a+)*b", Some(Risk::Nested)),
            ("(Bash|Write)+", Some(Risk::Nested)),
            ("a*a*a*b", Some(Risk::ManyUnbounded)),
            ("a{1,99}b+c*", Some(Risk::ManyUnbounded)),
            ("(a?a?a?a?a?a?a?a?a?)a", Some(Risk::ManyChoices)),
            ("(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)b", Some(Risk::ManyChoices)),
            ("Ba.*", None),
            ("mcp__.*__write.*", None),
            ("^(?!Read).*", None),
            ("(?<!x)Bash", None),
            ("^(B)a\\1?sh$", None),
            ("Bash|Write|Edit|Read|Glob|Grep|LS|mcp__.*", None),
            ("[(+)|]+", None),
            ("\\(a+\\)+", None),
            ("(ab)+", None),
            ("(a+){1}", None),
            ("(a+)?", None),
            ("x{a}+", None),
            ("\\d{4}", None),
        ] {
            assert_eq!(risk(source), expected, "{source}");
        }
    }

    /// `(a+)+$` on 41 `a`s and a `b` backtracks for hours: the verdict comes at the deadline, the
    /// group runs (a deny hook behind it is not skipped), and the verdict names the regex.
    #[test]
    fn a_runaway_regex_runs_its_group_and_is_named() {
        let query = format!("{}b", "a".repeat(41));
        let verdict = group_verdict(Some("(a+)+$"), PreToolUse, Some(&query));
        assert!(verdict.is_match());
        let Verdict::Unchecked(why) = verdict else { panic!("{verdict:?}") };
        let within = format!("regular expression `(a+)+$` did not finish within {} ms", DEADLINE.as_millis());
        assert!(why.contains(&within), "{why}");
        assert!(why.contains("a repeated group holds a quantifier"), "{why}");
    }

    /// A regex tested under the bound answers as it would directly when it finishes in time.
    /// (`Unchecked` is no answer: a machine loaded enough to starve the worker thread for the
    /// whole deadline gives it, and the test asks again.)
    #[test]
    fn bounded_regexes_match_what_they_match() {
        let m = |matcher: &str, query: &str| {
            for _ in 0..5 {
                match group_verdict(Some(matcher), PreToolUse, Some(query)) {
                    Verdict::Unchecked(_) => continue,
                    verdict => return verdict.is_match(),
                }
            }
            panic!("`{matcher}` never answered on `{query}` within the deadline");
        };
        assert!(m("(Bash|Write)+", "Bash") && m("(Bash|Write)+", "Write") && !m("(Bash|Write)+", "Edit"));
        assert!(m("^(mcp__\\w+)+$", "mcp__fs__write") && !m("^(mcp__\\w+)+$", "Bash"));
        assert!(m("^(Ta|Ka)+sk$", "Agent"), "a legacy name is tested under the bound too");
        assert!(!m("^(Ta|Ka)+sk$", "Bash"));
        // A long query is tested under the bound whatever the regex's shape.
        let long = format!("mcp__{}__write", "x".repeat(MAX_DIRECT_QUERY));
        assert!(m("mcp__.*__write", &long) && !m("^Bash$", &long));
    }

    #[test]
    fn verdicts_say_why() {
        let why = |matcher: &str, query: &str| match group_verdict(Some(matcher), PreToolUse, Some(query)) {
            Verdict::NotMatched(why) => why,
            other => panic!("{other:?}"),
        };
        assert_eq!(why("bash", "Bash"), "`Bash` is not one of the exact names `bash` (names are case-sensitive)");
        assert_eq!(why("^Edit$", "Bash"), "regular expression `^Edit$` does not match `Bash`");
        assert!(why("Ba[", "Bash").contains("never matches"));
    }
}
