//! The documentation cannot drift from the command line: every `hookmux …` command shown in the
//! README and the book (`docs/src/`), in a shell block or in running text, parses against
//! hookmux's own command tree, and `--help` of every command named succeeds in the built binary.
//! The book's own links are checked too: every page `SUMMARY.md` names exists, and every relative
//! link of a page points to a file that does.

use crate::common::Hookmux;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One `hookmux …` command found in a page.
#[derive(Debug)]
struct Shown {
    /// `docs/src/dispatch.md:31`, for the failure message.
    at: String,
    /// The words after `hookmux`, quotes removed.
    words: Vec<String>,
    /// Named in running text (`hookmux dispatch --settings`): the commands and options it names
    /// must exist, but it need not be whole (an option's value or a required argument may be
    /// left out).
    inline: bool,
}

/// Mistakes the docs show on purpose, as what hookmux does with them.
const DELIBERATE: &[&str] = &["hookmux dispach"];

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every page of the book.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("docs/src is readable").flatten().collect();
        entries.sort_by_key(|e| e.path());
        for entry in entries {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    let mut found = vec![repo().join("README.md")];
    walk(&repo().join("docs/src"), &mut found);
    found
}

/// Shell operators that end a command, and redirections that end its words.
fn ends_command(word: &str) -> bool {
    matches!(word, "|" | "||" | "&&" | ";" | "&")
}

fn is_redirection(word: &str) -> bool {
    word.starts_with('>')
        || word.starts_with('<')
        || word.starts_with("2>")
        || word.starts_with("1>")
        || word.starts_with("&>")
}

/// A word of a synopsis rather than of a command: `NAME`, `[OPTIONS]`, `FIXTURE...`, `bash|zsh`.
fn is_placeholder(word: &str) -> bool {
    let bare = word.trim_end_matches("...").trim_end_matches('…');
    bare != word
        || word.starts_with('[')
        || word.starts_with('<')
        || word.contains('|')
        || (bare.chars().any(|c| c.is_ascii_uppercase())
            && bare.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c == '-'))
}

/// The `hookmux` commands of one line of shell (continuations already joined).
fn commands_in(line: &str, at: &str, inline: bool, found: &mut Vec<Shown>) {
    let Some(words) = shlex::split(line) else {
        // A line with an unbalanced quote is prose, a comment or part of a heredoc.
        return;
    };
    // `a; b`: shlex keeps the `;` on the word before it.
    let words: Vec<String> = words
        .into_iter()
        .flat_map(|w| match w.strip_suffix(';') {
            Some(head) if !head.is_empty() => vec![head.to_string(), ";".to_string()],
            _ => vec![w],
        })
        .collect();
    let mut rest = words.as_slice();
    while !rest.is_empty() {
        let end = rest.iter().position(|w| ends_command(w)).unwrap_or(rest.len());
        let segment = &rest[..end];
        rest = rest.get(end + 1..).unwrap_or(&[]);
        // Leading assignments (`CLAUDE_PROJECT_DIR=/tmp/demo hookmux run …`).
        let mut segment = segment.iter().skip_while(|w| w.contains('=') && !w.starts_with('-'));
        let Some(program) = segment.next() else { continue };
        if program != "hookmux" && !program.ends_with("/hookmux") {
            continue;
        }
        let words: Vec<String> = segment.take_while(|w| !is_redirection(w) && !w.starts_with('#')).cloned().collect();
        found.push(Shown { at: at.to_string(), words, inline });
    }
}

/// Every `hookmux …` command of a page: the lines of its shell blocks (comments, which show
/// output, left out), and inline code spans that start with `hookmux `.
fn shown_in(page: &Path) -> Vec<Shown> {
    let text = std::fs::read_to_string(page).expect("a page is UTF-8");
    let name = page.strip_prefix(repo()).unwrap_or(page).display().to_string();
    let mut found = Vec::new();
    let mut fence: Option<String> = None;
    let mut pending = String::new();
    for (index, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", index + 1);
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(rest.trim().to_string()),
            };
            continue;
        }
        match fence.as_deref() {
            Some("sh" | "bash" | "shell" | "console") => {
                if trimmed.starts_with('#') {
                    continue;
                }
                let line = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
                if let Some(head) = line.strip_suffix('\\') {
                    pending.push_str(head);
                    pending.push(' ');
                    continue;
                }
                pending.push_str(line);
                commands_in(&std::mem::take(&mut pending), &at, false, &mut found);
            }
            Some(_) => {}
            None => {
                for span in line.split('`').skip(1).step_by(2) {
                    if span.starts_with("hookmux ") && !DELIBERATE.contains(&span) {
                        commands_in(span, &at, true, &mut found);
                    }
                }
            }
        }
    }
    found
}

/// The subcommand path a command names (`["hooks", "validate"]`) and whether its words form a
/// command to parse whole, rather than a synopsis such as `hookmux run NAME [OPTIONS]`.
fn path_of(words: &[String]) -> (Vec<String>, bool) {
    let mut command = hookmux::cli::command();
    command.build();
    let mut path = Vec::new();
    let mut current = &command;
    for word in words {
        match current.find_subcommand(word) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                current = sub;
            }
            None => break,
        }
    }
    let synopsis = words.iter().any(|w| is_placeholder(w));
    (path, !synopsis)
}

/// For a command named in running text: each word before the first option or placeholder names
/// a command, and each `--option` is one of the last command's.
fn names_exist(words: &[String], path: &[String]) -> Result<(), String> {
    let mut command = hookmux::cli::command();
    command.build();
    let mut current = command;
    for name in path {
        current = current.find_subcommand(name).cloned().ok_or_else(|| format!("no command `{name}`"))?;
    }
    if let Some(word) = words.get(path.len()) {
        if current.get_subcommands().count() > 0 && !word.starts_with('-') && !is_placeholder(word) {
            return Err(format!("`{}` is not a command of `hookmux {}`", word, path.join(" ")));
        }
    }
    for word in words.iter().filter(|w| w.starts_with("--")) {
        let long = word.trim_start_matches("--").split('=').next().unwrap_or_default();
        let known = long == "help"
            || long == "version"
            || current.get_arguments().any(|arg| arg.get_long() == Some(long))
            // `hookmux run NAME --option`: the handler's options, which `hookmux run` parses.
            || current.get_name() == "run";
        if !known {
            return Err(format!("`hookmux {}` has no option `--{long}`", path.join(" ")));
        }
    }
    Ok(())
}

fn all_shown() -> Vec<Shown> {
    let shown: Vec<Shown> = pages().iter().flat_map(|page| shown_in(page)).collect();
    assert!(shown.len() > 100, "the scan found only {} commands: is it still reading the docs?", shown.len());
    shown
}

#[test]
fn every_hookmux_command_in_the_docs_parses() {
    let mut wrong = Vec::new();
    for Shown { at, words, inline } in all_shown() {
        let (path, whole) = path_of(&words);
        if inline {
            if let Err(why) = names_exist(&words, &path) {
                wrong.push(format!("{at}: `hookmux {}`: {why}", words.join(" ")));
            }
            continue;
        }
        let mut argv = vec!["hookmux".to_string()];
        if whole {
            argv.extend(words.iter().cloned());
        } else {
            // A synopsis: the words up to the first placeholder must still name commands.
            let named: Vec<&String> = words.iter().take_while(|w| !is_placeholder(w) && !w.starts_with('-')).collect();
            if named.len() > path.len() {
                let parent =
                    if path.is_empty() { "hookmux".to_string() } else { format!("hookmux {}", path.join(" ")) };
                let sub_count = {
                    let mut command = hookmux::cli::command();
                    command.build();
                    let mut current = command;
                    for p in &path {
                        current = current.find_subcommand(p).cloned().expect("the path was found above");
                    }
                    current.get_subcommands().count()
                };
                if sub_count > 0 {
                    wrong.push(format!("{at}: `{parent}` has no command `{}`", named[path.len()]));
                    continue;
                }
            }
            argv.extend(path.iter().cloned());
            argv.push("--help".to_string());
        }
        match hookmux::cli::command().try_get_matches_from(&argv) {
            Ok(_) => {}
            Err(err)
                if matches!(
                    err.kind(),
                    clap::error::ErrorKind::DisplayHelp
                        | clap::error::ErrorKind::DisplayVersion
                        | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                ) => {}
            Err(err) => {
                let first = err.to_string().lines().next().unwrap_or_default().to_string();
                wrong.push(format!("{at}: `{}`: {first}", argv.join(" ")));
            }
        }
    }
    assert!(wrong.is_empty(), "commands in the docs that hookmux does not take:\n{}", wrong.join("\n"));
}

#[test]
fn the_help_of_every_command_the_docs_name_succeeds() {
    let paths: BTreeSet<Vec<String>> = all_shown().iter().map(|shown| path_of(&shown.words).0).collect();
    assert!(paths.len() > 10, "only {} commands named", paths.len());
    for path in paths {
        let output = Hookmux::new(path.iter().cloned().chain(["--help".to_string()])).run();
        assert!(
            output.code == Some(0) && !output.stdout.is_empty(),
            "`hookmux {} --help` failed: {}",
            path.join(" "),
            output.stderr
        );
    }
}

#[test]
fn a_misspelt_command_or_option_would_be_caught() {
    let mut found = Vec::new();
    commands_in("echo '{}' | hookmux hooks valdate --settings x.json", "t:1", false, &mut found);
    commands_in("HOOKMUX_TRACE=full hookmux dispatch --setings x.json < event.json", "t:2", false, &mut found);
    commands_in("hookmux hooks valdate", "t:3", true, &mut found);
    commands_in("hookmux dispatch --setings", "t:4", true, &mut found);
    assert_eq!(found.len(), 4);
    for Shown { words, .. } in found.iter().skip(2) {
        assert!(names_exist(words, &path_of(words).0).is_err(), "{words:?} passed");
    }
    for Shown { words, .. } in found.into_iter().take(2) {
        let (_, whole) = path_of(&words);
        assert!(whole);
        let argv: Vec<String> = std::iter::once("hookmux".to_string()).chain(words).collect();
        assert!(hookmux::cli::command().try_get_matches_from(&argv).is_err(), "{argv:?} parsed");
    }
}

#[test]
fn every_page_of_the_book_exists_and_its_relative_links_resolve() {
    let src = repo().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page is UTF-8");
        let name = page.strip_prefix(repo()).unwrap_or(&page).display().to_string();
        let mut in_fence = false;
        for (index, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            if in_fence {
                continue;
            }
            for target in line.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
                let file = target.split('#').next().unwrap_or_default();
                if file.is_empty() || file.contains("://") || file.starts_with("mailto:") {
                    continue;
                }
                let base = page.parent().unwrap_or(repo());
                if !base.join(file).exists() {
                    broken.push(format!("{name}:{}: {target}", index + 1));
                }
            }
        }
        if page.starts_with(&src) && page.file_name().is_some_and(|n| n != "SUMMARY.md") {
            // As SUMMARY.md links it: `/` between the folders, on every OS.
            let relative = page.strip_prefix(&src).unwrap_or(&page);
            let relative: Vec<_> = relative.components().map(|part| part.as_os_str().to_string_lossy()).collect();
            let relative = relative.join("/");
            if !summary.contains(&format!("]({relative})")) {
                broken.push(format!("{name}: not in SUMMARY.md"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links or pages left out of the book:\n{}", broken.join("\n"));
}
