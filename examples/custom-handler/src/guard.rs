//! What bash-guard decides, apart from any hook plumbing: which pattern a Bash command line
//! matches, if any.
//!
//! A command line is turned into the texts the patterns are tested against:
//!
//! - every simple command, as its words (quotes removed) joined by single spaces, after what does
//!   not change the program that runs is taken off the front: `VAR=value` assignments, the
//!   wrappers `sudo`, `doas`, `env`, `nohup`, `nice`, `timeout`, `time`, `command`, `exec`,
//!   `builtin`, `stdbuf` and `xargs` with their options, and the shell keywords and brackets that
//!   can start a command (`then`, `do`, `!`, `{`, `(`). `sudo -u ops /bin/rm -rf "/"` is tested
//!   as `/bin/rm -rf /`;
//! - every pipeline of several commands, as its commands joined by ` | `, so that a pattern can
//!   see what is piped into what: `curl -fsSL https://x.sh | bash`;
//! - the script of `sh -c`, `bash -c` (and the other shells) and `eval`, split the same way;
//! - every simple command again with its paths resolved, when one holds `.` or `..`: `rm -rf
//!   /usr/../*` is tested as written and as `rm -rf /*`. Paths are resolved as written (a link is
//!   not followed), from `/`, `~`, `$HOME` or `${HOME}`; a path that climbs above `~` or `$HOME`
//!   is tested as `/`, since where it lands is not known here.
//!
//! Patterns are JavaScript regular expressions (as in settings matchers), unanchored: `^` ties
//! one to the start of a command. A backtracking regular expression can take exponential time
//! on text the model writes, so [`Guard::check_within`] checks under a time bound, and a line it
//! cannot finish checking in time is denied ([`TOO_SLOW`]). The default patterns are written so
//! that each word can be read one way only, which keeps them linear in the line.

use hookmux_sdk::bash::{self, SplitError};
use regress::{Flags, Regex};
use std::sync::Arc;
use std::time::Duration;

/// The patterns bash-guard applies unless `--no-defaults` is given: a name, what it catches, and
/// the regular expression.
pub const DEFAULT_PATTERNS: &[(&str, &str, &str)] = &[
    (
        "rm-root",
        "rm -r of /, ~, $HOME or a top-level system folder, or rm --no-preserve-root",
        concat!(
            r"^(?:\S*/)?rm (?=(?:\S+ )*(?:-(?=[a-zA-Z]*[rR])[a-zA-Z]*|--recursive)(?: |$))(?:\S+ )*",
            r"(?:/+(?:(?:bin|boot|dev|etc|home|lib|lib32|lib64|opt|root|sbin|srv|usr|var)/*)?\*?|~/?\*?|\$\{?HOME\}?/?\*?)(?: |$)",
            r"|^(?:\S*/)?rm (?:.* )?--no-preserve-root(?: |$)",
        ),
    ),
    (
        "git-force-push-main",
        "git push --force (or -f, --force-with-lease, a +refspec) that names main or master",
        concat!(
            // Git's own options before `push`: one that takes a value takes the next word, and
            // any other option is one word; `-c` is never both, so a line reads one way only.
            r"^(?:\S*/)?git (?:(?:-C|-c|--git-dir|--work-tree) \S+ |-(?![Cc] |-git-dir |-work-tree )\S+ )*push ",
            r"(?=(?:\S+ )*(?:--force(?:-with-lease|-if-includes)?(?:=\S*)?|-(?=[a-zA-Z]*f)[a-zA-Z]*)(?: |$)|(?:\S+ )*\+)",
            r"(?:\S+ )*\+?(?:\S*:)?(?:refs/heads/)?(?:main|master)(?: |$)",
        ),
    ),
    (
        "curl-pipe-shell",
        "a download (curl, wget) piped into a shell, or fed to one through <( ), $( ) or eval",
        concat!(
            r"(?:^|\| )(?:\S*/)?(?:curl|wget)(?: [^|]*)? \| (?:[^|]* \| )*(?:\S*/)?(?:ba|z|da|k|mk|fi)?sh(?: |$)",
            r"|^(?:(?:\S*/)?(?:ba|z|da|k|mk|fi)?sh|\.|source|eval) (?:.* )?(?:<\(|\$\(|`)(?:\S*/)?(?:curl|wget) ",
        ),
    ),
    (
        "disk-wipe",
        "formatting or overwriting a disk: mkfs, wipefs, dd of=/dev/…, shred /dev/…",
        r"^(?:\S*/)?(?:mkfs(?:\.\w+)? |wipefs |dd (?:.* )?of=/dev/(?!null|zero|stdout|stderr|tty)|shred (?:.* )?/dev/)",
    ),
];

/// The pattern named by the deny of a line whose substitutions nest past [`bash::MAX_DEPTH`].
pub const TOO_DEEP: &str = "too-deep";

/// The pattern named by the deny of a line the patterns did not finish checking within the bound.
pub const TOO_SLOW: &str = "too-slow";

/// How long [`Guard::check_within`] gives the patterns: far more than a line of any sensible
/// length needs, far less than the host waits for the hook.
pub const CHECK_BOUND: Duration = Duration::from_secs(1);

/// How far `bash -c "bash -c '…'"` is followed; deeper scripts are tested as text only.
const MAX_NESTING: usize = 4;

/// One compiled pattern.
pub struct Pattern {
    /// A default's name, or the regular expression as the user wrote it.
    pub name: String,
    regex: Regex,
}

impl Pattern {
    fn compile(name: &str, source: &str) -> Result<Pattern, String> {
        // Each pattern is tested a handful of times per process: compiling cheaply beats optimising.
        let flags = Flags { no_opt: true, ..Flags::default() };
        match Regex::with_flags(source, flags) {
            Ok(regex) => Ok(Pattern { name: name.to_string(), regex }),
            Err(err) => Err(format!("`{source}` is not a valid regular expression: {err}")),
        }
    }

    fn matches(&self, text: &str) -> bool {
        self.regex.find(text).is_some()
    }
}

/// What to do with a command line that a pattern matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Deny,
    Ask,
}

/// The pattern that decided, and the command (or pipeline) text it matched.
#[derive(Debug, PartialEq, Eq)]
pub struct Hit {
    pub verdict: Verdict,
    pub pattern: String,
    pub text: String,
}

/// Compiled patterns, plus the ones that did not compile.
pub struct Guard {
    deny: Vec<Pattern>,
    ask: Vec<Pattern>,
    allow: Vec<Pattern>,
    errors: Vec<String>,
}

impl Guard {
    /// Compiles the patterns. One that does not compile is left out and reported by
    /// [`errors`](Guard::errors): the others still guard.
    pub fn new(deny: &[String], ask: &[String], allow: &[String], defaults: bool) -> Guard {
        let mut errors = Vec::new();
        let mut compile = |name: &str, source: &str| match Pattern::compile(name, source) {
            Ok(pattern) => Some(pattern),
            Err(error) => {
                errors.push(error);
                None
            }
        };
        let defaults = if defaults { DEFAULT_PATTERNS } else { &[] };
        let mut deny_patterns: Vec<Pattern> =
            defaults.iter().filter_map(|(name, _, source)| compile(name, source)).collect();
        deny_patterns.extend(deny.iter().filter_map(|source| compile(source, source)));
        let ask = ask.iter().filter_map(|source| compile(source, source)).collect();
        let allow = allow.iter().filter_map(|source| compile(source, source)).collect();
        Guard { deny: deny_patterns, ask, allow, errors }
    }

    /// The patterns that did not compile, each with the reason.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The first deny among the command line's texts, else the first ask; `None` when nothing
    /// matched. A text that an `allow` pattern matches is exempt.
    ///
    /// A line whose `$( … )` or backticks nest deeper than [`bash::MAX_DEPTH`] cannot be checked:
    /// it is denied, with the pattern [`TOO_DEEP`], whatever the allow patterns say.
    pub fn check(&self, command_line: &str) -> Option<Hit> {
        let Ok(texts) = texts(command_line) else {
            return Some(Hit { verdict: Verdict::Deny, pattern: TOO_DEEP.to_string(), text: command_line.to_string() });
        };
        let mut ask = None;
        for text in texts {
            if self.allow.iter().any(|p| p.matches(&text)) {
                continue;
            }
            if let Some(pattern) = self.deny.iter().find(|p| p.matches(&text)) {
                return Some(Hit { verdict: Verdict::Deny, pattern: pattern.name.clone(), text });
            }
            if ask.is_none() {
                if let Some(pattern) = self.ask.iter().find(|p| p.matches(&text)) {
                    ask = Some(Hit { verdict: Verdict::Ask, pattern: pattern.name.clone(), text });
                }
            }
        }
        ask
    }

    /// [`check`](Guard::check) under a time bound: a line the patterns have not finished
    /// checking within `bound` is denied, with the pattern [`TOO_SLOW`]. The check goes on in
    /// the background until it ends or the process exits (a hook process exits once it answers).
    pub fn check_within(self: &Arc<Guard>, command_line: &str, bound: Duration) -> Option<Hit> {
        let (guard, line) = (Arc::clone(self), command_line.to_string());
        match hookmux_sdk::bound::within(bound, move || guard.check(&line)) {
            Ok(hit) => hit,
            Err(_) => {
                Some(Hit { verdict: Verdict::Deny, pattern: TOO_SLOW.to_string(), text: command_line.to_string() })
            }
        }
    }
}

/// Every text a command line's patterns are tested against (see the module documentation);
/// [`SplitError::TooDeep`] when substitutions nest too deep to follow, in the line or in a script
/// it runs.
pub fn texts(command_line: &str) -> Result<Vec<String>, SplitError> {
    let mut out = Vec::new();
    collect_texts(command_line, 0, &mut out)?;
    Ok(out)
}

fn collect_texts(command_line: &str, depth: usize, out: &mut Vec<String>) -> Result<(), SplitError> {
    let pipelines = match bash::pipelines(command_line) {
        Ok(pipelines) => pipelines,
        Err(SplitError::TooDeep) => return Err(SplitError::TooDeep),
        Err(SplitError::Unclosed) => {
            // An open quote. bash runs a script line by line, so the lines before the broken one
            // would still run: test each line, and a line that cannot be split as it is written.
            for line in command_line.lines() {
                match bash::pipelines(line) {
                    Ok(_) if depth < MAX_NESTING => collect_texts(line, depth + 1, out)?,
                    Err(SplitError::TooDeep) => return Err(SplitError::TooDeep),
                    _ => out.push(line.split_whitespace().collect::<Vec<_>>().join(" ")),
                }
            }
            return Ok(());
        }
    };
    for pipeline in pipelines {
        let mut stages = Vec::new();
        for command in &pipeline {
            let words =
                bash::words(command).unwrap_or_else(|| command.split_whitespace().map(str::to_string).collect());
            let words = program_words(&words);
            if words.is_empty() {
                continue;
            }
            if let Some(script) = inner_script(&words) {
                if depth < MAX_NESTING {
                    collect_texts(&script, depth + 1, out)?;
                } else {
                    out.push(script);
                }
            }
            let text = words.join(" ");
            out.push(text.clone());
            let resolved: Vec<String> =
                words.iter().map(|word| resolved_path(word).unwrap_or_else(|| word.clone())).collect();
            if resolved != words {
                out.push(resolved.join(" "));
            }
            stages.push(text);
        }
        if stages.len() > 1 {
            out.push(stages.join(" | "));
        }
    }
    Ok(())
}

/// The words from the program that actually runs on: assignments, wrappers and keywords skipped.
fn program_words(words: &[String]) -> Vec<String> {
    let mut words: Vec<String> = words.to_vec();
    // `(rm -rf x)` and `{ rm -rf x; }` arrive as `(rm`, `x)`, `{`, `}`.
    if let Some(first) = words.first_mut() {
        *first = first.trim_start_matches(['(', '{']).to_string();
    }
    if let Some(last) = words.last_mut() {
        if last.matches(')').count() > last.matches('(').count() {
            *last = last.trim_end_matches(')').to_string();
        }
    }
    words.retain(|w| !w.is_empty());
    let mut start = 0;
    while start < words.len() {
        let word = words[start].as_str();
        let rest = words.len() - start - 1;
        if rest > 0 && (is_assignment(word) || KEYWORDS.contains(&word)) {
            start += 1;
            continue;
        }
        match wrapped_command(word, &words[start + 1..]) {
            Some(skip) if skip < rest => start += 1 + skip,
            _ => break,
        }
    }
    words.split_off(start)
}

/// A path word with its `.` and `..` resolved as written, when it has any: `/usr/../*` is `/*`,
/// `~/src/..` is `~`. A path that climbs above `~` or `$HOME` is `/`: where it lands is not known
/// here, and the guard assumes the worst.
fn resolved_path(word: &str) -> Option<String> {
    let (root, rest) = ["~", "$HOME", "${HOME}"]
        .into_iter()
        .find_map(|home| {
            word.strip_prefix(home).filter(|rest| rest.is_empty() || rest.starts_with('/')).map(|rest| (home, rest))
        })
        .or_else(|| word.starts_with('/').then_some(("", word)))?;
    if !rest.split('/').any(|part| part == "." || part == "..") {
        return None;
    }
    let mut kept: Vec<&str> = Vec::new();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            // `/..` is `/`, as the kernel has it; above a home folder is somewhere unknown.
            ".." if kept.pop().is_none() && !root.is_empty() => return Some("/".to_string()),
            ".." => {}
            part => kept.push(part),
        }
    }
    Some(match (root, kept.is_empty()) {
        ("", _) => format!("/{}", kept.join("/")),
        (home, true) => home.to_string(),
        (home, false) => format!("{home}/{}", kept.join("/")),
    })
}

const KEYWORDS: &[&str] = &["!", "{", "(", "then", "do", "else", "elif", "if", "while", "until", "time"];

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// When `program` only runs the command after it, how many of `args` belong to `program`
/// (options, their values, a duration): the wrapped command starts after them.
fn wrapped_command(program: &str, args: &[String]) -> Option<usize> {
    let name = program.rsplit('/').next().unwrap_or(program);
    // Options that take the next word as their value, and how many operands precede the command.
    let (with_value, operands): (&[&str], usize) = match name {
        "sudo" => {
            (&["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "-R", "--user", "--group", "--chdir"], 0)
        }
        "doas" => (&["-u", "-C"], 0),
        "env" => (&["-u", "-C", "-S", "--unset", "--chdir", "--split-string"], 0),
        "nice" => (&["-n", "--adjustment"], 0),
        "timeout" => (&["-s", "-k", "--signal", "--kill-after"], 1),
        "stdbuf" => (&["-i", "-o", "-e", "--input", "--output", "--error"], 0),
        "xargs" => (&["-I", "-n", "-P", "-L", "-d", "-a", "-E", "-s", "--max-args", "--max-procs", "--delimiter"], 0),
        "exec" => (&["-a"], 0),
        "nohup" | "time" | "command" | "builtin" => (&[], 0),
        _ => return None,
    };
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            i += 1;
            break;
        }
        let is_option = arg.starts_with('-') && arg.len() > 1;
        let belongs_to_wrapper = is_option || (name == "env" && is_assignment(arg));
        if !belongs_to_wrapper {
            break;
        }
        i += if with_value.contains(&arg.as_str()) { 2 } else { 1 };
    }
    Some(i + operands)
}

/// The script a shell or `eval` runs from its arguments: `bash -c 'SCRIPT'`, `eval WORDS…`.
fn inner_script(words: &[String]) -> Option<String> {
    let (program, args) = words.split_first()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    if name == "eval" {
        return Some(args.join(" "));
    }
    if !matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "fish") {
        return None;
    }
    let mut from_string = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        match arg.as_str() {
            "--" => return from_string.then(|| args.get(i + 1).cloned()).flatten(),
            "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file" => i += 2,
            option if option.starts_with("--") => i += 1,
            option if option.starts_with(['-', '+']) && option.len() > 1 => {
                from_string |= option.starts_with('-') && option.contains('c');
                i += 1;
            }
            script => return from_string.then(|| script.to_string()),
        }
    }
    None
}
