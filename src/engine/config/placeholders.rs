//! The `${NAME}` placeholders the host puts into a hook's command, and no others.
//!
//! Claude Code 2.1.328 puts `${CLAUDE_PROJECT_DIR}` (the project root) into the exec form's
//! program and arguments (`command` plus `args`), and into a plugin's hooks also
//! `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}`. Every other `${NAME}` (`${HOME}`, a token
//! in the environment) and every `$NAME` is passed as written: exec-form arguments reach no shell,
//! and what is put into them shows in `ps` to every user of the machine. A settings hook (not a
//! plugin's) whose command or arguments hold the text `${CLAUDE_PLUGIN_ROOT}` or
//! `${CLAUDE_PLUGIN_DATA}`, quoted or not, in either form, is not run at all. A plugin's option
//! (`${user_config.KEY}`) is filled by Claude Code from the options it keeps, which hookmux does not
//! read: such a plugin hook is not run by dispatch, and says so. What Claude Code does is recorded
//! in `fixtures/conformance/hookmux/exec-args-placeholders`, `…/plugin-vars-outside-plugin` and
//! `fixtures/conformance/claude-code-2.1.328-plugins/plugin-exec-args`.

use crate::engine::config::settings::Plugin;
use std::path::Path;

/// The project root's placeholder, put in for every hook.
pub const PROJECT_DIR: &str = "CLAUDE_PROJECT_DIR";

/// The placeholders only a plugin's hooks have.
pub const PLUGIN_ONLY: [&str; 2] = ["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// What a plugin option's placeholder starts with: `${user_config.KEY}`.
const PLUGIN_OPTION: &str = "user_config.";

/// The values the host puts in for one hook.
pub struct Placeholders<'a> {
    project_root: &'a Path,
    plugin: Option<&'a Plugin>,
}

impl<'a> Placeholders<'a> {
    pub fn new(project_root: &'a Path, plugin: Option<&'a Plugin>) -> Placeholders<'a> {
        Placeholders { project_root, plugin }
    }

    /// What `${name}` stands for, when the host puts something in for it.
    fn value(&self, name: &str) -> Option<&'a Path> {
        match (name, self.plugin) {
            (PROJECT_DIR, _) => Some(self.project_root),
            ("CLAUDE_PLUGIN_ROOT", Some(plugin)) => Some(&plugin.root),
            ("CLAUDE_PLUGIN_DATA", Some(plugin)) => Some(&plugin.data),
            _ => None,
        }
    }

    /// `text` with the host's placeholders put in; any other `${…}` stays as written.
    pub fn substitute(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some((before, name, after)) = next_placeholder(rest) {
            out.push_str(before);
            match self.value(name) {
                Some(value) => out.push_str(&value.to_string_lossy()),
                None => {
                    out.push_str("${");
                    out.push_str(name);
                    out.push('}');
                }
            }
            rest = after;
        }
        out.push_str(rest);
        out
    }

    /// Why the host would not run a hook whose command and arguments are `words`, when it would
    /// not: a plugin variable outside a plugin, or a plugin's option.
    pub fn refusal<'w>(&self, mut words: impl Iterator<Item = &'w str>) -> Option<String> {
        words.find_map(|word| {
            let mut rest = word;
            while let Some((_, name, after)) = next_placeholder(rest) {
                if self.plugin.is_none() && PLUGIN_ONLY.contains(&name) {
                    return Some(format!(
                        "Hook command references ${{{name}}} but the hook is not associated with a plugin. This \
                         variable is only available in hooks defined in a plugin's hooks/hooks.json file, not in \
                         settings.json; the hook is not run"
                    ));
                }
                if self.plugin.is_some() && name.starts_with(PLUGIN_OPTION) {
                    return Some(format!(
                        "the plugin hook names its option `${{{name}}}`, which Claude Code fills from the options it \
                         keeps and hookmux does not read; the hook is not run (let Claude Code run this plugin's hooks)"
                    ));
                }
                rest = after;
            }
            None
        })
    }
}

/// The names of `text`'s `${NAME}` placeholders that the host leaves as written, in a plugin's
/// hooks (`plugin`) or the settings': for `hooks validate`.
pub fn left_as_written(text: &str, plugin: bool) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some((_, name, after)) = next_placeholder(rest) {
        let put_in =
            name == PROJECT_DIR || (plugin && (PLUGIN_ONLY.contains(&name) || name.starts_with(PLUGIN_OPTION)));
        let refused = !plugin && PLUGIN_ONLY.contains(&name);
        if !put_in && !refused && !name.starts_with(PLUGIN_OPTION) && !name.is_empty() {
            names.push(name);
        }
        rest = after;
    }
    names
}

/// The next `${NAME}` of `text`: what comes before it, `NAME`, and what comes after it.
fn next_placeholder(text: &str) -> Option<(&str, &str, &str)> {
    let start = text.find("${")?;
    let inner = &text[start + 2..];
    let end = inner.find('}')?;
    Some((&text[..start], &inner[..end], &inner[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn plugin() -> Plugin {
        Plugin {
            id: "gamma@mp".into(),
            version: None,
            root: PathBuf::from("/plugins/gamma"),
            data: PathBuf::from("/data/gamma-mp"),
            enabled_by: PathBuf::new(),
            managed: false,
        }
    }

    #[test]
    fn only_the_hosts_own_placeholders_are_put_in() {
        let settings = Placeholders::new(Path::new("/p q"), None);
        assert_eq!(settings.substitute("${CLAUDE_PROJECT_DIR}/hooks/a.sh"), "/p q/hooks/a.sh");
        assert_eq!(settings.substitute("a${CLAUDE_PROJECT_DIR}b $CLAUDE_PROJECT_DIR"), "a/p qb $CLAUDE_PROJECT_DIR");
        for kept in ["${HOME}", "${PATH}", "$HOME", "${", "${}", "$${HOME}", "${user_config.x}", "${open"] {
            assert_eq!(settings.substitute(kept), kept);
        }
        let plugin = plugin();
        let in_plugin = Placeholders::new(Path::new("/p"), Some(&plugin));
        assert_eq!(
            in_plugin.substitute("${CLAUDE_PLUGIN_ROOT}:${CLAUDE_PLUGIN_DATA}:${CLAUDE_PROJECT_DIR}:${HOME}"),
            "/plugins/gamma:/data/gamma-mp:/p:${HOME}"
        );
    }

    #[test]
    fn plugin_variables_outside_a_plugin_and_plugin_options_are_refused() {
        let settings = Placeholders::new(Path::new("/p"), None);
        assert!(settings.refusal(["echo '${CLAUDE_PLUGIN_ROOT}'"].into_iter()).is_some());
        assert!(settings.refusal(["sh", "-c", "x", "${CLAUDE_PLUGIN_DATA}/y"].into_iter()).is_some());
        assert!(settings.refusal(["echo $CLAUDE_PLUGIN_ROOT ${user_config.x}"].into_iter()).is_none());
        let plugin = plugin();
        let in_plugin = Placeholders::new(Path::new("/p"), Some(&plugin));
        assert!(in_plugin.refusal(["${CLAUDE_PLUGIN_ROOT}/run"].into_iter()).is_none());
        assert!(in_plugin.refusal(["run", "${user_config.token}"].into_iter()).is_some());
    }

    #[test]
    fn the_placeholders_left_as_written_are_named() {
        assert_eq!(left_as_written("${HOME}/x ${CLAUDE_PROJECT_DIR} ${TOKEN} $PATH ${}", false), ["HOME", "TOKEN"]);
        assert_eq!(left_as_written("${CLAUDE_PLUGIN_ROOT} ${user_config.a} ${HOME}", true), ["HOME"]);
        assert!(left_as_written("${CLAUDE_PLUGIN_ROOT}", false).is_empty(), "refused, not passed on");
    }
}
