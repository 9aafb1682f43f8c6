//! `hookmux man [DIR]`: the manual page. Without a folder, `hookmux.1` on stdout (`hookmux man |
//! man -l -`); with one, a page per command written there (`hookmux.1`, `hookmux-install.1`, …).

use anyhow::Context;
use std::path::Path;
use std::process::ExitCode;

/// Writes the manual of `command` to stdout, or a page per command into `dir`.
pub fn run(dir: Option<&Path>, command: clap::Command) -> anyhow::Result<ExitCode> {
    match dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page).context("could not render the manual page")?;
            std::io::Write::write_all(&mut std::io::stdout().lock(), &page)?;
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("could not create {}: give a folder you can write to", dir.display()))?;
            clap_mangen::generate_to(command, dir).with_context(|| {
                format!("could not write the manual pages into {}: give a folder you can write to", dir.display())
            })?;
            println!("wrote the manual pages into {}", dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
