//! JavaScript strings: UTF-16 lengths and cuts, and `trim()`'s idea of whitespace.

/// `\s` and `trim()` in JavaScript: WhiteSpace and LineTerminator. Unlike Rust's `char::is_whitespace`,
/// it includes U+FEFF (a byte-order mark) and excludes U+0085.
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// `s.trim()`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `s.length`: UTF-16 code units.
pub fn len16(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `s.slice(0, n)` / `s.substring(0, n)`: the first `n` UTF-16 code units. A cut through a
/// surrogate pair leaves half a character in JavaScript; a Rust string cannot hold one, so that
/// half becomes U+FFFD (one code unit, so lengths still agree).
pub fn prefix16(s: &str, n: usize) -> String {
    if s.len() <= n {
        // Every char is at least one code unit, so a string of at most n bytes has at most n units.
        return s.to_string();
    }
    let units: Vec<u16> = s.encode_utf16().take(n).collect();
    String::from_utf16_lossy(&units)
}

/// The first `n` UTF-16 code units, exactly, for use as a key (`txt.substring(0, 100)`).
pub fn key16(s: &str, n: usize) -> Vec<u16> {
    s.encode_utf16().take(n).collect()
}

/// `s.slice(0, 8) || 'unknown'`-style short form used for session ids.
pub fn short_id(s: &str) -> String {
    prefix16(s, 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_is_javascripts() {
        assert_eq!(trim("\u{FEFF} a\u{A0}"), "a");
        assert_eq!(trim("\u{85}a"), "\u{85}a");
    }

    #[test]
    fn cuts_count_code_units() {
        assert_eq!(len16("❌"), 1);
        assert_eq!(len16("ℹ️"), 2);
        assert_eq!(len16("😀"), 2);
        assert_eq!(prefix16("ab😀c", 3), "ab\u{FFFD}");
        assert_eq!(prefix16("ab😀c", 4), "ab😀");
        assert_eq!(key16("ab😀c", 3).len(), 3);
        assert_eq!(prefix16("é", 8), "é");
    }
}
