//! The platform rule (see `platform/src/lib.rs` and `docs/src/architecture.md`): what depends on
//! the operating system lives in the `hookmux-platform` crate, one module per OS family. Checked
//! on the source itself: no file of `src/`, `handlers/src/` or `sdk/src/` names a `cfg` on the OS
//! (`unix`, `windows`, `target_os`, `target_family`, `target_vendor`, `target_env`),
//! `std::os::unix`, `std::os::windows`, `std::os::fd` or `libc::`, except
//!
//! - test code: a `tests.rs` file, a file in a `tests/` folder, and a file's `#[cfg(test)] mod`.
//!   A test about one OS's behaviour says so: `#[cfg(unix)]` on its module, or
//!   `#[cfg_attr(not(unix), ignore = "why")]`;
//! - [`NOT_MOVED_YET`]: a file allowed OS code while it moves into the platform layer (none
//!   today: the process part has moved).
//!
//! Comments, strings and character literals are left out before looking.

use std::path::{Path, PathBuf};

/// The folders checked, from the repository's root.
const CHECKED: &[&str] = &["src", "handlers/src", "sdk/src"];

/// Files allowed OS code for now, and what it is.
const NOT_MOVED_YET: &[(&str, &str)] = &[];

/// What names the OS outside a `cfg`.
const PATHS: &[&str] = &["std::os::unix", "std::os::windows", "std::os::fd", "libc::"];

/// What a `cfg` on the OS names.
const CFG_WORDS: &[&str] = &["unix", "windows", "target_os", "target_family", "target_vendor", "target_env"];

/// `text` with comments, and the contents of strings and character literals, made spaces;
/// line breaks stay where they were.
fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"' | '#')) && starts_a_literal(&chars, i) {
            // A raw string: r"…", r#"…"#, br"…", …
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            out.push('r');
            i += 1;
            for _ in 0..=hashes {
                out.push(chars[i]);
                i += 1;
            }
            while i < chars.len() && !chars[i..].starts_with(&close) {
                out.push(blank(chars[i]));
                i += 1;
            }
            for _ in 0..close.len().min(chars.len() - i) {
                out.push(chars[i]);
                i += 1;
            }
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let skip = if chars[i] == '\\' { 2 } else { 1 };
                for _ in 0..skip.min(chars.len() - i) {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            if i < chars.len() {
                out.push('"');
                i += 1;
            }
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{1F600}'), not a lifetime.
            out.push('\'');
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                let skip = if chars[i] == '\\' { 2 } else { 1 };
                for _ in 0..skip.min(chars.len() - i) {
                    out.push(' ');
                    i += 1;
                }
            }
            if i < chars.len() {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the `r` at `i` starts a raw string literal rather than ends a name (`for"`): nothing
/// of a name before it, or only the `b` of a byte string.
fn starts_a_literal(chars: &[char], i: usize) -> bool {
    let is_ident = |at: usize| chars[at].is_alphanumeric() || chars[at] == '_';
    match i {
        0 => true,
        _ if !is_ident(i - 1) => true,
        1 => chars[0] == 'b',
        _ => chars[i - 1] == 'b' && !is_ident(i - 2),
    }
}

/// `code` with every `#[cfg(test)] mod … { … }` made spaces (line breaks kept).
fn without_test_modules(code: &str) -> String {
    let mut out = code.to_string();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|at| at + from) {
        let after = &out[at + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let item = item.strip_prefix("pub ").unwrap_or(item);
        let is_inline_module = item.strip_prefix("mod ").is_some_and(|rest| {
            let name_end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            rest[name_end..].trim_start().starts_with('{')
        });
        if !is_inline_module {
            from = at + 1;
            continue;
        }
        let open = at + out[at..].find('{').unwrap_or(0);
        let mut depth = 0usize;
        let mut end = out.len();
        for (offset, c) in out[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + offset + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let blanked: String = out[at..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        out.replace_range(at..end, &blanked);
        from = end;
    }
    out
}

/// The OS code in one file's text: `(line, what)`.
fn os_code(text: &str) -> Vec<(usize, String)> {
    let code = without_test_modules(&code_of(text));
    let mut found = Vec::new();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    for path in PATHS {
        for (at, _) in code.match_indices(path) {
            found.push((line_of(at), path.trim_end_matches("::").to_string()));
        }
    }
    for opener in ["cfg(", "cfg_attr(", "cfg!("] {
        for (at, _) in code.match_indices(opener) {
            if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let inside = balanced(&code[at + opener.len()..]);
            let words = inside.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            if let Some(word) = words.into_iter().find(|word| CFG_WORDS.contains(word)) {
                found.push((line_of(at), format!("{opener}… {word} …)")));
            }
        }
    }
    found.sort();
    found
}

/// The text up to the parenthesis that closes one already open.
fn balanced(text: &str) -> &str {
    let mut depth = 1;
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &text[..at];
                }
            }
            _ => {}
        }
    }
    text
}

fn is_test_file(relative: &Path) -> bool {
    relative.file_name().is_some_and(|name| name == "tests.rs")
        || relative.components().any(|c| c.as_os_str() == "tests")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every finding under `root`'s checked folders, as `file:line: what`.
fn findings(root: &Path) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    for folder in CHECKED {
        rust_files(&root.join(folder), &mut files);
    }
    files.sort();
    let mut out = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(root).expect("a file under the root");
        let shown = relative.to_string_lossy().replace('\\', "/");
        if is_test_file(relative) || NOT_MOVED_YET.iter().any(|(allowed, _)| *allowed == shown) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a readable source file");
        out.extend(os_code(&text).into_iter().map(|(line, what)| format!("{shown}:{line}: {what}")));
    }
    (files.len(), out)
}

#[test]
fn no_os_code_outside_the_platform_layer() {
    let (scanned, found) = findings(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(scanned > 100, "the scan read only {scanned} files: is it still reading the crates?");
    assert!(
        found.is_empty(),
        "OS-dependent code outside platform/ (put it in hookmux-platform, behind a function that means the \
         same on every OS):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_files_allowed_os_code_still_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, what) in NOT_MOVED_YET {
        assert!(root.join(file).is_file(), "{file} ({what}) is gone: take it off the list");
    }
}

#[test]
fn the_check_sees_os_code_and_not_tests_comments_or_strings() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let write = |relative: &str, text: &str| {
        let path = dir.path().join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "src/a.rs",
        "use std::os::unix::fs::MetadataExt;\n\
         #[cfg(any(target_os = \"macos\", windows))]\n\
         fn f() { unsafe { libc::getuid() }; }\n\
         #[cfg_attr(unix, allow(dead_code))]\n\
         fn g() { if cfg!(windows) {} }\n",
    );
    write(
        "handlers/src/b.rs",
        "// std::os::unix in a comment, /* libc:: */ too\n\
         fn f() -> &'static str { \"cfg(unix) libc::\" }\n\
         fn c() -> char { '\"' }\n\
         #[cfg(test)]\n\
         fn helper() {}\n\
         #[cfg(feature = \"x\")]\n\
         fn h() {}\n\
         #[cfg(test)]\n\
         mod tests {\n    #[cfg(unix)]\n    fn t() { let _ = libc::getuid(); let _ = '{'; }\n}\n\
         fn after_the_tests() { let _ = std::os::windows::ffi::OsStrExt::encode_wide; }\n",
    );
    write("sdk/src/tests.rs", "use std::os::unix::fs::symlink;\n");
    write("sdk/src/x/tests/y.rs", "#[cfg(unix)] fn f() {}\n");
    let (scanned, found) = findings(dir.path());
    assert_eq!(scanned, 4);
    assert_eq!(
        found,
        [
            "handlers/src/b.rs:13: std::os::windows",
            "src/a.rs:1: std::os::unix",
            "src/a.rs:2: cfg(… target_os …)",
            "src/a.rs:3: libc",
            "src/a.rs:4: cfg_attr(… unix …)",
            "src/a.rs:5: cfg!(… windows …)",
        ]
    );
}
