//! JSON paths for diagnostics: `hooks.PreToolUse[0].hooks[1].timeout`.

use std::fmt;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct JsonPath(Vec<Segment>);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    Key(String),
    Index(usize),
}

impl JsonPath {
    pub fn root() -> JsonPath {
        JsonPath(Vec::new())
    }

    pub fn key(&self, key: &str) -> JsonPath {
        let mut segments = self.0.clone();
        segments.push(Segment::Key(key.to_string()));
        JsonPath(segments)
    }

    pub fn index(&self, index: usize) -> JsonPath {
        let mut segments = self.0.clone();
        segments.push(Segment::Index(index));
        JsonPath(segments)
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
                Segment::Key(key) => write!(f, "[{}]", serde_json::Value::from(key.as_str()))?,
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
