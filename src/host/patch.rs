//! The patch format of Codex's and OpenCode's `apply_patch` tool, as Claude edits.
//!
//! A patch is a security boundary's blind spot unless every file it changes reaches the hooks
//! that guard `Edit|Write`, so [`parse`] reads more than either host applies, never less: every
//! line that, trimmed, starts with a file header (`*** Add File:`, `*** Update File:`,
//! `*** Delete File:`, `*** Move to:`, with or without the space after the colon) names a file,
//! wherever it stands. Codex trims a hunk's first line and OpenCode takes a header without the
//! space, and neither host changes a file no header names; a line that only one of them would
//! take, or neither, costs at most a hook run too many.
//!
//! | patch | Claude tool call (`tool_input`) |
//! |---|---|
//! | `*** Add File: p` | Write `{file_path: p, content}` |
//! | `*** Update File: p` | Edit `{file_path: p, old_string, new_string}` (the strings for a one-hunk update) |
//! | `*** Update File: p` + `*** Move to: q` | Edit `{file_path: p}` (it leaves `p`), then Write `{file_path: q}` (it lands on `q`, replacing what was there) |
//! | `*** Delete File: p` | Edit `{file_path: p}` |
//! | no file header at all | one Edit with no `file_path`: neither host changes a file for it |
//!
//! Claude Code has no tool that deletes or moves a file, and a guard of `Edit|Write` is what
//! must see both, so a file a patch removes is an Edit of it; `patch_op` (`add`, `update`,
//! `delete`, `move_from`, `move_to`) says which it is, and the patch itself stays in the host's
//! own field. Paths are made absolute against the session's folder, as Claude Code's are, and
//! otherwise left as written: `sub/../.env` is for the hook to resolve, as protect-paths does.

use hookmux_sdk::Event;
use serde_json::{Map, Value};
use std::path::Path;

/// One file operation of a patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchFile {
    pub op: PatchOp,
    pub path: String,
    /// An update's destination (`*** Move to:`).
    pub move_to: Option<String>,
    /// Added file: its whole content.
    pub content: Option<String>,
    /// An update with one hunk: the lines it replaces and their replacement.
    pub old_new: Option<(String, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchOp {
    Add,
    Update,
    Delete,
}

const HEADERS: [(&str, Header); 4] = [
    ("*** Add File:", Header::File(PatchOp::Add)),
    ("*** Update File:", Header::File(PatchOp::Update)),
    ("*** Delete File:", Header::File(PatchOp::Delete)),
    ("*** Move to:", Header::MoveTo),
];

#[derive(Clone, Copy)]
enum Header {
    File(PatchOp),
    MoveTo,
}

fn header(line: &str) -> Option<(Header, &str)> {
    let line = line.trim();
    HEADERS.iter().find_map(|(prefix, header)| line.strip_prefix(prefix).map(|path| (*header, path.trim())))
}

/// Every file operation a patch text names, in patch order (see the module's documentation for
/// how much it reads). A `*** Move to:` that follows no update of its own is a file of its own.
pub fn parse(patch: &str) -> Vec<PatchFile> {
    let mut files: Vec<PatchFile> = Vec::new();
    let mut body = Body::default();
    for line in patch.lines() {
        if let Some((kind, path)) = header(line) {
            let right_after_header = body.is_empty();
            body.finish(files.last_mut());
            match kind {
                Header::MoveTo => match files.last_mut() {
                    Some(file) if file.op == PatchOp::Update && file.move_to.is_none() && right_after_header => {
                        file.move_to = Some(path.to_string());
                    }
                    _ => files.push(PatchFile::new(PatchOp::Update, path)),
                },
                Header::File(op) => files.push(PatchFile::new(op, path)),
            }
            continue;
        }
        let Some(file) = files.last() else { continue };
        let line = line.strip_suffix('\r').unwrap_or(line);
        match file.op {
            PatchOp::Add => {
                if let Some(text) = line.strip_prefix('+') {
                    body.added.push(text.to_string());
                }
            }
            PatchOp::Update => body.update_line(line),
            PatchOp::Delete => {}
        }
    }
    body.finish(files.last_mut());
    files
}

impl PatchFile {
    fn new(op: PatchOp, path: &str) -> PatchFile {
        PatchFile { op, path: path.to_string(), move_to: None, content: None, old_new: None }
    }
}

/// The lines of the file being read.
#[derive(Default)]
struct Body {
    hunks: usize,
    lines: usize,
    old: Vec<String>,
    new: Vec<String>,
    added: Vec<String>,
}

impl Body {
    fn is_empty(&self) -> bool {
        self.lines == 0 && self.hunks == 0
    }

    fn update_line(&mut self, line: &str) {
        self.lines += 1;
        if line.starts_with("@@") {
            self.hunks += 1;
        } else if let Some(text) = line.strip_prefix('-') {
            self.old.push(text.to_string());
        } else if let Some(text) = line.strip_prefix('+') {
            self.new.push(text.to_string());
        } else if let Some(text) = line.strip_prefix(' ') {
            self.old.push(text.to_string());
            self.new.push(text.to_string());
        } else if line.is_empty() {
            // Codex reads an empty line inside a hunk as an empty context line.
            self.old.push(String::new());
            self.new.push(String::new());
        }
    }

    fn finish(&mut self, file: Option<&mut PatchFile>) {
        let body = std::mem::take(self);
        let Some(file) = file else { return };
        match file.op {
            PatchOp::Add if file.content.is_none() => {
                file.content = Some(body.added.iter().map(|l| format!("{l}\n")).collect());
            }
            PatchOp::Update
                if file.old_new.is_none() && body.hunks <= 1 && !(body.old.is_empty() && body.new.is_empty()) =>
            {
                file.old_new = Some((body.old.join("\n"), body.new.join("\n")));
            }
            _ => {}
        }
    }
}

/// The Claude events a patch call stands for: one per file (two for a move), each `event` with
/// its tool and input replaced. `field` is where the host keeps the patch (`command` for Codex,
/// `patch_text` for OpenCode), kept in every input so that hooks written for the host still find
/// it. Relative paths are taken from `cwd`.
pub fn claude_events(event: &Event, field: &str, patch: &str, files: &[PatchFile], cwd: &Path) -> Vec<Event> {
    let calls: Vec<(&str, Map<String, Value>)> = if files.is_empty() {
        vec![("Edit", Map::new())]
    } else {
        files.iter().flat_map(|file| file.calls(cwd)).collect()
    };
    calls
        .into_iter()
        .map(|(tool, mut input)| {
            input.insert(field.into(), patch.into());
            let mut fields = event.fields().clone();
            fields.insert("tool_name".into(), tool.into());
            fields.insert("tool_input".into(), Value::Object(input));
            Event::from_fields(fields)
        })
        .collect()
}

impl PatchFile {
    /// The Claude tool calls for this file, without the patch.
    fn calls(&self, cwd: &Path) -> Vec<(&'static str, Map<String, Value>)> {
        let input = |path: &str, op: &str| {
            let path = Path::new(path);
            let absolute = if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) };
            let mut input = Map::new();
            input.insert("file_path".into(), absolute.to_string_lossy().into_owned().into());
            input.insert("patch_op".into(), op.into());
            input
        };
        let with_strings = |mut input: Map<String, Value>| {
            if let Some((old, new)) = &self.old_new {
                input.insert("old_string".into(), old.clone().into());
                input.insert("new_string".into(), new.clone().into());
            }
            input
        };
        match (self.op, &self.move_to) {
            (PatchOp::Add, _) => {
                let mut write = input(&self.path, "add");
                write.insert("content".into(), self.content.clone().unwrap_or_default().into());
                vec![("Write", write)]
            }
            (PatchOp::Update, None) => vec![("Edit", with_strings(input(&self.path, "update")))],
            (PatchOp::Update, Some(to)) => {
                vec![("Edit", with_strings(input(&self.path, "move_from"))), ("Write", input(to, "move_to"))]
            }
            (PatchOp::Delete, _) => vec![("Edit", input(&self.path, "delete"))],
        }
    }
}

/// A hook's `updatedInput` for one of a patch's Claude calls, as a whole new patch text: the
/// patch itself when the hook rewrote it in `field`, or a patch adding the one file of a patch
/// that adds only that file, with the hook's `content`. Any other rewrite of one file cannot be
/// put back into a patch of several, and the error says why.
pub fn rewritten(updated: &Value, field: &str, original: &str, files: &[PatchFile]) -> Result<String, String> {
    if let Some(patch) = updated.get(field).and_then(Value::as_str).filter(|p| *p != original) {
        return Ok(patch.to_string());
    }
    match (files, updated.get("content").and_then(Value::as_str)) {
        ([file], Some(content)) if file.op == PatchOp::Add => {
            let lines: String = content.lines().map(|l| format!("+{l}\n")).collect();
            Ok(format!("*** Begin Patch\n*** Add File: {}\n{lines}*** End Patch\n", file.path))
        }
        _ => Err(format!(
            "apply_patch takes a rewrite as a whole patch in `{field}`, or new `content` for a patch that adds one file"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_header_either_host_takes() {
        let patch = "*** Begin Patch\n*** Add File:.env\n+a\n\t*** Delete File: b\n*** End Patch";
        let files = parse(patch);
        let names: Vec<(PatchOp, &str)> = files.iter().map(|f| (f.op, f.path.as_str())).collect();
        assert_eq!(names, [(PatchOp::Add, ".env"), (PatchOp::Delete, "b")]);
        assert_eq!(files[0].content.as_deref(), Some("a\n"));
    }

    #[test]
    fn a_stray_move_is_a_file_of_its_own() {
        let files = parse("*** Begin Patch\n*** Add File: a\n+x\n*** Move to: .env\n*** End Patch\n");
        assert_eq!(files.len(), 2);
        assert_eq!((files[1].op, files[1].path.as_str()), (PatchOp::Update, ".env"));
        // A second destination for one update is also a file of its own.
        let files = parse("*** Update File: a\n*** Move to: b\n*** Move to: c\n@@\n-x\n+y\n");
        assert_eq!(files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(files[0].move_to.as_deref(), Some("b"));
    }

    #[test]
    fn end_of_file_and_blank_lines_in_a_hunk() {
        let files = parse("*** Begin Patch\n*** Update File: a\n@@\n x\n\n-y\n+z\n*** End of File\n*** End Patch\n");
        assert_eq!(files[0].old_new, Some(("x\n\ny".to_string(), "x\n\nz".to_string())));
    }
}
