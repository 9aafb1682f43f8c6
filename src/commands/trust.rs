//! `hookmux trust [DIR] [--list | --revoke]`: hookmux's list of projects whose own settings may run
//! hooks under hosts that do not ask the user first (every host but Claude Code).

use crate::engine::config::trust::{self, TrustList, TRUST_ENV};
use hookmux_sdk::Env;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// What to do with the list.
pub enum Action {
    Add(Option<PathBuf>),
    Revoke(Option<PathBuf>),
    List,
}

pub fn run(action: Action) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let mut list = TrustList::load(&env)?;
    let mut out = std::io::stdout().lock();
    let folder = |dir: Option<PathBuf>| {
        trust::real(&dir.or_else(|| env.path("CLAUDE_PROJECT_DIR")).unwrap_or_else(super::process_cwd))
    };
    match action {
        Action::List => {
            for folder in &list.folders {
                writeln!(out, "{}", folder.display())?;
            }
            if let Some(value) = env.get(TRUST_ENV).filter(|v| !v.is_empty()) {
                writeln!(out, "and from {TRUST_ENV}: {value}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Action::Add(dir) => {
            let folder = folder(dir);
            if !folder.is_dir() {
                anyhow::bail!("{} is not a folder: name the project folder to trust", folder.display());
            }
            if list.add(&folder) {
                list.save()?;
                writeln!(out, "trusted {}: its .claude settings now run hooks under every host", folder.display())?;
            } else {
                writeln!(out, "{} is already trusted", folder.display())?;
            }
            writeln!(
                out,
                "(the list: {}; undo with `hookmux trust --revoke {}`)",
                list.file.display(),
                folder.display()
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Action::Revoke(dir) => {
            let folder = folder(dir);
            if list.remove(&folder) {
                list.save()?;
                writeln!(out, "no longer trusted: {}", folder.display())?;
                return Ok(ExitCode::SUCCESS);
            }
            let cover = list.folders.iter().find(|trusted| folder.starts_with(trusted));
            let why = match cover {
                Some(parent) => format!("; {} is, and covers it: revoke that instead", parent.display()),
                None => String::new(),
            };
            eprintln!("hookmux: {} is not in the trust list{why}", folder.display());
            Ok(ExitCode::from(1))
        }
    }
}
