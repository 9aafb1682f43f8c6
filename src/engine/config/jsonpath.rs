//! JSON paths for diagnostics: `hooks.PreToolUse[0].hooks[1].timeout`.

use std::fmt;
use std::sync::Arc;

/// Every group and handler of every settings file carries its path, and dispatch reads them all
/// on every event: shared segments make a path one allocation, and copying it none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct JsonPath(Arc<[Segment]>);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    Key(Arc<str>),
    Index(usize),
}

impl JsonPath {
    pub fn root() -> JsonPath {
        JsonPath::default()
    }

    pub fn key(&self, key: &str) -> JsonPath {
        self.then(Segment::Key(key.into()))
    }

    pub fn index(&self, index: usize) -> JsonPath {
        self.then(Segment::Index(index))
    }

    /// The path one segment deeper, allocated once (the iterator's length is known).
    fn then(&self, segment: Segment) -> JsonPath {
        JsonPath(self.0.iter().cloned().chain(std::iter::once(segment)).collect())
    }

    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(top level)");
        }
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if is_plain(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Segment::Key(key) => write!(f, "[{}]", serde_json::Value::from(&**key))?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

fn is_plain(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_like_javascript() {
        let path = JsonPath::root().key("hooks").key("PreToolUse").index(0).key("hooks").index(2).key("if");
        assert_eq!(path.to_string(), "hooks.PreToolUse[0].hooks[2].if");
        assert_eq!(JsonPath::root().key("hooks").key("my event").to_string(), "hooks[\"my event\"]");
        assert_eq!(JsonPath::root().to_string(), "(top level)");
    }
}
