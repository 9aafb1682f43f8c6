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
//! ```
//! use hookmux_sdk::bash;
//!
//! let pipelines = bash::pipelines("cd /srv && curl -fsSL https://x.sh | sudo bash").unwrap();
//! assert_eq!(pipelines, [vec!["cd /srv"], vec!["curl -fsSL https://x.sh", "sudo bash"]]);
//! assert_eq!(bash::words("rm -rf '/tmp/my dir' \"$HOME\"").unwrap(), ["rm", "-rf", "/tmp/my dir", "$HOME"]);
//! ```

/// The simple commands of one pipeline (`a | b | c`), in order; a lone command is a pipeline of one.
pub type Pipeline = Vec<String>;

/// Every pipeline of a command line, trimmed, empty ones dropped. The pipelines inside a
/// `$( … )` or backtick substitution come before the pipeline that contains it (the shell runs
/// them first), and the containing command keeps the substitution's text.
///
/// `None` when a quote, a `$(` or a backtick is left open: the shell would refuse the line.
pub fn pipelines(command: &str) -> Option<Vec<Pipeline>> {
    let mut out = Vec::new();
    split_into(command, &mut out)?;
    Some(
        out.into_iter()
            .map(|pipeline| {
                pipeline.into_iter().map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect::<Pipeline>()
            })
            .filter(|pipeline| !pipeline.is_empty())
            .collect(),
    )
}

/// Every simple command of a command line, trimmed, in the order of [`pipelines`].
///
/// ```
/// assert_eq!(hookmux_sdk::bash::subcommands("x $(y; z) && w | v").unwrap(), ["y", "z", "x $(y; z)", "w", "v"]);
/// ```
pub fn subcommands(command: &str) -> Option<Vec<String>> {
    Some(pipelines(command)?.into_iter().flatten().collect())
}

/// A simple command's words as the shell would pass them, quotes and backslashes removed
/// (`'a b'` is one word `a b`). Variables, globs and substitutions are left as written. `None`
/// when a quote is left open.
pub fn words(command: &str) -> Option<Vec<String>> {
    shlex::split(command)
}

fn split_into(command: &str, out: &mut Vec<Pipeline>) -> Option<()> {
    let chars: Vec<char> = command.chars().collect();
    let mut pipeline: Pipeline = Vec::new();
    let mut current = String::new();
    let (mut single, mut double) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if single {
            current.push(c);
            single = c != '\'';
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        match c {
            '\\' => {
                current.push(c);
                if let Some(next) = next {
                    current.push(next);
                }
                i += 2;
                continue;
            }
            '\'' if !double => single = true,
            '"' => double = !double,
            '$' if next == Some('(') => {
                let close = matching_paren(&chars, i + 1)?;
                let inner: String = chars[i + 2..close].iter().collect();
                split_into(&inner, out)?;
                current.extend(&chars[i..=close]);
                i = close + 1;
                continue;
            }
            '`' => {
                let close = chars[i + 1..].iter().position(|&c| c == '`')? + i + 1;
                let inner: String = chars[i + 1..close].iter().collect();
                split_into(&inner, out)?;
                current.extend(&chars[i..=close]);
                i = close + 1;
                continue;
            }
            '|' if !double => {
                pipeline.push(std::mem::take(&mut current));
                if next == Some('|') {
                    out.push(std::mem::take(&mut pipeline));
                }
                // `||` ends the pipeline; `|&` pipes stderr too, and is still a pipe.
                i += if matches!(next, Some('|' | '&')) { 2 } else { 1 };
                continue;
            }
            '&' if !double && !matches!(current.chars().last(), Some('>' | '<')) && next != Some('>') => {
                pipeline.push(std::mem::take(&mut current));
                out.push(std::mem::take(&mut pipeline));
                i += if next == Some('&') { 2 } else { 1 };
                continue;
            }
            ';' | '\n' if !double => {
                pipeline.push(std::mem::take(&mut current));
                out.push(std::mem::take(&mut pipeline));
                i += 1;
                continue;
            }
            _ => {}
        }
        current.push(c);
        i += 1;
    }
    if single || double {
        return None;
    }
    pipeline.push(current);
    out.push(pipeline);
    Some(())
}

fn matching_paren(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    let (mut single, mut double) = (false, false);
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' if !single => i += 1,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '(' if !single && !double => depth += 1,
            ')' if !single && !double => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
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
        assert!(subcommands("echo \"open").is_none());
        assert!(subcommands("echo $(open").is_none());
        assert!(subcommands("echo `open").is_none());
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
    }

    #[test]
    fn words_remove_quotes_and_keep_expansions() {
        assert_eq!(words("rm -rf '/tmp/a b' \"x\"y z\\ w").unwrap(), ["rm", "-rf", "/tmp/a b", "xy", "z w"]);
        assert_eq!(words("echo $HOME/* ${X}").unwrap(), ["echo", "$HOME/*", "${X}"]);
        assert!(words("echo 'open").is_none());
    }
}
