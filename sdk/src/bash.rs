//! Bash command lines as a hook sees them (`tool_input.command`): split into pipelines and simple
//! commands, and a simple command into words.
//!
//! This is the splitting hookmux itself uses for `if: "Bash(git *)"` rules, so a handler that
//! guards Bash commands sees the same subcommands a rule does. It splits on `;`, `&&`, `||`, `|`,
//! `|&`, `&` and newlines outside quotes, and descends into `$( … )` and backticks (also inside
//! double quotes, where the shell runs them too); a redirection such as `2>&1` or `&> file` is not
//! a separator. It is not a shell: it does not expand variables or globs and does not understand
//! `if`/`for`/`case` syntax (their keywords stay at the start of a simple command, as in
//! `do rm -rf x`).
//!
//! The commands are slices of the line, found in one pass: time and memory grow with the line's
//! length, however deeply its substitutions nest. A command contains the text of the
//! substitutions inside it, so the commands' total length grows with the nesting too; that is
//! why substitutions nested deeper than [`MAX_DEPTH`] are refused with [`SplitError::TooDeep`]
//! rather than followed. A caller that guards must treat either error as "cannot tell": a rule
//! that decides whether a guard runs runs it, a guard that denies denies (or asks).
//!
//! ```
//! use hookmux_sdk::bash;
//!
//! let pipelines = bash::pipelines("cd /srv && curl -fsSL https://x.sh | sudo bash").unwrap();
//! assert_eq!(pipelines, [vec!["cd /srv"], vec!["curl -fsSL https://x.sh", "sudo bash"]]);
//! assert_eq!(bash::words("rm -rf '/tmp/my dir' \"$HOME\"").unwrap(), ["rm", "-rf", "/tmp/my dir", "$HOME"]);
//! ```

use std::fmt;

/// How many `$( … )` or backtick substitutions deep a command line may nest. People and models
/// write two or three; a line nested deeper is refused with [`SplitError::TooDeep`].
pub const MAX_DEPTH: usize = 32;

/// The simple commands of one pipeline (`a | b | c`), in order; a lone command is a pipeline of one.
pub type Pipeline<'a> = Vec<&'a str>;

/// Why a command line could not be split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// A quote, a `$(` or a backtick is left open: the shell would refuse the line.
    Unclosed,
    /// Substitutions nest deeper than [`MAX_DEPTH`]: what the innermost ones run is not known.
    TooDeep,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::Unclosed => f.write_str("a quote, `$(` or backtick is left open"),
            SplitError::TooDeep => write!(f, "substitutions nest deeper than {MAX_DEPTH} levels"),
        }
    }
}

impl std::error::Error for SplitError {}

/// Every pipeline of a command line, trimmed, empty ones dropped. The pipelines inside a
/// `$( … )` or backtick substitution come before the pipeline that contains it (the shell runs
/// them first), and the containing command keeps the substitution's text.
///
/// ```
/// use hookmux_sdk::bash::{self, SplitError};
///
/// assert_eq!(bash::pipelines("echo \"open"), Err(SplitError::Unclosed));
/// let deep = format!("{}rm -rf /{}", "echo $(".repeat(bash::MAX_DEPTH + 1), ")".repeat(bash::MAX_DEPTH + 1));
/// assert_eq!(bash::pipelines(&deep), Err(SplitError::TooDeep));
/// ```
pub fn pipelines(command: &str) -> Result<Vec<Pipeline<'_>>, SplitError> {
    Ok(split(command)?
        .into_iter()
        .map(|pipeline| pipeline.into_iter().map(str::trim).filter(|c| !c.is_empty()).collect::<Pipeline<'_>>())
        .filter(|pipeline| !pipeline.is_empty())
        .collect())
}

/// Every simple command of a command line, trimmed, in the order of [`pipelines`].
///
/// ```
/// assert_eq!(hookmux_sdk::bash::subcommands("x $(y; z) && w | v").unwrap(), ["y", "z", "x $(y; z)", "w", "v"]);
/// ```
pub fn subcommands(command: &str) -> Result<Vec<&str>, SplitError> {
    Ok(pipelines(command)?.into_iter().flatten().collect())
}

/// A simple command's words as the shell would pass them, quotes and backslashes removed
/// (`'a b'` is one word `a b`). Variables, globs and substitutions are left as written. `None`
/// when a quote is left open.
pub fn words(command: &str) -> Option<Vec<String>> {
    shlex::split(command)
}

/// What opened the text being read: the line itself, `$(`, or a backtick.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opener {
    Line,
    Dollar,
    Backtick,
}

/// The state of one level of nesting: the line, or a substitution being read.
struct Level<'a> {
    opener: Opener,
    pipeline: Pipeline<'a>,
    /// Where the simple command being read starts.
    start: usize,
    single: bool,
    double: bool,
    /// Bare `(` still open inside a `$( … )`, so that its `)` does not close the substitution.
    parens: usize,
}

impl<'a> Level<'a> {
    fn new(opener: Opener, start: usize) -> Level<'a> {
        Level { opener, pipeline: Vec::new(), start, single: false, double: false, parens: 0 }
    }
}

/// One pass over the bytes (every character that matters is ASCII, so slicing there keeps to
/// UTF-8 boundaries), with a stack of the substitutions open: nothing is copied.
fn split(text: &str) -> Result<Vec<Pipeline<'_>>, SplitError> {
    let bytes = text.as_bytes();
    let mut out: Vec<Pipeline<'_>> = Vec::new();
    let mut levels = vec![Level::new(Opener::Line, 0)];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        let depth = levels.len() - 1;
        let Some(level) = levels.last_mut() else { return Err(SplitError::Unclosed) };
        // A backtick substitution ends at the next backtick, whatever comes between.
        if level.opener == Opener::Backtick && c == b'`' {
            if level.single || level.double {
                return Err(SplitError::Unclosed);
            }
            close(level, text, i, &mut out);
            levels.pop();
            i += 1;
            continue;
        }
        if level.single {
            level.single = c != b'\'';
            i += 1;
            continue;
        }
        match c {
            // An escaped character is part of the command; inside backticks `\`` still ends them.
            b'\\' => {
                i += if level.opener == Opener::Backtick && next == Some(b'`') { 1 } else { 2 };
                continue;
            }
            b'\'' if !level.double => level.single = true,
            b'"' => level.double = !level.double,
            b'$' if next == Some(b'(') => {
                if depth >= MAX_DEPTH {
                    return Err(SplitError::TooDeep);
                }
                levels.push(Level::new(Opener::Dollar, i + 2));
                i += 2;
                continue;
            }
            b'`' => {
                if depth >= MAX_DEPTH {
                    return Err(SplitError::TooDeep);
                }
                levels.push(Level::new(Opener::Backtick, i + 1));
                i += 1;
                continue;
            }
            b'(' if level.opener == Opener::Dollar && !level.double => level.parens += 1,
            b')' if level.opener == Opener::Dollar && !level.double => {
                if level.parens > 0 {
                    level.parens -= 1;
                } else {
                    close(level, text, i, &mut out);
                    levels.pop();
                }
            }
            b'|' if !level.double => {
                level.pipeline.push(&text[level.start..i]);
                if next == Some(b'|') {
                    out.push(std::mem::take(&mut level.pipeline));
                }
                // `||` ends the pipeline; `|&` pipes stderr too, and is still a pipe.
                i += if matches!(next, Some(b'|' | b'&')) { 2 } else { 1 };
                level.start = i;
                continue;
            }
            b'&' if !level.double && !redirects(&text[level.start..i]) && next != Some(b'>') => {
                level.pipeline.push(&text[level.start..i]);
                out.push(std::mem::take(&mut level.pipeline));
                i += if next == Some(b'&') { 2 } else { 1 };
                level.start = i;
                continue;
            }
            b';' | b'\n' if !level.double => {
                level.pipeline.push(&text[level.start..i]);
                out.push(std::mem::take(&mut level.pipeline));
                i += 1;
                level.start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    match levels.as_mut_slice() {
        [line] if !line.single && !line.double => {
            close(line, text, bytes.len(), &mut out);
            Ok(out)
        }
        _ => Err(SplitError::Unclosed),
    }
}

/// Whether a `&` right after `command` so far belongs to a redirection (`2>&1`, `<&3`).
fn redirects(command: &str) -> bool {
    command.ends_with(['>', '<'])
}

/// Ends a level at `end`: its last command and pipeline are complete.
fn close<'a>(level: &mut Level<'a>, text: &'a str, end: usize, out: &mut Vec<Pipeline<'a>>) {
    level.pipeline.push(&text[level.start..end]);
    out.push(std::mem::take(&mut level.pipeline));
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subcommands_split_on_every_operator_outside_quotes() {
        assert_eq!(subcommands("a && b || c; d | e & f\ng").unwrap(), ["a", "b", "c", "d", "e", "f", "g"]);
        assert_eq!(subcommands("echo \"a; b\" 'c | d'").unwrap(), ["echo \"a; b\" 'c | d'"]);
        assert_eq!(subcommands("x $(y; z)").unwrap(), ["y", "z", "x $(y; z)"]);
        assert_eq!(subcommands("echo \"$(y | z)\"").unwrap(), ["y", "z", "echo \"$(y | z)\""]);
        assert_eq!(subcommands("a > f 2>&1 && b &> g").unwrap(), ["a > f 2>&1", "b &> g"]);
        assert_eq!(subcommands("a |& b;; ; c").unwrap(), ["a", "b", "c"]);
        assert_eq!(subcommands("echo \"open"), Err(SplitError::Unclosed));
        assert_eq!(subcommands("echo $(open"), Err(SplitError::Unclosed));
        assert_eq!(subcommands("echo `open"), Err(SplitError::Unclosed));
        assert_eq!(subcommands("echo `'open`"), Err(SplitError::Unclosed));
    }

    #[test]
    fn substitutions_nest_and_keep_their_parentheses() {
        assert_eq!(subcommands("a $(b $(c)) d").unwrap(), ["c", "b $(c)", "a $(b $(c)) d"]);
        assert_eq!(subcommands("a $( (b; c) | d )").unwrap(), ["(b", "c)", "d", "a $( (b; c) | d )"]);
        assert_eq!(subcommands("a \"$(b \")\")\" ; e").unwrap(), ["b \")\"", "a \"$(b \")\")\"", "e"]);
        assert_eq!(subcommands("a '$(b; c)' `d`").unwrap(), ["d", "a '$(b; c)' `d`"]);
        assert_eq!(subcommands("a \\$(b) \\`c\\`").unwrap(), ["a \\$(b) \\`c\\`"]);
        assert_eq!(subcommands("x `y \\` z").unwrap(), ["y \\", "x `y \\` z"]);
        assert_eq!(subcommands("é $(ü; ß) ∞").unwrap(), ["ü", "ß", "é $(ü; ß) ∞"]);
    }

    /// Each command is a slice of the line: splitting copies nothing, whatever the nesting.
    #[test]
    fn commands_are_slices_of_the_line() {
        let line = "cd /srv && x $(y `z; w` | v) || u";
        let range = line.as_bytes().as_ptr_range();
        for command in subcommands(line).unwrap() {
            assert!(range.contains(&command.as_ptr()), "{command}");
            assert!(command.len() <= line.len());
        }
    }

    fn nested(levels: usize, inner: &str) -> String {
        format!("{}{inner}{}", "echo $(".repeat(levels), ")".repeat(levels))
    }

    #[test]
    fn nesting_is_followed_to_the_cap_and_refused_past_it() {
        let at_cap = nested(MAX_DEPTH, "rm -rf /");
        let commands = subcommands(&at_cap).unwrap();
        assert_eq!(commands.len(), MAX_DEPTH + 1);
        assert_eq!(commands[0], "rm -rf /");
        assert_eq!(commands[MAX_DEPTH], at_cap);
        assert_eq!(subcommands(&nested(MAX_DEPTH + 1, "rm -rf /")), Err(SplitError::TooDeep));
        let backticks = format!("{}x", "a $(b `".repeat(MAX_DEPTH / 2 + 1));
        assert_eq!(subcommands(&backticks), Err(SplitError::TooDeep));
        // Unclosed inside the cap, too deep past it: the depth is found before the end.
        assert_eq!(subcommands(&"$(".repeat(MAX_DEPTH)), Err(SplitError::Unclosed));
        assert_eq!(subcommands(&"$(".repeat(MAX_DEPTH + 1)), Err(SplitError::TooDeep));
    }

    /// Copying the rest of the line at each level would make 1 MB of `echo $(` quadratic in time
    /// and memory, and recursing per level would overflow the stack: the answer comes after at
    /// most one pass.
    #[test]
    fn a_megabyte_of_nesting_is_refused_and_a_megabyte_of_commands_is_split() {
        let levels = (1 << 20) / "echo $(".len();
        assert_eq!(subcommands(&nested(levels, "ls")), Err(SplitError::TooDeep));
        let flat = "a;".repeat(1 << 19);
        let commands = subcommands(&flat).unwrap();
        assert_eq!(commands.len(), 1 << 19);
        assert!(commands.iter().all(|c| *c == "a"));
    }

    #[test]
    fn pipelines_keep_what_is_piped_into_what() {
        assert_eq!(pipelines("a | b | c").unwrap(), [vec!["a", "b", "c"]]);
        assert_eq!(pipelines("a || b | c && d").unwrap(), [vec!["a"], vec!["b", "c"], vec!["d"]]);
        assert_eq!(pipelines("a |& b & c").unwrap(), [vec!["a", "b"], vec!["c"]]);
        assert_eq!(pipelines("a 2>&1 | b").unwrap(), [vec!["a 2>&1", "b"]]);
        assert_eq!(pipelines("x `y | z` | w").unwrap(), [vec!["y", "z"], vec!["x `y | z`", "w"]]);
        assert_eq!(pipelines("a\n\n  \nb").unwrap(), [vec!["a"], vec!["b"]]);
        assert!(pipelines("").unwrap().is_empty());
        assert_eq!(pipelines("a; $(b | c) | d"), Ok(vec![vec!["a"], vec!["b", "c"], vec!["$(b | c)", "d"]]));
    }

    #[test]
    fn words_remove_quotes_and_keep_expansions() {
        assert_eq!(words("rm -rf '/tmp/a b' \"x\"y z\\ w").unwrap(), ["rm", "-rf", "/tmp/a b", "xy", "z w"]);
        assert_eq!(words("echo $HOME/* ${X}").unwrap(), ["echo", "$HOME/*", "${X}"]);
        assert!(words("echo 'open").is_none());
    }
}
