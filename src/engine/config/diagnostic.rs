//! Problems found in a settings file, each with the file, the JSON path and what to do.

pub use crate::engine::config::check::{Check, Severity};
use crate::engine::config::jsonpath::{JsonPath, Segment};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::PathBuf;

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
    /// The check that found it (its rule id); [`Check::InvalidShape`] unless set.
    pub check: Check,
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
            check: Check::InvalidShape,
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
            check: Check::InvalidShape,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    /// The check that found it.
    pub fn check(mut self, check: Check) -> Diagnostic {
        self.check = check;
        self
    }

    pub fn at(mut self, line: usize, column: usize) -> Diagnostic {
        self.position = Some((line, column));
        self
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

#[cfg(test)]
thread_local! {
    /// How many times this thread parsed a file's text to locate diagnostics.
    pub(crate) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Line and column of each of `diagnostics`, all of one file whose contents are `text`: the
/// position a diagnostic was given, else where its JSON path points. The text is parsed and
/// read once for all of them, so a file with thousands of problems costs what one does.
pub fn positions(text: Option<&str>, diagnostics: &[&Diagnostic]) -> Vec<Option<(usize, usize)>> {
    let unplaced: Vec<&JsonPath> = diagnostics.iter().filter(|d| d.position.is_none()).map(|d| &d.path).collect();
    let mut located = text.map(|text| locate_all(text, &unplaced)).unwrap_or_default().into_iter();
    diagnostics
        .iter()
        .map(|d| match d.position {
            Some(position) => Some(position),
            None => located.next().flatten(),
        })
        .collect()
}

/// Where a JSON path points in a file's text, as 1-based line and column (columns count
/// characters). Keys point at the property name, array items at the item. `None` when the text
/// does not parse or the path is not in it.
pub fn locate(text: &str, path: &JsonPath) -> Option<(usize, usize)> {
    locate_all(text, &[path]).pop().flatten()
}

/// [`locate`] for many paths, parsing and reading the text once.
pub fn locate_all(text: &str, paths: &[&JsonPath]) -> Vec<Option<(usize, usize)>> {
    use jsonc_parser::common::Ranged;

    #[cfg(test)]
    PARSES.with(|parses| parses.set(parses.get() + 1));
    let parsed = jsonc_parser::parse_to_ast(text, &Default::default(), &Default::default()).ok();
    let Some(root) = parsed.and_then(|parsed| parsed.value) else { return vec![None; paths.len()] };
    let wanted = Wanted::new(paths);
    let mut offsets = HashMap::new();
    wanted.find(&root, root.range().start, &mut Vec::new(), &mut offsets);
    let places = line_columns(text, offsets.values().copied());
    paths.iter().map(|path| offsets.get(path.segments()).and_then(|offset| places.get(offset).copied())).collect()
}

/// The paths asked for, and every path on the way to one: the walk goes down those only.
struct Wanted<'p> {
    paths: HashSet<&'p [Segment]>,
    on_the_way: HashSet<&'p [Segment]>,
}

impl<'p> Wanted<'p> {
    fn new(paths: &[&'p JsonPath]) -> Wanted<'p> {
        let paths: HashSet<&[Segment]> = paths.iter().map(|path| path.segments()).collect();
        let on_the_way = paths.iter().flat_map(|path| (0..=path.len()).map(move |n| &path[..n])).collect();
        Wanted { paths, on_the_way }
    }

    /// Records the byte offset of each wanted path at or below `value`, which `at` points to.
    /// The first of two equal keys is the one located.
    fn find(
        &self,
        value: &jsonc_parser::ast::Value<'_>,
        offset: usize,
        at: &mut Vec<Segment>,
        found: &mut HashMap<&'p [Segment], usize>,
    ) {
        use jsonc_parser::ast::Value;
        use jsonc_parser::common::Ranged;

        if !self.on_the_way.contains(at.as_slice()) {
            return;
        }
        if let Some(path) = self.paths.get(at.as_slice()) {
            found.entry(*path).or_insert(offset);
        }
        match value {
            Value::Object(object) => {
                for property in &object.properties {
                    at.push(Segment::Key(property.name.as_str().into()));
                    self.find(&property.value, property.name.range().start, at, found);
                    at.pop();
                }
            }
            Value::Array(array) => {
                for (index, element) in array.elements.iter().enumerate() {
                    at.push(Segment::Index(index));
                    self.find(element, element.range().start, at, found);
                    at.pop();
                }
            }
            _ => {}
        }
    }
}

/// The 1-based line and column (in characters) of each byte offset, in one pass over the text.
fn line_columns(text: &str, offsets: impl Iterator<Item = usize>) -> HashMap<usize, (usize, usize)> {
    let mut offsets: Vec<usize> = offsets.collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut places = HashMap::with_capacity(offsets.len());
    let (mut line, mut column) = (1, 1);
    let mut chars = text.char_indices().peekable();
    for offset in offsets {
        while let Some((_, c)) = chars.next_if(|(at, _)| *at < offset) {
            if c == '\n' {
                (line, column) = (line + 1, 1);
            } else {
                column += 1;
            }
        }
        places.insert(offset, (line, column));
    }
    places
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

    #[test]
    fn locates_many_paths_in_one_pass_and_keeps_given_positions() {
        let text = r#"{"hooks": {"Stop": [{"hooks": [{}, {"type": 1}, {}]}], "Stop": []}, "é": 1, "x": 2}"#;
        let handlers = JsonPath::root().key("hooks").key("Stop").index(0).key("hooks");
        let paths = [handlers.index(2), handlers.index(1).key("type"), JsonPath::root().key("x"), handlers.index(9)];
        let located = locate_all(text, &paths.iter().collect::<Vec<_>>());
        // Columns count characters: `é` is one.
        assert_eq!(located, [Some((1, 49)), Some((1, 37)), Some((1, 77)), None]);
        assert_eq!(locate(text, &JsonPath::root().key("hooks").key("Stop")), Some((1, 12)), "the first of equal keys");

        let given = Diagnostic::error("s.json", paths[2].clone(), "bad").at(7, 3);
        let found = Diagnostic::error("s.json", paths[0].clone(), "bad");
        assert_eq!(positions(Some(text), &[&given, &found]), [Some((7, 3)), Some((1, 49))]);
        assert_eq!(positions(None, &[&given, &found]), [Some((7, 3)), None]);
    }
}
