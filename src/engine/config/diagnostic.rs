//! Problems found in a settings file, each with the file, the JSON path and what to do.

use crate::engine::config::jsonpath::JsonPath;
use std::fmt;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: PathBuf,
    pub path: JsonPath,
    /// What is wrong, and what hookmux did about it (e.g. "skipped").
    pub message: String,
    /// What to do.
    pub hint: Option<String>,
    /// Line and column when known without the path (a JSON syntax error).
    pub position: Option<(usize, usize)>,
}

impl Diagnostic {
    pub fn error(file: impl Into<PathBuf>, path: JsonPath, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            file: file.into(),
            path,
            message: message.into(),
            hint: None,
            position: None,
        }
    }

    pub fn warning(file: impl Into<PathBuf>, path: JsonPath, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            file: file.into(),
            path,
            message: message.into(),
            hint: None,
            position: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    pub fn at(mut self, line: usize, column: usize) -> Diagnostic {
        self.position = Some((line, column));
        self
    }

    /// Line and column in `text` (the file's contents), when they can be found.
    pub fn line_column(&self, text: Option<&str>) -> Option<(usize, usize)> {
        self.position.or_else(|| text.and_then(|t| locate(t, &self.path)))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.as_str(), self.file.display())?;
        if !self.path.is_root() {
            write!(f, " at {}", self.path)?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

/// Where a JSON path points in a file's text, as 1-based line and column (columns count
/// characters). Keys point at the property name, array items at the item. `None` when the text
/// does not parse or the path is not in it.
pub fn locate(text: &str, path: &JsonPath) -> Option<(usize, usize)> {
    use crate::engine::config::jsonpath::Segment;
    use jsonc_parser::ast::Value;
    use jsonc_parser::common::Ranged;

    let parsed = jsonc_parser::parse_to_ast(text, &Default::default(), &Default::default()).ok()?;
    let mut value = parsed.value?;
    let mut offset = value.range().start;
    for segment in path.segments() {
        let next = match (segment, value) {
            (Segment::Key(key), Value::Object(object)) => {
                let property = object.properties.into_iter().find(|p| p.name.as_str() == key.as_str())?;
                offset = property.name.range().start;
                property.value
            }
            (Segment::Index(index), Value::Array(array)) => {
                let element = array.elements.into_iter().nth(*index)?;
                offset = element.range().start;
                element
            }
            _ => return None,
        };
        value = next;
    }
    let before = text.get(..offset)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or(before).chars().count() + 1;
    Some((line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_keys_and_items() {
        let text = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Ba[\"},\n      7\n    ]\n  }\n}\n";
        let path = JsonPath::root().key("hooks").key("PreToolUse");
        assert_eq!(locate(text, &path), Some((3, 5)));
        assert_eq!(locate(text, &path.index(0).key("matcher")), Some((4, 8)));
        assert_eq!(locate(text, &path.index(1)), Some((5, 7)));
        assert_eq!(locate(text, &path.index(2)), None);
        assert_eq!(locate(text, &JsonPath::root()), Some((1, 1)));
        assert_eq!(locate("{ broken", &path), None);
    }
}
