//! `hookmux install|uninstall HOST`: route a host's hooks through `hookmux dispatch`, and back.
//! The edits themselves are the host's ([`crate::host::claude::install`],
//! [`crate::host::codex::install`]); this gathers the paths and reports.

use crate::host::claude::install::{self, read_optional, Layout, Refusal, Scope};
use hookmux_sdk::Env;
use std::io::Write;
use std::process::ExitCode;

fn install_layout(scope: Scope) -> anyhow::Result<Layout> {
    let env = Env::from_process();
    let config_dir = env
        .path("CLAUDE_CONFIG_DIR")
        .or_else(|| hookmux_platform::dirs::home(&env).map(|home| home.join(".claude")))
        .ok_or_else(|| anyhow::anyhow!("neither CLAUDE_CONFIG_DIR nor HOME is set: cannot find the user settings"))?;
    let project = env.path("CLAUDE_PROJECT_DIR").unwrap_or_else(super::process_cwd);
    let mut layout = Layout::new(scope, &config_dir, &project);
    // The other scopes' moved hooks, for an entry timeout that covers them too; a file that
    // cannot be read adds nothing here (dispatch reports it when it runs).
    layout.peer_hooks = Layout::all_hooks_files(&config_dir, &project)
        .iter()
        .filter(|file| **file != layout.hooks_file)
        .filter_map(|file| std::fs::read_to_string(file).ok())
        .filter_map(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .filter_map(|hooks_file| hooks_file.get("hooks").cloned())
        .collect();
    Ok(layout)
}

/// A warning when the `hookmux` the installed entry starts (the first on `PATH`) is not this
/// program: the host would run another version, or find none and run no hooks.
fn path_warning(env: &Env) -> Option<String> {
    let this = std::env::current_exe().ok().and_then(|exe| hookmux_platform::fs::canonicalize(&exe).ok());
    let found = hookmux_platform::program::find("hookmux", env);
    let folder = this.as_deref().and_then(|exe| exe.parent()).map(|dir| dir.display().to_string()).unwrap_or_default();
    match found {
        None => Some(format!(
            "warning: no `hookmux` on PATH: the host will not find the entry's command and will run none of these hooks; add {folder} to PATH"
        )),
        Some(exe) if hookmux_platform::fs::canonicalize(&exe).ok() != this => Some(format!(
            "warning: the `hookmux` on PATH is {}, not this one; the host will run that one",
            exe.display()
        )),
        Some(_) => None,
    }
}

pub fn install_claude(scope: Scope, dry_run: bool) -> anyhow::Result<ExitCode> {
    let layout = install_layout(scope)?;
    let settings = read_optional(&layout.settings)?.ok_or_else(|| Refusal::NoSettings(layout.settings.clone()))?;
    let hooks_file = read_optional(&layout.hooks_file)?;
    // Reinstalling starts from what uninstalling would restore, so it changes nothing twice.
    let base = match &hooks_file {
        Some(hooks) => install::uninstall(&settings, hooks, read_optional(&layout.backup)?.as_deref(), &layout)?,
        None => settings.clone(),
    };
    let installed = install::install(&base, &layout)?;
    let mut out = std::io::stdout().lock();
    if dry_run {
        write!(out, "{}", install::diff(&layout.settings, Some(&settings), Some(&installed.settings_text)))?;
        write!(out, "{}", install::diff(&layout.hooks_file, hooks_file.as_deref(), Some(&installed.hooks_text)))?;
        return Ok(ExitCode::SUCCESS);
    }
    install::write_atomically(&layout.backup, &base)?;
    install::write_atomically(&layout.hooks_file, &installed.hooks_text)?;
    install::write_atomically(&layout.settings, &installed.settings_text)?;
    writeln!(
        out,
        "moved {} hook{} of {} into {}\n{} now run{} through `{}`",
        installed.moved,
        if installed.moved == 1 { "" } else { "s" },
        layout.settings.display(),
        layout.hooks_file.display(),
        installed.events.join(", "),
        if installed.events.len() == 1 { "s" } else { "" },
        layout.dispatch_command,
    )?;
    if let Some(warning) = path_warning(&Env::from_process()) {
        writeln!(out, "{warning}")?;
    }
    if installed.kept_native > 0 {
        writeln!(
            out,
            "{} hook(s) that dispatch cannot run (prompt, agent, mcp_tool, async) stay in the settings file",
            installed.kept_native
        )?;
    }
    if let Some(line) = plugins_line() {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "backup of the original: {}\nundo with: hookmux uninstall claude --scope {}",
        layout.backup.display(),
        scope_name(scope)
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn uninstall_claude(scope: Scope, dry_run: bool) -> anyhow::Result<ExitCode> {
    let layout = install_layout(scope)?;
    let hooks_file =
        read_optional(&layout.hooks_file)?.ok_or_else(|| Refusal::NotInstalled(layout.hooks_file.clone()))?;
    let settings = read_optional(&layout.settings)?;
    let backup = read_optional(&layout.backup)?;
    let restored = install::uninstall(settings.as_deref().unwrap_or("{}\n"), &hooks_file, backup.as_deref(), &layout)?;
    let mut out = std::io::stdout().lock();
    if dry_run {
        write!(out, "{}", install::diff(&layout.settings, settings.as_deref(), Some(&restored)))?;
        write!(out, "{}", install::diff(&layout.hooks_file, Some(&hooks_file), None))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(current) = &settings {
        install::write_atomically(&layout.backup, current)?;
    }
    install::write_atomically(&layout.settings, &restored)?;
    std::fs::remove_file(&layout.hooks_file)?;
    writeln!(out, "restored the hooks of {} and removed {}", layout.settings.display(), layout.hooks_file.display())?;
    writeln!(out, "backup of the file as it was: {}", layout.backup.display())?;
    Ok(ExitCode::SUCCESS)
}

/// What install leaves to Claude Code: the enabled plugins' hooks, which it runs itself.
fn plugins_line() -> Option<String> {
    let (sources, _) = super::inspected_sources(&Env::from_process(), Vec::new());
    let mut plugins: Vec<String> = Vec::new();
    let mut count = 0;
    for file in sources.files.iter().filter(|f| f.is_usable()) {
        let Some(plugin) = &file.plugin else { continue };
        count += file.hooks.iter().flat_map(|(_, groups)| groups).map(|group| group.hooks.len()).sum::<usize>();
        if !plugins.contains(&plugin.label()) {
            plugins.push(plugin.label());
        }
    }
    (count > 0).then(|| {
        format!(
            "{count} hook{} of the enabled plugins ({}) stay{} with Claude Code, which runs them itself; install leaves plugins alone",
            if count == 1 { "" } else { "s" },
            plugins.join(", "),
            if count == 1 { "s" } else { "" },
        )
    })
}

/// `hookmux install copilot`: Copilot CLI runs the hooks of Claude Code's project and local
/// settings files itself, with its own semantics; installed, those files hold only hookmux's
/// entry, which Copilot runs once per event, and `hookmux dispatch` recognises Copilot's events
/// and answers them in Copilot's form. So this is `install claude`, and the one installed state
/// serves both hosts.
pub fn install_copilot(scope: Scope, dry_run: bool) -> anyhow::Result<ExitCode> {
    let code = install_claude(scope, dry_run)?;
    if !dry_run {
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "Copilot CLI runs the same entry; hookmux answers its events in Copilot's form, and Claude Code's as before"
        )?;
        if scope == Scope::User {
            writeln!(out, "note: Copilot CLI was measured reading a project's .claude/settings.json and settings.local.json; check that it reads this file")?;
        }
    }
    Ok(code)
}

/// `hookmux uninstall copilot`: the same as `uninstall claude`, since one installed state serves
/// both hosts; Copilot then reads the hooks with its own semantics again.
pub fn uninstall_copilot(scope: Scope, dry_run: bool) -> anyhow::Result<ExitCode> {
    uninstall_claude(scope, dry_run)
}

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Local => "local",
    }
}
