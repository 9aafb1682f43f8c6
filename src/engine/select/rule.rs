//! The `if` field of a handler: one permission rule (`Bash(git *)`, `Edit(src/**)`,
//! `mcp__github__*`), tested against the tool call before the handler is run at all.
//!
//! Claude Code evaluates `if` only on tool events; on any other event a handler with `if` never
//! runs. Bash rules are tested against every subcommand of the command line (split on `;`, `&&`,
//! `||`, `|`, `&` and newlines, including those inside `$( … )` and backticks), after leading
//! `VAR=value` assignments and the `timeout`, `nice` and `nohup` wrappers are stripped; the
//! handler runs when any subcommand matches. A command hookmux cannot split (an unclosed quote,
//! or `$( … )` and backticks nested more than `hookmux_sdk::bash::MAX_DEPTH` deep) fails open:
//! the handler runs, so a guard behind the rule is never skipped for a line it could not read.
//! The splitting is `hookmux_sdk::bash`, shared with handlers that guard Bash commands. File
//! rules use gitignore-style globs. A rule is about the tool it names and no other: `Edit(…)`
//! does not fire on Write or NotebookEdit (Claude Code 2.1.328 does not widen it), only `Task`
//! and `Agent` name one tool, and `mcp__server` names every tool of that server.

use globset::GlobBuilder;
use hookmux_platform::path;
use hookmux_sdk::Event;
use std::path::Path;

/// A parsed rule: `Tool` or `Tool(specifier)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub tool: String,
    pub specifier: Option<String>,
}

/// Whether the handler runs for this call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IfVerdict {
    Run,
    Skip(String),
}

impl Rule {
    pub fn parse(text: &str) -> Result<Rule, String> {
        let text = text.trim();
        let (tool, specifier) = match text.find('(') {
            Some(open) => {
                let Some(inner) = text[open + 1..].strip_suffix(')') else {
                    return Err(format!("`{text}` opens `(` but does not end with `)`"));
                };
                (&text[..open], Some(inner.to_string()))
            }
            None => (text, None),
        };
        if tool.is_empty() || !tool.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '*')) {
            return Err(format!("`{text}` does not start with a tool name such as Bash, Edit or mcp__server__tool"));
        }
        let specifier = specifier.filter(|s| !s.is_empty() && s != "*");
        Ok(Rule { tool: tool.to_string(), specifier })
    }

    /// Tests the rule against a tool call. `root` and `home` anchor path rules.
    pub fn verdict(&self, event: &Event, root: &Path, home: Option<&Path>) -> IfVerdict {
        let tool = event.tool_name().unwrap_or_default();
        if !self.names_tool(tool) {
            return IfVerdict::Skip(format!("`if: {self}` is about {}, not {tool}", self.tool));
        }
        let Some(specifier) = &self.specifier else { return IfVerdict::Run };
        let hit = match tool {
            "Bash" | "PowerShell" => match event.tool_input_str("command") {
                Some(command) => bash_matches(specifier, command),
                None => Some(false),
            },
            "Read" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "Glob" | "Grep" => {
                let path = ["file_path", "notebook_path", "path"].iter().find_map(|key| event.tool_input_str(key));
                match path {
                    Some(path) => path_matches(specifier, path, event.cwd().as_deref().unwrap_or(root), root, home),
                    None => Some(false),
                }
            }
            "WebFetch" => match specifier.strip_prefix("domain:") {
                Some(domain) => event.tool_input_str("url").map(|url| host_matches(domain, url)),
                None => None,
            },
            "Agent" | "Task" => event.tool_input_str("subagent_type").map(|t| wildcard_matches(specifier, t)),
            "Skill" => event
                .tool_input_str("skill")
                .or_else(|| event.tool_input_str("command"))
                .map(|s| wildcard_matches(specifier, s)),
            _ => None,
        };
        match hit {
            Some(true) | None => IfVerdict::Run,
            Some(false) => IfVerdict::Skip(format!("`if: {self}` does not match this {tool} call")),
        }
    }

    fn names_tool(&self, tool: &str) -> bool {
        let rule = self.tool.as_str();
        if rule == tool {
            return true;
        }
        match rule {
            "Task" => tool == "Agent",
            "Agent" => tool == "Task",
            // A file rule names one tool: `Edit(…)` is not about Write or NotebookEdit, as
            // Claude Code's `if` has it, and `Read(…)` is not about Glob or Grep.
            _ if rule.starts_with("mcp__") => {
                // `mcp__server` and `mcp__server__*` name every tool of that server.
                let server = rule.strip_suffix("__*").unwrap_or(rule);
                tool.strip_prefix(server).is_some_and(|rest| rest.starts_with("__"))
                    || (rule.contains('*') && wildcard_matches(rule, tool))
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.specifier {
            Some(s) => write!(f, "{}({s})", self.tool),
            None => f.write_str(&self.tool),
        }
    }
}

/// `None` when the command cannot be split (an open quote, or substitutions nested past
/// [`hookmux_sdk::bash::MAX_DEPTH`]): no subcommand can be ruled out, so the caller runs the
/// handler. The subcommands are slices of `command`, and the cap keeps their total length within
/// `MAX_DEPTH + 1` times the command's, so testing them all stays linear in the command too.
fn bash_matches(pattern: &str, command: &str) -> Option<bool> {
    let subcommands = hookmux_sdk::bash::subcommands(command).ok()?;
    Some(subcommands.into_iter().map(strip_prefixes).any(|sub| shell_pattern_matches(pattern, sub)))
}

/// Exact (`npm test`), legacy prefix (`npm:*`) or wildcard (`git *`, `* --version`). A single
/// trailing ` *` also matches the bare command: `git *` matches `git`.
fn shell_pattern_matches(pattern: &str, command: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return command == prefix || command.starts_with(&format!("{prefix} "));
    }
    if !pattern.contains('*') {
        return command == pattern;
    }
    if let Some(head) = pattern.strip_suffix(" *") {
        if !head.contains('*') && command == head {
            return true;
        }
    }
    wildcard_matches(pattern, command)
}

/// `*` matches any run of characters (spaces and slashes included); everything else is literal.
pub fn wildcard_matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            backtrack = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((star, matched)) = backtrack {
            pi = star + 1;
            ti = matched + 1;
            backtrack = Some((star, matched + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Leading `VAR=value` words and process wrappers, which do not change what runs.
fn strip_prefixes(command: &str) -> &str {
    let mut rest = command.trim();
    loop {
        let (word, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let tail = tail.trim_start();
        let assignment = word.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        });
        if assignment && !tail.is_empty() {
            rest = tail;
            continue;
        }
        match word {
            "nohup" if !tail.is_empty() => rest = tail,
            "nice" | "timeout" if !tail.is_empty() => {
                // Skip the wrapper's options and, for timeout, its duration.
                let mut words = tail;
                let mut needs_duration = word == "timeout";
                loop {
                    let (next, after) = words.split_once(char::is_whitespace).unwrap_or((words, ""));
                    if next.starts_with('-') && !after.is_empty() {
                        words = after.trim_start();
                        if word == "nice" && next == "-n" {
                            words = words.split_once(char::is_whitespace).map(|(_, a)| a.trim_start()).unwrap_or("");
                        }
                    } else if needs_duration && !after.is_empty() {
                        needs_duration = false;
                        words = after.trim_start();
                    } else {
                        break;
                    }
                }
                if words.is_empty() {
                    return rest;
                }
                rest = words;
            }
            _ => return rest,
        }
    }
}

/// gitignore-style path rules: `//abs` is absolute, `~/x` is under the home folder, `/x` and
/// `./x` are under the project root and the cwd, and a pattern without a `/` matches the file
/// name at any depth. The path is normalized (`src/../.env` is `.env`), and tested as spelled and
/// as it really is, each against the anchor taken the same way: a host names the project the way
/// it found it (`/var/…` or `/private/var/…` on macOS) and a model names a file however it likes,
/// and a hook meant for a file runs for every spelling of it.
fn path_matches(pattern: &str, path: &str, cwd: &Path, root: &Path, home: Option<&Path>) -> Option<bool> {
    let (base, glob) = if let Some(abs) = pattern.strip_prefix("//") {
        (Path::new("/"), abs.to_string())
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        (home?, rest.to_string())
    } else if let Some(rest) = pattern.strip_prefix("./") {
        (cwd, rest.to_string())
    } else if let Some(rest) = pattern.strip_prefix('/') {
        (root, rest.to_string())
    } else if !pattern.contains('/') {
        (root, format!("**/{pattern}"))
    } else {
        (root, pattern.to_string())
    };
    let glob = GlobBuilder::new(&glob).literal_separator(true).build().ok()?.compile_matcher();
    let spelled = (path::absolute(Path::new(path), cwd), path::normalize(base));
    let real = (path::resolve_links(&spelled.0), path::resolve_links(&spelled.1));
    Some(
        [spelled, real]
            .iter()
            .any(|(path, base)| path.strip_prefix(base).is_ok_and(|relative| glob.is_match(relative))),
    )
}

fn host_matches(domain: &str, url: &str) -> bool {
    let after_scheme = url.split_once("://").map(|(_, rest)| rest).unwrap_or(url);
    let authority = after_scheme.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default().split(':').next().unwrap_or_default();
    let host = host.to_ascii_lowercase();
    let domain = domain.to_ascii_lowercase();
    host == domain || host.ends_with(&format!(".{domain}"))
}

#[cfg(test)]
mod tests;
