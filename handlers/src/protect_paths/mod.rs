//! `protect-paths`: deny edits (and, on request, reads) of files that match protected globs.
//!
//! Globs are relative to the project root, with `*` stopping at `/` and `**` crossing folders:
//! `.env` is the root's `.env` only, `**/*.pem` is any `.pem`. A path under the root is matched
//! relative to it; a path outside the root is matched as the absolute path it is. A path is also
//! matched as where it really is, its folders' and its own symlinks followed (as far as they
//! exist; the file may be new): a root or a path spelled through a link (macOS's `/tmp` and
//! `/var` are links into `/private`), or a link to a protected file, is denied. Where the file
//! system takes names that differ only in case for one file (macOS and Windows as they come, a
//! `casefold` folder on Linux), globs ignore case: `.ENV` there is `.env`. A denied call
//! gets `permissionDecision: deny` with a reason naming the pattern; every other call gets no
//! decision at all, never an `allow`, which would skip the host's own permission prompt.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use hookmux_platform::path::{names_fold_case, resolve_links};
use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent, OptionKind, OptionSpec};
use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::paths;

#[cfg(test)]
mod tests;

/// Protected unless `--no-defaults` is given.
pub const DEFAULT_GLOBS: &[&str] = &[".env", ".env.*", "**/*.pem", "**/*.key", "**/id_rsa*", ".git/**"];

pub struct ProtectPaths;

static INFO: HandlerInfo = HandlerInfo {
    name: "protect-paths",
    description: "Denies edits (and, with --include-read, reads) of secrets and other protected paths",
    events: &[HookEvent::PreToolUse],
    matcher: Some("Edit|Write|MultiEdit|NotebookEdit|Read"),
    options: &[
        OptionSpec {
            name: "deny",
            kind: OptionKind::List,
            default: None,
            help: "another protected glob, relative to the project root",
        },
        OptionSpec {
            name: "allow",
            kind: OptionKind::List,
            default: None,
            help: "a glob carved out of the protected ones",
        },
        OptionSpec {
            name: "include-read",
            kind: OptionKind::Flag,
            default: None,
            help: "also deny Read of protected paths",
        },
        OptionSpec {
            name: "no-defaults",
            kind: OptionKind::Flag,
            default: None,
            help: "drop the default globs: .env, .env.*, **/*.pem, **/*.key, **/id_rsa*, .git/**",
        },
    ],
};

impl Handler for ProtectPaths {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn guards(&self) -> bool {
        true
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        let event = cx.event();
        let args = cx.args();
        let (field, verb) = match event.tool_name() {
            Some("Edit" | "Write" | "MultiEdit") => ("file_path", "editing"),
            Some("NotebookEdit") => ("notebook_path", "editing"),
            Some("Read") if args.flag("include-read") => ("file_path", "reading"),
            _ => return Ok(Answer::none()),
        };
        let Some(raw_path) = event.tool_input_str(field).filter(|p| !p.is_empty()) else {
            return Ok(Answer::none());
        };

        let allow: Vec<&str> = args.values("allow").iter().map(String::as_str).collect();
        let defaults: &[&str] = if args.flag("no-defaults") { &[] } else { DEFAULT_GLOBS };
        let extra: Vec<&str> = args.values("deny").iter().map(String::as_str).collect();
        let (candidates, folder) = match_candidates(Path::new(raw_path), cx.cwd(), cx.project_root());
        // Whether the folder folds case is asked only when some glob could match at all.
        let fold = OnceCell::new();
        let fold = || *fold.get_or_init(|| names_fold_case(&folder));
        for candidate in candidates {
            if !allow.is_empty() && first_match(&allow, &candidate, fold)?.is_some() {
                continue;
            }
            let mut pattern = None;
            for patterns in [defaults, extra.as_slice()] {
                if pattern.is_none() && !patterns.is_empty() {
                    pattern = first_match(patterns, &candidate, fold)?.map(|index| patterns[index]);
                }
            }
            if let Some(pattern) = pattern {
                return Ok(Answer::deny(format!(
                    "hookmux protect-paths: {verb} `{candidate}` is not allowed: it matches the protected \
                     pattern `{pattern}`. Ask the user to make this change themselves."
                )));
            }
        }
        Ok(Answer::none())
    }
}

register_handler!(ProtectPaths);

/// The strings globs are matched against: the path as the tool call spells it, then, when it
/// differs, as it really is on disk, each relative to the project root when it lies under it (the
/// root taken the same way), else absolute; and the folder whose case folding decides how globs
/// compare (the file's own, as it really is).
fn match_candidates(path: &Path, cwd: &Path, root: &Path) -> (Vec<String>, PathBuf) {
    let absolute = paths::absolute(path, cwd);
    let root = paths::absolute(root, cwd);
    let spelled = relative_or_absolute(&absolute, &root);
    let physical = resolve_links(&absolute);
    let folder = physical.parent().unwrap_or(&physical).to_path_buf();
    let real = relative_or_absolute(&physical, &resolve_links(&root));
    if real == spelled {
        (vec![spelled], folder)
    } else {
        (vec![spelled, real], folder)
    }
}

fn relative_or_absolute(path: &Path, root: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(relative) if !relative.as_os_str().is_empty() => relative.to_string_lossy().into_owned(),
        _ => path.to_string_lossy().into_owned(),
    }
}

/// The index of the first of `patterns` that `candidate` matches, case folded when `fold` says
/// the file's folder folds case.
///
/// Compiling a glob set costs more than everything else the handler does, and most calls name a
/// file no glob can match: every glob's plain-text runs (`.pem` of `**/*.pem`) must appear in
/// whatever it matches, so a candidate lacking one of each glob's runs matches none of them, case
/// folded or not, and neither the set nor the folder's case folding is needed. The globs are
/// still parsed, so an invalid one is reported exactly as before.
fn first_match(patterns: &[&str], candidate: &str, fold: impl Fn() -> bool) -> anyhow::Result<Option<usize>> {
    if !patterns.iter().any(|pattern| may_match(pattern, candidate)) {
        if !std::ptr::eq(patterns, DEFAULT_GLOBS) {
            for pattern in patterns {
                glob(pattern, false)?;
            }
        }
        return Ok(None);
    }
    Ok(glob_set(patterns, fold())?.matches(candidate).first().copied())
}

/// False only when `candidate` cannot match `pattern`: it lacks one of the pattern's runs of
/// plain text (between `*`, `?` and `/`), compared ignoring ASCII case, which covers a case-folded
/// match of an ASCII candidate. A pattern with classes, alternatives or escapes, or a candidate
/// beyond ASCII (where `K` folds to the Kelvin sign), is not judged here.
fn may_match(pattern: &str, candidate: &str) -> bool {
    if pattern.contains(['[', ']', '{', '}', '\\']) || !pattern.is_ascii() || !candidate.is_ascii() {
        return true;
    }
    pattern
        .split(['*', '?', '/'])
        .filter(|run| !run.is_empty())
        .all(|run| candidate.as_bytes().windows(run.len()).any(|window| window.eq_ignore_ascii_case(run.as_bytes())))
}

/// Compiles a glob list once per process. Under `hookmux dispatch` several protect-paths entries
/// (with different options) share the default globs, and compiling a set costs more than
/// everything else the handler does.
fn glob_set(patterns: &[&str], fold_case: bool) -> anyhow::Result<Arc<GlobSet>> {
    /// The patterns, and whether case is ignored.
    type Key = (Vec<String>, bool);
    static COMPILED: OnceLock<Mutex<HashMap<Key, Arc<GlobSet>>>> = OnceLock::new();
    let key = (patterns.iter().map(|p| p.to_string()).collect(), fold_case);
    // Held while compiling, so that entries running side by side compile a set once.
    let mut cache = COMPILED.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(set) = cache.get(&key) {
        return Ok(set.clone());
    }
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        builder.add(glob(pattern, fold_case)?);
    }
    let set = Arc::new(builder.build()?);
    cache.insert(key, set.clone());
    Ok(set)
}

fn glob(pattern: &str, fold_case: bool) -> anyhow::Result<Glob> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .case_insensitive(fold_case)
        .build()
        .map_err(|err| anyhow::anyhow!("protect-paths: invalid glob `{pattern}`: {err}"))
}
