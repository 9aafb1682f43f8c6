//! `hookmux hooks list`: the effective hooks per event after merging every source, each with
//! where it came from, its matcher and timeout, and what deduplication does to it.

use crate::engine::config::sources::Sources;
use crate::engine::select::plan::{self, Gate, Origin};
use hookmux_sdk::HookEvent;
use std::time::Duration;

/// One handler as the host would see it for some occurrence of the event.
#[derive(Debug)]
pub struct Listed<'s> {
    /// The definition whose settings win (the last one in source order).
    pub origin: Origin<'s>,
    /// The matchers of every group that holds this handler, in order (`None`: matches all).
    pub matchers: Vec<Option<&'s str>>,
    pub timeout: Duration,
    /// The other definitions of the same handler: when several match one occurrence, it runs once.
    pub duplicates: Vec<Origin<'s>>,
    /// Why the global switches keep it from running, if they do.
    pub off: Option<String>,
}

#[derive(Debug)]
pub struct Listing<'s> {
    pub gate: Gate,
    pub events: Vec<(HookEvent, Vec<Listed<'s>>)>,
}

/// Every definition of one handler identity: where, and under which matcher.
type Definitions<'s> = Vec<(Origin<'s>, Option<&'s str>)>;

pub fn list(sources: &Sources) -> Listing<'_> {
    let gate = plan::gate(sources);
    let mut events = Vec::new();
    // The known events in the host's order, then the ones hookmux does not know, by first use.
    let mut all: Vec<HookEvent> = HookEvent::ALL.to_vec();
    for file in sources.files.iter().filter(|f| f.is_usable()) {
        for (event, _) in &file.hooks {
            if !all.contains(event) {
                all.push(*event);
            }
        }
    }
    for event in all {
        let mut listed: Vec<(plan::Identity, Definitions<'_>)> = Vec::new();
        for file in sources.files.iter().filter(|f| f.is_usable()) {
            for group in file.groups(event) {
                for spec in &group.hooks {
                    let key = plan::identity(file, spec);
                    let entry = (Origin { file, spec }, group.matcher.as_deref());
                    match listed.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, all)) => all.push(entry),
                        None => listed.push((key, vec![entry])),
                    }
                }
            }
        }
        if listed.is_empty() {
            continue;
        }
        let entries = listed
            .into_iter()
            .map(|(_, mut all)| {
                let (origin, _) = *all.last().expect("at least one definition");
                let matchers = all.iter().map(|(_, m)| *m).collect();
                all.pop();
                let off = match &gate {
                    Gate::All => None,
                    Gate::ManagedOnly { because } if !origin.file.is_managed() => Some(because.clone()),
                    Gate::ManagedOnly { .. } => None,
                    Gate::Nothing { because } => Some(because.clone()),
                };
                let timeout = origin.spec.wait().unwrap_or_else(|| plan::default_timeout(origin.spec, event));
                Listed { origin, matchers, timeout, duplicates: all.into_iter().map(|(o, _)| o).collect(), off }
            })
            .collect();
        events.push((event, entries));
    }
    Listing { gate, events }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::settings::Scope;
    use crate::engine::config::settings::SettingsFile;
    use std::path::Path;

    #[test]
    fn merges_sources_and_notes_duplicates() {
        let user = SettingsFile::parse(
            Path::new("u.json"),
            Scope::User,
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit", "timeout": 5}]}],
                          "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}}"#,
        );
        let project = SettingsFile::parse(
            Path::new("p.json"),
            Scope::Project,
            r#"{"disableAllHooks": true, "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "audit"}]}]}}"#,
        );
        let sources = Sources::from_files(vec![user, project]);
        let listing = list(&sources);
        let (event, pre) = &listing.events[0];
        assert_eq!(*event, HookEvent::PreToolUse);
        assert_eq!(pre.len(), 1);
        assert_eq!(pre[0].origin.file.path, Path::new("p.json"));
        assert_eq!(pre[0].matchers, [Some("Bash"), Some("*")]);
        assert_eq!(pre[0].timeout, Duration::from_secs(600));
        assert_eq!(pre[0].duplicates.len(), 1);
        assert!(pre[0].off.as_deref().unwrap().contains("disableAllHooks"));
        assert_eq!(listing.events[1].0, HookEvent::Stop);
    }

    #[test]
    fn huge_timeouts_are_listed_as_the_day_dispatch_waits() {
        let file = SettingsFile::parse(
            Path::new("p.json"),
            Scope::Project,
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify", "timeout": 1e20}]}]}}"#,
        );
        let sources = Sources::from_files(vec![file]);
        assert_eq!(list(&sources).events[0].1[0].timeout, Duration::from_secs(24 * 3600));
    }
}
