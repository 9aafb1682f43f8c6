//! Reading a settings command as the shell would, for the commands hookmux recognises as its
//! own (`hookmux run NAME`, `hookmux dispatch …`): only when the shell would do nothing to it but
//! remove quotes and, where the caller knows the variable, put a value in for `$NAME`.

/// Splits a shell command into words when the shell would do no expansion, redirection or
/// control flow with it; `None` otherwise.
pub fn plain_words(command: &str) -> Option<Vec<String>> {
    words(command, |_| None)
}

/// Splits a shell command into words as [`plain_words`] does, putting in the value `expand`
/// gives for `$NAME` or `${NAME}` outside single quotes, and `$HOME`'s for a `~` that starts a
/// word unquoted (`~` or `~/…`). A variable `expand` does not know, or any other expansion
/// (`~user`, `$(…)`), makes it `None`: what the shell would make of it is not known here.
pub fn words(command: &str, expand: impl Fn(&str) -> Option<String>) -> Option<Vec<String>> {
    let mut words = Words::new(command);
    let mut all = Vec::new();
    while let Some(word) = words.next_word(&expand) {
        all.push(word?);
    }
    Some(all)
}

/// A command's words one at a time, for a caller that can stop at the first (every settings
/// command is read for a hookmux entry on every event, and most start with something else).
pub struct Words<'c> {
    chars: std::iter::Peekable<std::str::Chars<'c>>,
}

impl<'c> Words<'c> {
    pub fn new(command: &'c str) -> Words<'c> {
        Words { chars: command.trim().chars().peekable() }
    }

    /// The next word: `None` at the end, `Some(None)` where [`words`] gives up.
    pub fn next_word(&mut self, expand: impl Fn(&str) -> Option<String>) -> Option<Option<String>> {
        self.chars.peek()?;
        let word = self.word(expand);
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.chars.next();
        }
        Some(word)
    }

    fn word(&mut self, expand: impl Fn(&str) -> Option<String>) -> Option<String> {
        let chars = &mut self.chars;
        let mut word = String::new();
        while let Some(&c) = chars.peek() {
            match c {
                c if c.is_whitespace() => break,
                '\'' => {
                    chars.next();
                    loop {
                        match chars.next()? {
                            '\'' => break,
                            c => word.push(c),
                        }
                    }
                }
                '"' => {
                    chars.next();
                    loop {
                        match chars.next()? {
                            '"' => break,
                            '$' => word.push_str(&expand(&variable(chars)?)?),
                            '`' | '\\' | '!' => return None,
                            c => word.push(c),
                        }
                    }
                }
                '$' => {
                    chars.next();
                    word.push_str(&expand(&variable(chars)?)?);
                }
                '~' if word.is_empty() => {
                    chars.next();
                    if chars.peek().is_some_and(|c| *c != '/' && !c.is_whitespace()) {
                        return None;
                    }
                    word.push_str(&expand("HOME")?);
                }
                c if c.is_ascii_alphanumeric() || "-_./:=,@+%^~".contains(c) => {
                    word.push(c);
                    chars.next();
                }
                _ => return None,
            }
        }
        Some(word)
    }
}

/// The name after a `$`: `NAME` or `{NAME}`; `None` for any other expansion.
fn variable(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<String> {
    let braced = chars.next_if_eq(&'{').is_some();
    let mut name = String::new();
    while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || *c == '_') {
        name.push(c);
    }
    if braced && chars.next() != Some('}') {
        return None;
    }
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// Whether a command's first word starts hookmux: `hookmux`, or a path that ends in `/hookmux`
/// (on Windows also `hookmux.exe`, in any case, after either separator).
pub fn is_hookmux(program: &str) -> bool {
    hookmux_platform::program::names(program, "hookmux")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project_dir(name: &str) -> Option<String> {
        (name == "CLAUDE_PROJECT_DIR").then(|| "/p q".to_string())
    }

    #[test]
    fn plain_words_refuse_every_expansion() {
        assert_eq!(plain_words("a 'b c' \"d\""), Some(vec!["a".into(), "b c".into(), "d".into()]));
        for command in ["a $X", "a \"$X\"", "a; b", "a > f", "a `b`", "a 'b"] {
            assert_eq!(plain_words(command), None, "{command}");
        }
    }

    #[test]
    fn known_variables_are_put_in_outside_single_quotes() {
        let split = |c: &str| words(c, project_dir);
        assert_eq!(
            split("x \"$CLAUDE_PROJECT_DIR/.claude/h.json\""),
            Some(vec!["x".into(), "/p q/.claude/h.json".into()])
        );
        assert_eq!(split("x ${CLAUDE_PROJECT_DIR}/h"), Some(vec!["x".into(), "/p q/h".into()]));
        assert_eq!(split("x '$CLAUDE_PROJECT_DIR'"), Some(vec!["x".into(), "$CLAUDE_PROJECT_DIR".into()]));
        for command in ["x $HOME", "x ${CLAUDE_PROJECT_DIR", "x $(pwd)", "x $1", "x \"$\"", "x ~/a", "x ~u/a"] {
            assert_eq!(split(command), None, "{command}");
        }
        let home = |name: &str| (name == "HOME").then(|| "/h".to_string());
        assert_eq!(
            words("x ~/a ~ a~/b --s=~/c '~/d'", home),
            Some(["x", "/h/a", "/h", "a~/b", "--s=~/c", "~/d"].map(String::from).to_vec())
        );
    }
}
