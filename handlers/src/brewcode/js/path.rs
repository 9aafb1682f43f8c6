//! Node's `path.join` and `path.dirname` (POSIX) on strings.
//!
//! brewcode prints the paths it builds (`Task dir: …`, `/brewcode:rules …`) and keys its config
//! cache on them, so they are built as Node builds them: `join` normalizes `.`, `..` and double
//! slashes lexically, and keeps a trailing slash.

/// `path.normalize(p)`.
pub fn normalize(p: &str) -> String {
    if p.is_empty() {
        return ".".to_string();
    }
    let absolute = p.starts_with('/');
    let trailing = p.ends_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for segment in p.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|last| *last != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let mut out = parts.join("/");
    if out.is_empty() && !absolute {
        out.push('.');
    }
    if trailing && !out.is_empty() && !out.ends_with('/') {
        out.push('/');
    }
    if absolute {
        out.insert(0, '/');
    }
    out
}

/// `path.join(...parts)`.
pub fn join(parts: &[&str]) -> String {
    let joined = parts.iter().filter(|part| !part.is_empty()).copied().collect::<Vec<_>>().join("/");
    if joined.is_empty() {
        return ".".to_string();
    }
    normalize(&joined)
}

/// `path.dirname(p)`.
pub fn dirname(p: &str) -> String {
    let bytes = p.as_bytes();
    if bytes.is_empty() {
        return ".".to_string();
    }
    let has_root = bytes[0] == b'/';
    let mut end: Option<usize> = None;
    let mut matched_slash = true;
    for i in (1..bytes.len()).rev() {
        if bytes[i] == b'/' {
            if !matched_slash {
                end = Some(i);
                break;
            }
        } else {
            matched_slash = false;
        }
    }
    match end {
        None if has_root => "/".to_string(),
        None => ".".to_string(),
        Some(1) if has_root => "//".to_string(),
        Some(end) => p[..end].to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_normalizes_like_node() {
        assert_eq!(join(&["/p/", ".claude/tasks/x_task/PLAN.md"]), "/p/.claude/tasks/x_task/PLAN.md");
        assert_eq!(join(&["/p", ".claude/tasks/./x_task//PLAN.md"]), "/p/.claude/tasks/x_task/PLAN.md");
        assert_eq!(join(&["/a/b/../c", "d"]), "/a/c/d");
        assert_eq!(join(&["rel", "../../x"]), "../x");
        assert_eq!(join(&["/", ".."]), "/");
        assert_eq!(join(&["", ""]), ".");
        assert_eq!(join(&["a/", "b/"]), "a/b/");
    }

    #[test]
    fn dirname_like_node() {
        assert_eq!(dirname("/p/.claude/tasks/x_task/PLAN.md"), "/p/.claude/tasks/x_task");
        assert_eq!(dirname("/a"), "/");
        assert_eq!(dirname("a"), ".");
        assert_eq!(dirname("/a/b/"), "/a");
        assert_eq!(dirname("/a//b"), "/a/");
        assert_eq!(dirname(""), ".");
    }
}
