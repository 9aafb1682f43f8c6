//! The safety checks of `hooks validate`: commands that run what they download, `rm -rf` on a
//! variable or on `/`, `sudo`, and API keys written into the settings.
//!
//! A hook runs unattended, on every matching event, with the user's rights, so these are what
//! dedicated shell linters warn about, aimed at hooks. Commands are read with a small shell
//! lexer: quotes, escapes, `$VAR`, `${VAR}`, `$( … )`, backticks, `<( … )`, pipes, lists and
//! redirections, which is enough to tell the program of each simple command from its arguments
//! (`echo sudo` and `pseudo` are not `sudo`). What it cannot read it leaves alone: a finding is a
//! warning, and a missed one costs less than a false alarm on every run of a CI job.

use crate::engine::config::diagnostic::Check;

/// One thing found in a command or a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub check: Check,
    pub message: String,
    pub hint: String,
}

/// How deep `$( … )`, `<( … )` and `sh -c '…'` are followed: far beyond what a hook writes, and
/// shallow enough that a hostile settings file cannot exhaust the stack.
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
    scan_command(&words, 0, &mut found);
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
// The lexer.

/// A shell word: its value with quotes removed, the variables expanded in it (outside single
/// quotes, as written between `$` and the end: `HOME`, `{DIR:?}`), and the text of each command
/// or process substitution in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Word {
    value: String,
    vars: Vec<String>,
    substitutions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(Word),
    /// `|` or `|&`: the next command reads this one's output.
    Pipe,
    /// `;`, `&`, `&&`, `||`, a newline, `(`, `)`: the next command is a new pipeline.
    Separator,
    /// `<`, `>`, `>>`, `>&`, `<<<`…: the next word is a file, not an argument.
    Redirect,
}

fn lex(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut word: Option<Word> = None;
    let finish = |word: &mut Option<Word>, tokens: &mut Vec<Token>| {
        if let Some(w) = word.take() {
            tokens.push(Token::Word(w));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                finish(&mut word, &mut tokens);
                tokens.push(Token::Separator);
                i += 1;
            }
            c if c.is_whitespace() => {
                finish(&mut word, &mut tokens);
                i += 1;
            }
            '#' if word.is_none() => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '|' => {
                finish(&mut word, &mut tokens);
                match chars.get(i + 1) {
                    Some('|') => {
                        tokens.push(Token::Separator);
                        i += 2;
                    }
                    Some('&') => {
                        tokens.push(Token::Pipe);
                        i += 2;
                    }
                    _ => {
                        tokens.push(Token::Pipe);
                        i += 1;
                    }
                }
            }
            '&' if chars.get(i + 1) == Some(&'>') => {
                finish(&mut word, &mut tokens);
                tokens.push(Token::Redirect);
                i += 2;
                while chars.get(i).is_some_and(|c| *c == '>') {
                    i += 1;
                }
            }
            ';' | '&' | '(' | ')' => {
                finish(&mut word, &mut tokens);
                tokens.push(Token::Separator);
                i += 1;
            }
            '<' | '>' if chars.get(i + 1) == Some(&'(') => {
                // A process substitution: `<(curl …)`.
                let (inner, next) = balanced(&chars, i + 2, ')');
                let w = word.get_or_insert_with(Word::default);
                w.value.push_str("/dev/fd/63");
                w.substitutions.push(inner);
                i = next;
            }
            '<' | '>' => {
                // An fd number written right before it (`2>`) is part of the redirection.
                if word.as_ref().is_some_and(|w| !w.value.is_empty() && w.value.chars().all(|c| c.is_ascii_digit())) {
                    word = None;
                }
                finish(&mut word, &mut tokens);
                tokens.push(Token::Redirect);
                i += 1;
                while chars.get(i).is_some_and(|c| matches!(c, '<' | '>' | '&' | '|')) {
                    i += 1;
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(Word::default);
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    w.value.push(chars[i]);
                    i += 1;
                }
                i += 1;
            }
            '"' => {
                word.get_or_insert_with(Word::default);
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    let w = word.as_mut().expect("made above");
                    match chars[i] {
                        '\\' if chars.get(i + 1).is_some_and(|c| matches!(c, '$' | '`' | '"' | '\\' | '\n')) => {
                            w.value.push(chars[i + 1]);
                            i += 2;
                        }
                        '$' | '`' => i = expansion(&chars, i, w),
                        c => {
                            w.value.push(c);
                            i += 1;
                        }
                    }
                }
                i += 1;
            }
            '\\' => {
                let w = word.get_or_insert_with(Word::default);
                if let Some(&next) = chars.get(i + 1) {
                    if next != '\n' {
                        w.value.push(next);
                    }
                }
                i += 2;
            }
            '$' | '`' => {
                let w = word.get_or_insert_with(Word::default);
                i = expansion(&chars, i, w);
            }
            c => {
                word.get_or_insert_with(Word::default).value.push(c);
                i += 1;
            }
        }
    }
    finish(&mut word, &mut tokens);
    tokens
}

/// Reads the expansion at `chars[i]` (a `$` or a backtick) into `word`; returns where it ends.
fn expansion(chars: &[char], i: usize, word: &mut Word) -> usize {
    if chars[i] == '`' {
        let (inner, next) = balanced(chars, i + 1, '`');
        word.value.push_str("$(…)");
        word.substitutions.push(inner);
        return next;
    }
    match chars.get(i + 1) {
        Some('(') if chars.get(i + 2) == Some(&'(') => {
            // Arithmetic: `$(( … ))`.
            let (_, next) = balanced(chars, i + 3, ')');
            word.value.push('0');
            next + usize::from(chars.get(next) == Some(&')'))
        }
        Some('(') => {
            let (inner, next) = balanced(chars, i + 2, ')');
            word.value.push_str("$(…)");
            word.substitutions.push(inner);
            next
        }
        Some('{') => {
            let (inner, next) = balanced(chars, i + 2, '}');
            word.value.push_str(&format!("${{{inner}}}"));
            word.vars.push(format!("{{{inner}}}"));
            next
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            let name: String = chars[i + 1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == '_').collect();
            word.value.push('$');
            word.value.push_str(&name);
            let next = i + 1 + name.chars().count();
            word.vars.push(name);
            next
        }
        Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(*c) => {
            word.value.push('$');
            word.value.push(*c);
            word.vars.push(c.to_string());
            i + 2
        }
        _ => {
            word.value.push('$');
            i + 1
        }
    }
}

/// The text from `start` up to the `close` that balances it (nested `(`/`{` and quotes skipped
/// over), and the index after it; at the end of the text when it is never closed.
fn balanced(chars: &[char], start: usize, close: char) -> (String, usize) {
    let open = match close {
        ')' => Some('('),
        '}' => Some('{'),
        _ => None,
    };
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut i = start;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some('"') if c == '\\' => i += 1,
            Some(_) => {}
            None if c == '\\' => i += 1,
            None if (c == '\'' || c == '"') && close != '`' => quote = Some(c),
            None if Some(c) == open => depth += 1,
            None if c == close && depth == 0 => return (chars[start..i].iter().collect(), i + 1),
            None if c == close => depth -= 1,
            None => {}
        }
        i += 1;
    }
    (chars[start.min(chars.len())..].iter().collect(), chars.len())
}

// ---------------------------------------------------------------------------------------------
// The checks.

/// Every pipeline of a shell text, each a list of simple commands (their words, redirection
/// targets left out).
fn pipelines(text: &str) -> Vec<Vec<Vec<Word>>> {
    let mut pipelines = vec![vec![Vec::new()]];
    let mut redirected = false;
    for token in lex(text) {
        let pipeline = pipelines.last_mut().expect("never empty");
        match token {
            Token::Word(word) if redirected => {
                // The file of a redirection is not an argument, but what runs in it still runs.
                redirected = false;
                if !word.substitutions.is_empty() {
                    pipeline.last_mut().expect("never empty").push(Word { value: String::new(), ..word });
                }
            }
            Token::Word(word) => pipeline.last_mut().expect("never empty").push(word),
            Token::Pipe => pipeline.push(Vec::new()),
            Token::Separator => pipelines.push(vec![Vec::new()]),
            Token::Redirect => redirected = true,
        }
    }
    for pipeline in &mut pipelines {
        pipeline.retain(|command| !command.is_empty());
    }
    pipelines.retain(|pipeline| !pipeline.is_empty());
    pipelines
}

fn scan_shell(text: &str, depth: usize, found: &mut Vec<Finding>) {
    if depth > MAX_DEPTH {
        return;
    }
    for pipeline in pipelines(text) {
        let mut downloaded: Option<String> = None;
        for words in &pipeline {
            let run = program(words, &mut Vec::new());
            if let (Some(downloader), Some(run)) = (&downloaded, run) {
                if reads_script_from_stdin(&words[run..]) {
                    found.push(pipe_to_shell(&format!("{downloader} … | {}", basename(&words[run].value))));
                }
            }
            if let Some(run) = run {
                if DOWNLOADERS.contains(&basename(&words[run].value)) {
                    downloaded = Some(basename(&words[run].value).to_string());
                }
            }
            scan_command(words, depth, found);
        }
    }
}

/// The checks of one simple command, and of what runs inside it.
fn scan_command(words: &[Word], depth: usize, found: &mut Vec<Finding>) {
    for inner in words.iter().flat_map(|w| &w.substitutions) {
        scan_shell(inner, depth + 1, found);
    }
    let mut ignored = Vec::new();
    let Some(run) = program(words, &mut ignored) else { return };
    found.extend(ignored);
    let name = basename(&words[run].value);
    let args = &words[run + 1..];
    if name == "rm" {
        if let Some(finding) = dangerous_rm(args) {
            found.push(finding);
        }
    }
    let runs_text = is_interpreter(name) || matches!(name, "source" | "." | "eval");
    if runs_text {
        for word in args {
            let downloads = word.substitutions.iter().find_map(|inner| downloader_in(inner, depth + 1));
            if let Some(downloader) = downloads {
                found.push(pipe_to_shell(&format!("{name} <({downloader} …)")));
            }
        }
    }
    if SHELLS.contains(&name) {
        // `sh -c 'script'`: the script is shell text too.
        if let Some(position) = args.iter().position(|w| is_c_flag(&w.value)) {
            if let Some(script) = args.get(position + 1) {
                scan_shell(&script.value, depth + 1, found);
            }
        }
    }
}

/// `-c`, or a cluster with `c` in it (`-ec`, `-lc`).
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
fn downloader_in(text: &str, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    pipelines(text).iter().flatten().find_map(|words| {
        let run = program(words, &mut Vec::new())?;
        let name = basename(&words[run].value);
        DOWNLOADERS.contains(&name).then(|| name.to_string())
    })
}

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

// ---------------------------------------------------------------------------------------------
// Secrets.

/// What looks like a credential in `text`, each masked (its first 4 characters and `…`) and
/// named: `("sk-a…", "an Anthropic API key")`. `$VAR` and `${VAR}` are not secrets.
pub fn secrets(text: &str) -> Vec<(String, &'static str)> {
    let mut found: Vec<(String, &'static str)> = Vec::new();
    let is_token_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut start = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (index, &(offset, c)) in chars.iter().enumerate() {
        let in_token = is_token_char(c);
        match (start, in_token) {
            (None, true) => start = Some((index, offset)),
            (Some((first, from)), false) => {
                check_token(&chars, first, &text[from..offset], &mut found);
                start = None;
            }
            _ => {}
        }
    }
    if let Some((first, from)) = start {
        check_token(&chars, first, &text[from..], &mut found);
    }
    if let Some(token) = bearer_literal(text) {
        if !found.iter().any(|(masked, _)| *masked == mask(token)) {
            found.push((mask(token), "a bearer token"));
        }
    }
    found
}

fn check_token(chars: &[(usize, char)], first: usize, token: &str, found: &mut Vec<(String, &'static str)>) {
    // A variable's name (`$GITHUB_TOKEN`, `${AWS_KEY}`) is not its value.
    let before = first.checked_sub(1).map(|i| chars[i].1);
    if matches!(before, Some('$' | '{')) {
        return;
    }
    if let Some(kind) = secret_kind(token) {
        let secret = (mask(token), kind);
        if !found.contains(&secret) {
            found.push(secret);
        }
    }
}

fn secret_kind(token: &str) -> Option<&'static str> {
    let alnum = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric());
    let long = |s: &str, n: usize| s.len() >= n;
    let has_digit = |s: &str| s.chars().any(|c| c.is_ascii_digit());
    if let Some(rest) = token.strip_prefix("sk-ant-") {
        return long(rest, 20).then_some("an Anthropic API key");
    }
    if let Some(rest) = token.strip_prefix("sk-") {
        return (long(rest, 20) && has_digit(rest)).then_some("an OpenAI-style API key");
    }
    for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] {
        if let Some(rest) = token.strip_prefix(prefix) {
            return (long(rest, 30) && alnum(rest)).then_some("a GitHub token");
        }
    }
    if let Some(rest) = token.strip_prefix("github_pat_") {
        return long(rest, 22).then_some("a GitHub token");
    }
    if let Some(rest) = token.strip_prefix("AKIA").or_else(|| token.strip_prefix("ASIA")) {
        let shaped = rest.len() == 16 && rest.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        return shaped.then_some("an AWS access key id");
    }
    for prefix in ["xoxb-", "xoxp-", "xoxa-", "xoxs-"] {
        if let Some(rest) = token.strip_prefix(prefix) {
            return (long(rest, 10) && has_digit(rest)).then_some("a Slack token");
        }
    }
    if let Some(rest) = token.strip_prefix("AIza") {
        return (rest.len() >= 35).then_some("a Google API key");
    }
    if let Some(rest) = token.strip_prefix("glpat-") {
        return long(rest, 20).then_some("a GitLab token");
    }
    for prefix in ["sk_live_", "rk_live_"] {
        if let Some(rest) = token.strip_prefix(prefix) {
            return long(rest, 16).then_some("a Stripe secret key");
        }
    }
    None
}

/// The literal after `Bearer ` (any case), when it is long enough to be a token and is not a
/// variable.
fn bearer_literal(text: &str) -> Option<&str> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("bearer") {
        let start = from + at;
        from = start + "bearer".len();
        let word_start = start == 0 || !text[..start].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let rest = &text[from..];
        let Some(token) = rest.strip_prefix([' ', '\t']) else { continue };
        let token = token.trim_start();
        let end = token.find(|c: char| c.is_whitespace() || "\"'`;|&)".contains(c)).unwrap_or(token.len());
        let token = &token[..end];
        if word_start && literal_secret(token) {
            return Some(token);
        }
    }
    None
}

/// A value written out (no `$`), long enough to be a credential rather than a placeholder.
pub fn literal_secret(value: &str) -> bool {
    value.len() >= 16
        && !value.contains('$')
        && !value.contains(char::is_whitespace)
        && !value.starts_with('<')
        && value.chars().any(|c| c.is_ascii_digit())
}

/// The first 4 characters and `…`: enough to find it, not enough to use it.
pub fn mask(secret: &str) -> String {
    let head: String = secret.chars().take(4).collect();
    format!("{head}…")
}

#[cfg(test)]
mod tests;
