//! Whether a project's own settings may run hooks. A project's `.claude/settings.json` and
//! `settings.local.json` come with the repository, so a cloned repository would run its commands
//! as soon as a host starts in it. Claude Code asks the user before it trusts a folder; every
//! other host gets the same protection here: project and local settings run only for a trusted
//! project (the host's own trust where it keeps one, else hookmux's trust list, or the
//! `HOOKMUX_TRUST` override). User, managed and `--settings` files are the user's own and always
//! run.

use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::{Env, ProjectTrust};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The user-controlled override: folders separated by `:`, each trusted with what is below it.
pub const TRUST_ENV: &str = "HOOKMUX_TRUST";

/// What the host that sent the event says about the project.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HostTrust {
    /// The host asks the user before it runs a project's hooks (Claude Code's trust dialog).
    Prompted,
    /// The host's own record trusts this project (Codex's `trust_level = "trusted"`).
    Trusted,
    /// The host says nothing: hookmux's trust list decides.
    #[default]
    Unknown,
}

/// Decides for `project` (a real path where it exists). The decision is handed to the built-in
/// handlers too ([`hookmux_sdk::Context::project_trust`]): a project's own files that a handler
/// reads (the wake-up's `.lore.yaml`) count for as much as its settings.
pub fn decide(project: &Path, host: HostTrust, env: &Env) -> ProjectTrust {
    match host {
        HostTrust::Prompted => return ProjectTrust::Trusted("the host asked the user"),
        HostTrust::Trusted => return ProjectTrust::Trusted("the host trusts it"),
        HostTrust::Unknown => {}
    }
    let project = real(project);
    if override_folders(env).iter().any(|folder| project.starts_with(folder)) {
        return ProjectTrust::Trusted(TRUST_ENV);
    }
    if TrustList::load(env).is_ok_and(|list| list.covers(&project)) {
        return ProjectTrust::Trusted("hookmux trust");
    }
    ProjectTrust::Untrusted
}

/// The folders of `HOOKMUX_TRUST`, a list as `PATH` is one on this OS: `:` between folders, `;`
/// on Windows, where `:` follows the drive (`C:\work`).
fn override_folders(env: &Env) -> Vec<PathBuf> {
    env.get_os(TRUST_ENV)
        .map(|value| {
            std::env::split_paths(value).filter(|part| !part.as_os_str().is_empty()).map(|part| real(&part)).collect()
        })
        .unwrap_or_default()
}

/// A folder's real path when it exists, so that a link or `..` names the folder it leads to.
pub fn real(path: &Path) -> PathBuf {
    hookmux_platform::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// hookmux's trust list: `$XDG_CONFIG_HOME/hookmux/trusted-projects` (else
/// `~/.config/hookmux/trusted-projects`), one real path a line. A trusted folder covers every
/// folder below it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustList {
    pub file: PathBuf,
    pub folders: Vec<PathBuf>,
}

/// Why the trust list cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error(
        "neither {} nor {} is set: there is no config folder for the trust list",
        variable(Folder::Config),
        variable(Folder::Home)
    )]
    NoConfigFolder,
    #[error("cannot read the trust list {file}: {source}")]
    Read { file: PathBuf, source: std::io::Error },
    #[error("cannot write the trust list {file}: {source}")]
    Write { file: PathBuf, source: std::io::Error },
}

impl TrustList {
    /// Where the list lives for this user.
    pub fn file(env: &Env) -> Result<PathBuf, TrustError> {
        hookmux_platform::dirs::config(env)
            .map(|dir| dir.join("hookmux").join("trusted-projects"))
            .ok_or(TrustError::NoConfigFolder)
    }

    /// The list; a list that does not exist yet is empty.
    pub fn load(env: &Env) -> Result<TrustList, TrustError> {
        let file = TrustList::file(env)?;
        let folders = match std::fs::read_to_string(&file) {
            Ok(text) => text.lines().map(str::trim).filter(|l| !l.is_empty()).map(PathBuf::from).collect(),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(source) => return Err(TrustError::Read { file, source }),
        };
        Ok(TrustList { file, folders })
    }

    /// Whether `folder` (a real path) is a trusted folder or below one.
    pub fn covers(&self, folder: &Path) -> bool {
        self.folders.iter().any(|trusted| folder.starts_with(trusted))
    }

    /// Adds a folder (by its real path); false when it was already there.
    pub fn add(&mut self, folder: &Path) -> bool {
        let folder = real(folder);
        if self.folders.contains(&folder) {
            return false;
        }
        self.folders.push(folder);
        true
    }

    /// Removes a folder (by its real path); false when it was not there.
    pub fn remove(&mut self, folder: &Path) -> bool {
        let folder = real(folder);
        let before = self.folders.len();
        self.folders.retain(|f| *f != folder);
        self.folders.len() != before
    }

    /// Writes the list atomically: a temporary file beside it, synced, renamed over it.
    pub fn save(&self) -> Result<(), TrustError> {
        let write = || -> std::io::Result<()> {
            let dir = self.file.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir)?;
            let mut temp = tempfile::Builder::new().prefix(".trusted-projects-").tempfile_in(dir)?;
            for folder in &self.folders {
                temp.write_all(folder.as_os_str().as_encoded_bytes())?;
                temp.write_all(b"\n")?;
            }
            temp.as_file().sync_all()?;
            temp.persist(&self.file).map_err(|err| err.error)?;
            Ok(())
        };
        write().map_err(|source| TrustError::Write { file: self.file.clone(), source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_the_override_and_the_list_each_trust() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("p");
        std::fs::create_dir_all(project.join("sub")).unwrap();
        let home: Env = [(variable(Folder::Home), dir.path().as_os_str())].into_iter().collect();
        assert_eq!(decide(&project, HostTrust::Unknown, &home), ProjectTrust::Untrusted);
        assert!(matches!(decide(&project, HostTrust::Prompted, &home), ProjectTrust::Trusted(_)));
        assert!(matches!(decide(&project, HostTrust::Trusted, &home), ProjectTrust::Trusted(_)));

        let mut with_override = home.clone();
        with_override.set(TRUST_ENV, std::env::join_paths([Path::new("/nonexistent"), dir.path()]).unwrap());
        assert_eq!(decide(&project.join("sub"), HostTrust::Unknown, &with_override), ProjectTrust::Trusted(TRUST_ENV));

        let mut list = TrustList::load(&home).unwrap();
        assert!(list.folders.is_empty());
        assert!(list.add(&project.join("sub/..")), "the real path is stored");
        assert!(!list.add(&project));
        list.save().unwrap();
        assert_eq!(decide(&project.join("sub"), HostTrust::Unknown, &home), ProjectTrust::Trusted("hookmux trust"));
        assert_eq!(decide(dir.path(), HostTrust::Unknown, &home), ProjectTrust::Untrusted, "a parent is not covered");
        let mut list = TrustList::load(&home).unwrap();
        assert!(list.remove(&project));
        list.save().unwrap();
        assert_eq!(decide(&project, HostTrust::Unknown, &home), ProjectTrust::Untrusted);
    }

    #[test]
    fn a_sibling_with_a_common_prefix_is_not_covered() {
        let list = TrustList { file: PathBuf::new(), folders: vec![PathBuf::from("/w/app")] };
        assert!(list.covers(Path::new("/w/app/src")));
        assert!(!list.covers(Path::new("/w/app-evil")));
    }
}
