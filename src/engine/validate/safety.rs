//! The safety checks of `hooks validate`: commands that run what they download, `rm -rf` on a
//! variable or on `/`, `sudo`, and API keys written into the settings.
//!
//! A hook runs unattended, on every matching event, with the user's rights, so these are what
//! dedicated shell linters warn about, aimed at hooks. Commands are split by `hookmux_sdk::bash`,
//! the splitter behind `if: "Bash(…)"` rules: into pipelines and simple commands, descending into
//! `$( … )` and backticks; `<( … )`, `sh -c '…'` and `eval` are followed here. A simple command's
//! words are the splitter's `words`, which tells the program of each simple command from its
//! arguments (`echo sudo` and `pseudo` are not `sudo`). A line the splitter refuses (a quote left
//! open, nesting too deep) is read word by word rather than skipped. A finding is a warning: a
//! missed one costs less than a false alarm on every run of a CI job.

use crate::engine::config::diagnostic::Check;
use hookmux_sdk::bash;

/// One thing found in a command or a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub check: Check,
    pub message: String,
    pub hint: String,
}

/// How deep `sh -c '…'` and `eval` scripts are followed (substitutions are the splitter's, up to
/// `bash::MAX_DEPTH`): far beyond what a hook writes, and shallow enough that a hostile settings
/// file cannot exhaust the stack. Deeper, the rest is read word by word.
const MAX_DEPTH: usize = 8;

/// Programs that download: `curl URL | sh`.
const DOWNLOADERS: &[&str] = &["curl", "wget", "fetch", "aria2c"];

/// Shells: they run a script read on stdin (when given no script), named by `<( … )`, or given
/// with `-c`.
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish"];

/// Other programs that run a script read on stdin or named by `<( … )`.
const INTERPRETERS: &[&str] = &["python", "python2", "python3", "perl", "ruby", "node", "php", "pwsh"];

fn is_interpreter(name: &str) -> bool {
    SHELLS.contains(&name) || INTERPRETERS.contains(&name)
}

/// Words that run the command after them: skipped to find the program.
const WRAPPERS: &[&str] = &["command", "exec", "nohup", "time", "nice", "builtin", "stdbuf", "caffeinate"];

/// Shell words that start a command list rather than name a program.
const KEYWORDS: &[&str] = &["!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"];

/// The findings of a shell command (a `command` handler without `args`), each check once.
pub fn command(text: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    scan_shell(text, 0, &mut found);
    dedup(found)
}

/// The findings of an exec-form command (`command` with `args`): no shell reads it, so only
/// the program and a shell's `-c` script are looked at.
pub fn argv(program: &str, args: &[String]) -> Vec<Finding> {
    let words: Vec<Word> = std::iter::once(program)
        .chain(args.iter().map(String::as_str))
        .map(|value| Word { value: value.to_string(), ..Word::default() })
        .collect();
    let mut found = Vec::new();
    scan_command(&words, None, 0, true, &mut found);
    dedup(found)
}

fn dedup(found: Vec<Finding>) -> Vec<Finding> {
    let mut seen = Vec::new();
    found
        .into_iter()
        .filter(|finding| {
            let new = !seen.contains(&finding.check);
            seen.push(finding.check);
            new
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Reading a command line: `hookmux_sdk::bash` splits it, as it does for `if` rules.

/// A word of a simple command: its value with quotes removed, and the variables expanded in it
/// (outside single quotes, as written between `$` and the end: `HOME`, `{DIR:?}`). What a
/// `$( … )`, a backtick or a `<( … )` in it runs is read as a command of its own, and shows as
/// `…` here: `$(…)/$SUB`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Word {
    value: String,
    vars: Vec<String>,
}

/// A `$` the shell does not expand (in single quotes, or escaped), while words are split.
const LITERAL_DOLLAR: char = '\u{E000}';
/// A redirection operator (`>`, `2>&1`, `<<<`…) while words are split, as a word of its own: it
/// and the word after it (the file) are not arguments.
const REDIRECT: char = '\u{E001}';
/// What the text of a substitution is replaced with in the command that holds it.
const ELIDED: char = '…';

fn scan_shell(text: &str, depth: usize, found: &mut Vec<Finding>) {
    // `<( … )` and `>( … )` run their command as `$( … )` does: the splitter reads them as that.
    // Both are two bytes, so the offsets of the rewritten line are those of `text`.
    let line = text.replace("<(", "$(").replace(">(", "$(");
    match bash::pipelines(&line) {
        Ok(pipelines) if depth < MAX_DEPTH => scan_pipelines(text, &line, &pipelines, depth, true, found),
        _ => {
            // A quote or substitution left open, nesting deeper than the splitter follows, or
            // scripts nested deeper than `MAX_DEPTH`: rather than skip the line, read it word by
            // word, with no quotes and with every substitution a command of its own.
            let flat: String = text
                .chars()
                .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                .map(|c| if matches!(c, '`' | '(' | ')') { ';' } else { c })
                .collect();
            // Nothing is left that the splitter could refuse.
            if let Ok(pipelines) = bash::pipelines(&flat) {
                scan_pipelines(&flat, &flat, &pipelines, depth, false, found);
            }
        }
    }
}

/// The checks of the pipelines `bash::pipelines` found in `line` (`text`, with `<(` read as
/// `$(`). `follow`: whether `sh -c` and `eval` scripts are read as shell text of their own (else
/// the words after them are read as a command, `text` having no quotes left).
fn scan_pipelines(
    text: &str,
    line: &str,
    pipelines: &[bash::Pipeline<'_>],
    depth: usize,
    follow: bool,
    found: &mut Vec<Finding>,
) {
    // Each command is a slice of `line`: where it is tells what runs inside it, since the
    // commands of a substitution lie within the command that holds it. The splitter promises
    // slices of the line; offsets are clamped all the same, so that no text is cut out of bounds.
    let base = line.as_ptr() as usize;
    let span = |command: &str| {
        let start = (command.as_ptr() as usize).saturating_sub(base).min(line.len());
        (start, (start + command.len()).min(line.len()))
    };
    let mut spans: Vec<(usize, usize)> = pipelines.iter().flatten().map(|command| span(command)).collect();
    spans.sort_unstable();
    let inside =
        |(start, end): (usize, usize)| spans.partition_point(|s| s.0 <= start)..spans.partition_point(|s| s.0 < end);
    let words: Vec<Vec<Word>> = spans
        .iter()
        .map(|&(start, end)| read_words(text.get(start..end).unwrap_or(""), start, &spans[inside((start, end))]))
        .collect();
    let runs: Vec<Option<usize>> = words.iter().map(|words| program(words, &mut Vec::new())).collect();
    let programs: Vec<Option<&str>> =
        words.iter().zip(&runs).map(|(words, run)| run.map(|run| basename(&words[run].value))).collect();
    for pipeline in pipelines {
        let mut downloaded: Option<&str> = None;
        for &command in pipeline {
            let at = span(command);
            let index = spans.partition_point(|s| s.0 < at.0);
            let words = &words[index];
            if let (Some(downloader), Some(run)) = (downloaded, runs[index]) {
                if reads_script_from_stdin(&words[run..]) {
                    found.push(pipe_to_shell(&format!("{downloader} … | {}", basename(&words[run].value))));
                }
            }
            if let Some(run) = programs[index].filter(|run| DOWNLOADERS.contains(run)) {
                downloaded = Some(run);
            }
            let runs_download = programs[inside(at)].iter().flatten().copied().find(|p| DOWNLOADERS.contains(p));
            scan_command(words, runs_download, depth, follow, found);
        }
    }
}

/// The words of a simple command (`raw`, at `offset` in the line), with the text of the commands
/// at `inner` (those of its substitutions, sorted) elided and redirections left out.
fn read_words(raw: &str, offset: usize, inner: &[(usize, usize)]) -> Vec<Word> {
    let bytes = raw.as_bytes();
    let mut elided = String::with_capacity(raw.len());
    let mut at = 0;
    for &(start, end) in inner {
        let (mut start, mut end) = (start.saturating_sub(offset), end.saturating_sub(offset).min(bytes.len()));
        while start > at && bytes[start - 1].is_ascii_whitespace() {
            start -= 1;
        }
        while end < bytes.len() && bytes[end].is_ascii_whitespace() {
            end += 1;
        }
        if start >= at {
            elided.push_str(raw.get(at..start).unwrap_or(""));
            elided.push(ELIDED);
        }
        at = at.max(end);
    }
    elided.push_str(raw.get(at..).unwrap_or(""));

    // Mark what quotes leave unexpanded and what redirects, then let the splitter's `words` take
    // the quotes off.
    let mut marked = String::with_capacity(elided.len());
    let (mut single, mut double) = (false, false);
    let mut word_start = 0;
    let mut opened = 0usize;
    let mut chars = elided.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // The markers mean nothing when a command holds them.
            LITERAL_DOLLAR | REDIRECT => marked.push(char::REPLACEMENT_CHARACTER),
            '\'' if single => {
                single = false;
                marked.push(c);
            }
            '$' if single => marked.push(LITERAL_DOLLAR),
            _ if single => marked.push(c),
            '"' if double => {
                double = false;
                marked.push(c);
            }
            '\\' if chars.peek() == Some(&'$') => {
                chars.next();
                marked.push(LITERAL_DOLLAR);
            }
            '\\' if double => {
                marked.push(c);
                marked.extend(chars.next());
            }
            _ if double => marked.push(c),
            '\\' => {
                if let Some(next) = chars.next() {
                    marked.push(c);
                    marked.push(next);
                }
            }
            '\'' => {
                single = true;
                marked.push(c);
            }
            '"' => {
                double = true;
                marked.push(c);
            }
            '$' | '<' | '>' if chars.peek() == Some(&'(') => {
                chars.next();
                opened += 1;
                marked.push(c);
                marked.push('(');
            }
            ')' if opened > 0 => {
                opened -= 1;
                marked.push(c);
            }
            // A subshell's parentheses: `(curl x | sh)`.
            '(' | ')' => marked.push(' '),
            '<' | '>' | '&' if c != '&' || chars.peek() == Some(&'>') => {
                // An fd number written right before it (`2>`) is part of the redirection.
                if marked.len() > word_start && marked[word_start..].bytes().all(|b| b.is_ascii_digit()) {
                    marked.truncate(word_start);
                }
                marked.extend([' ', REDIRECT, ' ']);
                while chars.next_if(|c| matches!(c, '<' | '>' | '&' | '|')).is_some() {}
                word_start = marked.len();
            }
            c if c.is_whitespace() => {
                marked.push(c);
                word_start = marked.len();
            }
            c => marked.push(c),
        }
    }
    let split = bash::words(&marked).unwrap_or_else(|| marked.split_whitespace().map(str::to_string).collect());
    let mut words = Vec::with_capacity(split.len());
    let mut split = split.into_iter();
    while let Some(word) = split.next() {
        if word.starts_with(REDIRECT) {
            split.next();
            continue;
        }
        words.push(Word { vars: vars(&word), value: word.replace(LITERAL_DOLLAR, "$") });
    }
    words
}

/// The variables a word expands, as written after the `$`: `HOME`, `{DIR:?}`, `1`.
fn vars(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut vars = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '$' {
            i += 1;
            continue;
        }
        match chars.get(i + 1) {
            Some('{') => {
                let mut depth = 0usize;
                let mut end = i + 2;
                while let Some(&c) = chars.get(end) {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    end += 1;
                }
                vars.push(format!("{{{}}}", chars[i + 2..end].iter().collect::<String>()));
                i = end + 1;
            }
            Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
                let name: String =
                    chars[i + 1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == '_').collect();
                i += 1 + name.len();
                vars.push(name);
            }
            Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(*c) => {
                vars.push(c.to_string());
                i += 2;
            }
            _ => i += 1,
        }
    }
    vars
}

/// The checks of one simple command. `runs_download`: a downloader that runs in one of its
/// substitutions (`bash <(curl …)`).
fn scan_command(
    mut words: &[Word],
    mut runs_download: Option<&str>,
    depth: usize,
    follow: bool,
    found: &mut Vec<Finding>,
) {
    loop {
        // `sudo` is reported even with no program after it: `sudo -v` prompts too.
        let run = program(words, found);
        let Some(run) = run else { return };
        let name = basename(&words[run].value);
        let args = &words[run + 1..];
        if name == "rm" {
            if let Some(finding) = dangerous_rm(args) {
                found.push(finding);
            }
        }
        let runs_text = is_interpreter(name) || matches!(name, "source" | "." | "eval");
        if let Some(downloader) = runs_download.filter(|_| runs_text) {
            found.push(pipe_to_shell(&format!("{name} <({downloader} …)")));
        }
        // `sh -c 'script'` and `eval 'script'`: the script is shell text too.
        let script = if SHELLS.contains(&name) {
            args.iter().position(|w| is_c_flag(&w.value)).map(|position| &args[position + 1..])
        } else {
            (name == "eval").then_some(args)
        };
        let Some(script) = script else { return };
        if !follow {
            // The line was read without quotes: the script is the words after.
            words = script;
            runs_download = None;
            continue;
        }
        let text = if name == "eval" {
            script.iter().map(|w| w.value.as_str()).collect::<Vec<_>>().join(" ")
        } else {
            script.first().map(|w| w.value.clone()).unwrap_or_default()
        };
        scan_shell(&text, depth + 1, found);
        return;
    }
}

fn is_c_flag(word: &str) -> bool {
    word.strip_prefix('-').is_some_and(|flags| !flags.starts_with('-') && flags.contains('c'))
}

/// The index of the word that names the program run: after variable assignments, shell
/// keywords, `env` and other wrappers, and `sudo` (which is reported into `found`).
fn program(words: &[Word], found: &mut Vec<Finding>) -> Option<usize> {
    let mut i = 0;
    while let Some(word) = words.get(i) {
        let value = word.value.as_str();
        let name = basename(value);
        if is_assignment(value) || KEYWORDS.contains(&value) || WRAPPERS.contains(&name) {
            i += 1;
        } else if name == "env" {
            i += 1;
            while words.get(i).is_some_and(|w| w.value.starts_with('-') || is_assignment(&w.value)) {
                let takes_value = matches!(words[i].value.as_str(), "-u" | "-C" | "-S" | "--unset" | "--chdir");
                i += 1 + usize::from(takes_value);
            }
        } else if name == "sudo" || name == "doas" {
            found.push(Finding {
                check: Check::Sudo,
                message: format!(
                    "the command runs `{name}`: a hook runs unattended, with no one to answer a password prompt (it \
                     waits until its timeout), and on every matching event with root's rights"
                ),
                hint: "do the privileged part once, by hand or in provisioning; or allow exactly the one command \
                       needed in sudoers, and run that"
                    .to_string(),
            });
            i += 1;
            while let Some(option) = words.get(i).filter(|w| w.value.starts_with('-')) {
                let takes_value = matches!(option.value.as_str(), "-u" | "-g" | "-C" | "-h" | "-p" | "-r" | "-t");
                i += 1 + usize::from(takes_value);
            }
        } else {
            return Some(i);
        }
    }
    None
}

fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else { return false };
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// Whether an interpreter with these words (its own first) runs what it reads on stdin: no
/// script file or inline code is given, or the script is `-`.
fn reads_script_from_stdin(words: &[Word]) -> bool {
    if !is_interpreter(basename(&words[0].value)) {
        return false;
    }
    for word in &words[1..] {
        let value = word.value.as_str();
        if value == "-" || value == "-s" || value == "--" {
            return true;
        }
        if value.starts_with('-') {
            if matches!(value, "-m" | "-e" | "-E" | "-r" | "-p") || is_c_flag(value) {
                return false;
            }
            continue;
        }
        // A script file: stdin is its input, not its code.
        return false;
    }
    true
}

/// The downloader that starts a command of this shell text, if one does.
fn pipe_to_shell(shape: &str) -> Finding {
    Finding {
        check: Check::PipeToShell,
        message: format!(
            "`{shape}` runs whatever the server sends, unread, on every matching event: a compromised or \
             spoofed server runs code on this machine"
        ),
        hint: "download the script once, check it (a pinned checksum or signature), keep it in the repository and \
               run that file"
            .to_string(),
    }
}

/// `rm` with both `-r` and `-f` on a target that is a variable (not `${VAR:?}`), `/` or the
/// home folder.
fn dangerous_rm(args: &[Word]) -> Option<Finding> {
    let (mut recursive, mut force) = (false, false);
    let mut targets = Vec::new();
    let mut options_done = false;
    for word in args {
        let value = word.value.as_str();
        if !options_done && value == "--" {
            options_done = true;
        } else if !options_done && value.starts_with("--") {
            recursive |= value == "--recursive";
            force |= value == "--force";
        } else if !options_done && value.starts_with('-') && value.len() > 1 {
            recursive |= value.contains(['r', 'R']);
            force |= value.contains('f');
        } else {
            targets.push(word);
        }
    }
    if !(recursive && force) {
        return None;
    }
    for target in targets {
        let value = target.value.trim_end_matches('*');
        if matches!(value, "/" | "~" | "~/") {
            return Some(Finding {
                check: Check::DangerousRm,
                message: format!(
                    "`rm -rf {}` removes everything the hook can write, on every matching event",
                    target.value
                ),
                hint: "name the exact folder to remove".to_string(),
            });
        }
        let named = |var: &String| {
            let name = var.trim_start_matches('{').split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next();
            name.filter(|n| !n.is_empty()).unwrap_or(var.as_str()).to_string()
        };
        // A folder the host always sets, with a path below it: `"$CLAUDE_PROJECT_DIR/.cache"`.
        let below_set_folder = |var: &String| {
            let name = named(var);
            SET_BY_HOST.contains(&name.as_str())
                && target.vars.len() == 1
                && without(&target.value, &name).trim_matches(['/', '*', '.']).chars().next().is_some()
        };
        if let Some(var) = target.vars.iter().find(|var| !guarded(var) && !below_set_folder(var)) {
            let name = named(var);
            let name = name.as_str();
            return Some(Finding {
                check: Check::DangerousRm,
                message: format!(
                    "`rm -rf {}`: when `{name}` is empty or unset, this removes from the wrong place (`{}`)",
                    target.value,
                    empty_value(&target.value, name)
                ),
                hint: format!(
                    "write `${{{name}:?}}` so that the shell stops when it is unset or empty, quote it, and make sure \
                     the path cannot be `/`"
                ),
            });
        }
    }
    None
}

/// Folders dispatch always sets for a hook: the project's, and a plugin's for its own hooks.
const SET_BY_HOST: &[&str] = &["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// `${VAR:?message}` or `${VAR?message}`: the shell stops when it is unset.
fn guarded(var: &str) -> bool {
    var.strip_prefix('{').is_some_and(|inner| {
        let name_end = inner.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(inner.len());
        let rest = &inner[name_end..];
        rest.starts_with(":?") || rest.starts_with('?')
    })
}

/// A target with the variable taken out.
fn without(value: &str, name: &str) -> String {
    value.replace(&format!("${{{name}}}"), "").replace(&format!("${name}"), "")
}

/// What a target becomes when the variable is empty: `$DIR/` → `/`.
fn empty_value(value: &str, name: &str) -> String {
    let empty = without(value, name);
    if empty.is_empty() {
        "the current folder's contents, or nothing".to_string()
    } else {
        empty
    }
}

// Secrets: the same detection masks them in the dispatch trace.
pub use crate::engine::config::secrets::{literal_secret, mask, secrets};

#[cfg(test)]
mod tests;
