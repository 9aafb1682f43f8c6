//! Large hook text, as Claude Code 2.1.328 hands it to the model.
//!
//! The host keeps a hook's context inline only up to [`INLINE_LIMIT`] characters (plain stdout on
//! UserPromptSubmit and SessionStart, and each `additionalContext`, trimmed). Longer text is saved
//! to a file in the session's `tool-results/` folder and the model gets a [`PREVIEW_CHARS`]
//! preview in its place:
//!
//! ```text
//! <persisted-output>
//! Output too large (10.7KB). Full output saved to: /…/tool-results/hook-…-stdout.txt
//!
//! Preview (first 2KB):
//! …the first 2,000 characters…
//! ...
//! </persisted-output>
//! ```
//!
//! The limit applies to each hook's text, and dispatch's one answer is one hook's text to the
//! host. So [`fit`] does per hook what the host would have done (each text over the limit is saved
//! and replaced by the host's own preview), and then keeps the answer itself within the limit by
//! saving the largest remaining texts the same way, so that the host never saves the answer as a
//! whole and shows the model only the start of the first hook's text.

use crate::engine::verdict::combine::{Combined, ContextPiece};
use hookmux_platform::fs::{self as platform_fs, Access};
use hookmux_sdk::{Env, Event, HookEvent};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most characters (UTF-16 code units, JavaScript's `length`) of one hook's trimmed text that
/// Claude Code 2.1.328 puts in front of the model as it is.
pub const INLINE_LIMIT: usize = 10_000;

/// How many characters of a saved text the preview shows.
pub const PREVIEW_CHARS: usize = 2_000;

/// Where saved texts go: the session's `tool-results/` folder beside its transcript, where the
/// host saves its own (`<projects>/<project>/<session>/tool-results/`); without a transcript,
/// `$TMPDIR/hookmux-hook-outputs-<uid>/<session>/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub dir: PathBuf,
    /// The folder above `dir` in a place every user can write to (the temporary folder): it is
    /// used only when it is a real folder of this user's that no one else can write into, or
    /// another user could have made it first and swapped a saved text for one of theirs.
    pub shared_parent: Option<PathBuf>,
}

impl Store {
    pub fn for_event(event: &Event, env: &Env) -> Store {
        let session = event.session_id().filter(|s| is_plain_name(s)).unwrap_or("session");
        if let Some(transcript) = event.transcript_path().filter(|p| !p.is_empty()).map(Path::new) {
            if let (Some(folder), Some(stem)) = (transcript.parent(), transcript.file_stem()) {
                return Store { dir: folder.join(stem).join("tool-results"), shared_parent: None };
            }
        }
        let outputs = hookmux_platform::dirs::user_temp(env, "hookmux-hook-outputs");
        Store { dir: outputs.join(session), shared_parent: Some(outputs) }
    }

    /// Saves `text` under a name made of the event, a digest of the text and its kind; the same
    /// text saved twice is one file. Returns the file's path.
    fn save(&self, event: HookEvent, kind: &str, text: &str) -> std::io::Result<PathBuf> {
        let digest = Sha256::digest(text.as_bytes());
        let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
        let path = self.dir.join(format!("hook-hookmux-{}-{hex}-{kind}.txt", event.as_str()));
        if let Some(parent) = &self.shared_parent {
            hookmux_handlers::safe_fs::private_dir(parent)?;
        }
        platform_fs::create_private_dirs(&self.dir)?;
        // Written beside the target and renamed over it, so a reader never sees half a file.
        let partial = self.dir.join(format!(".{hex}.{}.partial", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        platform_fs::create_with(options.write(true).create_new(true), Access::Private);
        let written = options.open(&partial).and_then(|mut file| file.write_all(text.as_bytes()));
        if let Err(error) = written.and_then(|()| std::fs::rename(&partial, &path)) {
            let _ = std::fs::remove_file(&partial);
            return Err(error);
        }
        Ok(path)
    }
}

fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 128 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// JavaScript's `length` of `text`.
pub fn js_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The host's size wording: `512 bytes`, `10.7KB`, `2KB`, `1.5MB`.
pub fn format_size(bytes: usize) -> String {
    let kb = bytes as f64 / 1024.0;
    if kb < 1.0 {
        return format!("{bytes} bytes");
    }
    let one_decimal = |value: f64| {
        let text = format!("{value:.1}");
        text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
    };
    if kb < 1024.0 {
        return format!("{}KB", one_decimal(kb));
    }
    let mb = kb / 1024.0;
    if mb < 1024.0 {
        return format!("{}MB", one_decimal(mb));
    }
    format!("{}GB", one_decimal(mb / 1024.0))
}

/// The first [`PREVIEW_CHARS`] characters of `text`, cut at its last line break when that falls
/// in the second half; and whether anything was left out.
fn preview(text: &str) -> (&str, bool) {
    if js_len(text) <= PREVIEW_CHARS {
        return (text, false);
    }
    let mut units = 0;
    let mut end = 0;
    for (at, c) in text.char_indices() {
        if units + c.len_utf16() > PREVIEW_CHARS {
            break;
        }
        units += c.len_utf16();
        end = at + c.len_utf8();
    }
    let head = &text[..end];
    match head.rfind('\n') {
        Some(newline) if js_len(&head[..newline]) > PREVIEW_CHARS / 2 => (&head[..newline], true),
        _ => (head, true),
    }
}

/// The text the host puts in front of the model for a hook text it saved to `path`.
pub fn persisted_block(text: &str, path: &Path) -> String {
    let (shown, more) = preview(text);
    format!(
        "<persisted-output>\nOutput too large ({}). Full output saved to: {}\n\nPreview (first {}):\n{shown}\n{}</persisted-output>",
        format_size(text.len()),
        path.display(),
        format_size(PREVIEW_CHARS),
        if more { "...\n" } else { "" }
    )
}

/// The combined answer's text for the model, as the host measures it.
fn answer_len(pieces: &[ContextPiece]) -> usize {
    let texts: Vec<&str> = pieces.iter().map(|p| p.text().trim_end_matches('\n')).collect();
    js_len(texts.join("\n").trim())
}

/// Keeps every hook's text as the host would show it, and the one answer within the host's limit.
///
/// Texts kept whole come first, in configured order, then the previews of saved ones: the host
/// lists several hooks' texts in the order they finish, so this is one of its own orders, and the
/// one where no preview's end hides where the next hook's text starts.
pub fn fit(combined: &mut Combined, event: HookEvent, store: &Store) {
    let count = combined.context.len();
    // Looked at (saved, or too short to gain from saving), and saved.
    let mut done = vec![false; count];
    let mut saved = vec![false; count];
    // Per hook, what the host does to each hook's own text.
    for (at, piece) in combined.context.iter_mut().enumerate() {
        if js_len(piece.text().trim()) > INLINE_LIMIT {
            (done[at], saved[at]) = (true, true);
            if let Some(notice) = persist(piece, event, store) {
                combined.notices.push(notice);
            }
        }
    }
    // Then the answer as a whole: the largest texts still inline go to files until it fits.
    let mut moved = 0;
    while answer_len(&combined.context) > INLINE_LIMIT {
        let largest =
            (0..count).filter(|&at| !done[at]).max_by_key(|&at| (js_len(combined.context[at].text().trim()), at));
        let Some(at) = largest else { break };
        done[at] = true;
        if js_len(combined.context[at].text().trim()) <= PREVIEW_CHARS {
            continue;
        }
        saved[at] = true;
        moved += 1;
        if let Some(notice) = persist(&mut combined.context[at], event, store) {
            combined.notices.push(notice);
        }
    }
    if saved.contains(&true) {
        let pieces = std::mem::take(&mut combined.context);
        let (previews, whole): (Vec<_>, Vec<_>) = pieces.into_iter().zip(saved).partition(|(_, saved)| *saved);
        combined.context = whole.into_iter().chain(previews).map(|(piece, _)| piece).collect();
    }
    if moved > 0 {
        combined.notices.push(format!(
            "hookmux: the hooks' context for the model came to more than Claude Code's {} characters per hook, so {moved} of the texts {} saved to files in {}, each with a preview in its place, as Claude Code shows one hook's longer text",
            thousands(INLINE_LIMIT),
            if moved == 1 { "was" } else { "were" },
            store.dir.display()
        ));
    }
}

/// Saves one hook's text and puts the host's preview in its place. When it cannot be saved, the
/// preview stays and says so; the returned notice tells the user.
fn persist(piece: &mut ContextPiece, event: HookEvent, store: &Store) -> Option<String> {
    let text = piece.text().trim().to_string();
    let kind = match piece {
        ContextPiece::Plain(_) => "stdout",
        ContextPiece::Additional(_) => "additionalContext",
    };
    let (replacement, notice) = match store.save(event, kind, &text) {
        Ok(path) => (persisted_block(&text, &path), None),
        Err(error) => {
            let (shown, _) = preview(&text);
            (
                format!(
                    "<persisted-output>\nOutput too large ({}). It could not be saved, so only the first {} are shown; the rest was dropped.\n\n{shown}\n...\n</persisted-output>",
                    format_size(text.len()),
                    thousands(js_len(shown))
                ),
                Some(format!(
                    "hookmux: a hook's text for the model is longer than Claude Code's {} characters and could not be saved to {} ({error}); the model gets its first {} characters",
                    thousands(INLINE_LIMIT),
                    store.dir.display(),
                    thousands(js_len(shown))
                )),
            )
        }
    };
    *piece = match piece {
        ContextPiece::Plain(_) => ContextPiece::Plain(replacement),
        ContextPiece::Additional(_) => ContextPiece::Additional(replacement),
    };
    notice
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_the_host_words_them() {
        assert_eq!(format_size(512), "512 bytes");
        assert_eq!(format_size(2_000), "2KB");
        assert_eq!(format_size(10_001), "9.8KB");
        assert_eq!(format_size(11_000), "10.7KB");
        assert_eq!(format_size(12_001), "11.7KB");
        assert_eq!(format_size(120_000), "117.2KB");
        assert_eq!(format_size(3 * 1024 * 1024 / 2), "1.5MB");
    }

    #[test]
    fn preview_cuts_at_a_late_line_break_only() {
        let long_line = "x".repeat(5_000);
        assert_eq!(preview(&long_line), (&long_line[..2_000], true));
        let lines = format!("{}\n{}", "a".repeat(1_500), "b".repeat(3_000));
        assert_eq!(preview(&lines), (&lines[..1_500], true));
        let early = format!("{}\n{}", "a".repeat(500), "b".repeat(3_000));
        assert_eq!(preview(&early).0.len(), 2_000);
        // Characters outside the BMP count twice, as in JavaScript, and are never split.
        let wide = "😀".repeat(1_500);
        assert_eq!(js_len(preview(&wide).0), 2_000);
    }

    fn without_transcript(tmp: &Path) -> (Env, Store) {
        let env: Env = [(hookmux_platform::dirs::variable(hookmux_platform::dirs::Folder::Temp), tmp.as_os_str())]
            .into_iter()
            .collect();
        let event = Event::parse(r#"{"hook_event_name": "UserPromptSubmit", "session_id": "s"}"#);
        let store = Store::for_event(&event, &env);
        (env, store)
    }

    #[test]
    fn without_a_transcript_texts_go_to_a_folder_of_the_users_own_under_the_temporary_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let (env, store) = without_transcript(tmp.path());
        let outputs = hookmux_platform::dirs::user_temp(&env, "hookmux-hook-outputs");
        assert_eq!((&store.dir, store.shared_parent.as_ref()), (&outputs.join("s"), Some(&outputs)));
        let saved = store.save(HookEvent::UserPromptSubmit, "stdout", "text").unwrap();
        assert!(saved.starts_with(&store.dir), "{}", saved.display());
        assert_eq!(platform_fs::why_not_private_dir(&outputs).unwrap(), None);
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_shared_folder_someone_else_put_in_place_is_not_saved_into() {
        let tmp = tempfile::tempdir().unwrap();
        let (env, store) = without_transcript(tmp.path());
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        platform_fs::symlink_dir(&elsewhere, &hookmux_platform::dirs::user_temp(&env, "hookmux-hook-outputs")).unwrap();
        let err = store.save(HookEvent::UserPromptSubmit, "stdout", "text").unwrap_err();
        assert!(err.to_string().contains("it is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing is saved where the link points");
    }

    /// Modes: what Unix keeps access in.
    #[cfg(unix)]
    mod unix {
        use super::*;
        use std::os::unix::fs::PermissionsExt;

        #[test]
        fn a_shared_folder_others_can_write_into_is_not_saved_into() {
            let tmp = tempfile::tempdir().unwrap();
            let (env, store) = without_transcript(tmp.path());
            let outputs = hookmux_platform::dirs::user_temp(&env, "hookmux-hook-outputs");
            std::fs::create_dir(&outputs).unwrap();
            std::fs::set_permissions(&outputs, std::fs::Permissions::from_mode(0o777)).unwrap();
            let err = store.save(HookEvent::UserPromptSubmit, "stdout", "text").unwrap_err();
            assert!(err.to_string().contains("others can write into it"), "{err}");
            assert_eq!(std::fs::read_dir(&outputs).unwrap().count(), 0);
        }
    }
}
