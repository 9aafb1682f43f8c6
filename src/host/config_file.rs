//! The hosts' own configuration files, as the installers read and replace them.

use crate::engine::config::trust::{self, HostTrust};
use anyhow::{bail, Context};
use hookmux_platform::fs::Access;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A JSON object file: `empty` when the file is not there or blank; an error naming the file and
/// what to do when it is not a JSON object (`not_json` says why it would not parse: comments,
/// say).
pub fn read_json_object(path: &Path, empty: Value, not_json: &str) -> anyhow::Result<Value> {
    match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => Ok(empty),
        Ok(text) => {
            let value: Value = serde_json::from_str(&text)
                .with_context(|| format!("{}: {not_json}; fix it, then run this again", path.display()))?;
            if !value.is_object() {
                bail!("{}: not a JSON object; fix it (or move it away), then run this again", path.display());
            }
            Ok(value)
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(empty),
        Err(err) => bail!("{}: cannot read it: {err}", path.display()),
    }
}

/// Replaces `path` with `text` at once: a new temporary file beside it (random name, created
/// exclusively), written and synced, given the old file's permissions (or, for a new file, the
/// user's to write and everyone's to read: `0644` on Unix), then renamed over it. A reader sees
/// the old file or the new one, never half of either.
pub fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => hookmux_platform::fs::permissions(Access::Shared),
    };
    replace(path, text, permissions)
}

/// [`write_atomically`] for a script a host runs as a program (Cline's hook files): `0755` on
/// Unix; on Windows what its folder gives it.
pub fn write_executable(path: &Path, text: &str) -> anyhow::Result<()> {
    replace(path, text, hookmux_platform::fs::permissions(Access::Executable))
}

fn replace(path: &Path, text: &str, permissions: Option<std::fs::Permissions>) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut temp = tempfile::Builder::new()
        .prefix(".hookmux-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    temp.write_all(text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    temp.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions).with_context(|| format!("cannot write {}", path.display()))?;
    }
    temp.persist(path).map_err(|err| anyhow::anyhow!("cannot replace {}: {}", path.display(), err.error))?;
    Ok(())
}

/// The nearest folder up from `cwd` with a `.git`, as Codex and Gemini find the project; else
/// `cwd`.
pub fn project_root(cwd: &Path) -> PathBuf {
    cwd.ancestors().find(|dir| dir.join(".git").exists()).unwrap_or(cwd).to_path_buf()
}

/// A word for `sh`: as it is when it has nothing the shell reads, else single-quoted.
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:@%".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// When `project` has Claude settings of its own (`.claude/settings*.json`) that neither the host
/// (`host`: what it says about the project) nor hookmux's trust list lets run, what an installer
/// says: they run under the host (`label`) only in a trusted project, and how to trust it there
/// (`host_way`, when the host has a way) or with `hookmux trust`.
pub fn untrusted_offer(project: &Path, host: HostTrust, label: &str, host_way: Option<&str>) -> Option<String> {
    let claude = project.join(".claude");
    let has_settings = ["settings.json", "settings.local.json"].iter().any(|name| claude.join(name).is_file());
    let untrusted = trust::decide(project, host, &hookmux_sdk::Env::from_process()) == trust::Decision::Untrusted;
    (has_settings && untrusted).then(|| {
        let shown = project.display();
        let run = format!("run `hookmux trust {shown}` if you trust its hooks.");
        let how = match host_way {
            Some(way) => format!("{way}, or {run}"),
            None => run,
        };
        format!("{shown}'s own hooks (.claude/settings*.json) run under {label} only in a trusted project: {how}")
    })
}
