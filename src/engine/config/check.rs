//! The checks a diagnostic comes from, each with a stable kebab-case rule id: what
//! `hooks validate --format json|sarif` prints, and what a settings file's
//! `"$hookmux": {"ignore": [ … ]}` names to silence one.
//!
//! The ids are part of hookmux's interface: a check may be added, never renamed.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
/// How bad a diagnostic is.
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

macro_rules! checks {
    ($($variant:ident = $id:literal, $severity:ident, $summary:literal;)*) => {
        /// One check of the settings.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Check {
            $($variant,)*
        }

        impl Check {
            /// Every check, in the order the documentation lists them.
            pub const ALL: &'static [Check] = &[$(Check::$variant,)*];

            /// The rule id: `matcher-backtracking`.
            pub fn id(self) -> &'static str {
                match self {
                    $(Check::$variant => $id,)*
                }
            }

            /// How bad what it finds is.
            pub fn severity(self) -> Severity {
                match self {
                    $(Check::$variant => Severity::$severity,)*
                }
            }

            /// One line on what it finds.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Check::$variant => $summary,)*
                }
            }
        }
    };
}

checks! {
    // Reading the files.
    UnreadableFile = "unreadable-file", Error,
        "A settings file exists but cannot be read (permissions, a folder, not UTF-8); none of its hooks run.";
    InvalidJson = "invalid-json", Error,
        "A settings file is not valid JSON, or not a JSON object; none of its hooks run.";
    EmptyFile = "empty-file", Warning,
        "A settings file is empty; it sets nothing.";
    MissingFile = "missing-file", Error,
        "A file named on purpose (by --settings, a hookmux entry or a plugin manifest) does not exist.";
    InvalidShape = "invalid-shape", Error,
        "A setting, matcher group or handler has the wrong JSON type or lacks a field; it is skipped or ignored.";
    InvalidEventName = "invalid-event-name", Error,
        "An event name that is not PascalCase (such as a known event in the wrong case); its hooks are skipped.";
    UnknownHandlerType = "unknown-handler-type", Error,
        "A handler's `type` is not command, http, mcp_tool, prompt or agent; it is skipped.";
    EntryLoop = "entry-loop", Error,
        "hookmux entries name files that lead back to the file itself; the entry is not followed.";
    NoInstalledEntry = "no-installed-entry", Error,
        "`dispatch --installed` found no settings file that holds its entry.";
    PluginNotInstalled = "plugin-not-installed", Warning,
        "A plugin is enabled but not installed for this project (or has no install path); its hooks do not run.";
    // Events and matchers.
    UnknownEvent = "unknown-event", Warning,
        "A PascalCase event hookmux does not know; its hooks run with the generic rules.";
    MatcherNotTested = "matcher-not-tested", Warning,
        "A matcher on an event hookmux does not know; it is not tested and every hook of the group runs.";
    MatcherIgnored = "matcher-ignored", Warning,
        "A matcher on an event that ignores matchers; every hook of the group runs.";
    InvalidMatcher = "invalid-matcher", Error,
        "A matcher that is not a valid JavaScript regular expression; the group never runs.";
    MatcherNeverMatches = "matcher-never-matches", Warning,
        "An exact matcher that no tool name or event value can equal (wrong case, an MCP server name).";
    MatcherBacktracking = "matcher-backtracking", Warning,
        "A matcher regex whose shape can backtrack for a very long time on some names.";
    // Handlers.
    IfIgnored = "if-ignored", Warning,
        "An `if` rule on an event that never evaluates it; the handler never runs.";
    InvalidIf = "invalid-if", Error,
        "An `if` rule that cannot be read as a permission rule; the handler never runs.";
    TimeoutTooLong = "timeout-too-long", Error,
        "A timeout longer than the 24 hours hookmux waits at most.";
    TimeoutMilliseconds = "timeout-milliseconds", Error,
        "A timeout above an hour: almost certainly milliseconds, where timeouts are in seconds.";
    UnknownHandler = "unknown-handler", Error,
        "`hookmux run NAME` names no built-in handler; the hook always fails.";
    InvalidHandlerOptions = "invalid-handler-options", Error,
        "`hookmux run NAME` with options the handler does not take; the hook always fails.";
    MissingProgram = "missing-program", Error,
        "A command's program is a path that does not exist; the hook fails every time.";
    ProgramNotExecutable = "program-not-executable", Error,
        "A command's program is a folder or a file without the executable bit; the hook fails every time.";
    HttpNotRun = "http-not-run", Warning,
        "An http handler on SessionStart or Setup, where http handlers do not run.";
    NotRunByDispatch = "not-run-by-dispatch", Warning,
        "A prompt, agent or mcp_tool handler: it needs the host's model or MCP client, so dispatch does not run it.";
    InvalidUrl = "invalid-url", Error,
        "An http handler's URL cannot be read, or holds a user name or password; the handler never runs.";
    // Safety.
    PipeToShell = "pipe-to-shell", Warning,
        "A command runs what it downloads: `curl … | sh`, `bash <(curl …)`, `sh -c \"$(wget …)\"`.";
    DangerousRm = "dangerous-rm", Warning,
        "`rm -rf` on a variable (empty or unset, it can name `/`), on `/` or on the home folder.";
    Sudo = "sudo", Warning,
        "A command runs `sudo` or `doas`: a hook runs on every matching event, unattended.";
    HardcodedSecret = "hardcoded-secret", Warning,
        "An API-key-looking string written into a command, an http hook's URL or a header.";
    // hookmux's own key.
    InvalidHookmuxKey = "invalid-hookmux-key", Warning,
        "`$hookmux` or `$hookmux.ignore` has the wrong JSON type; nothing in it is applied.";
    UnknownRuleInIgnore = "unknown-rule-in-ignore", Warning,
        "`$hookmux.ignore` names a rule id that does not exist.";
    // Hosts' own hook files.
    ClineHookNeverRuns = "cline-hook-never-runs", Warning,
        "A file in a Cline hook folder that Cline never runs: a Claude event's name, an extension Cline does not run, PreCompact.";
    // Hosts' own settings files.
    HostTimeoutMilliseconds = "host-timeout-milliseconds", Error,
        "A hook in a host's own settings whose timeout that host reads as milliseconds (Qwen Code: 1000 or more).";
    HostDuplicateHook = "host-duplicate-hook", Warning,
        "A hook in a host's own settings that your Claude settings also hold, where hookmux runs those: it runs twice.";
}

impl Check {
    /// Whether it is one of the safety checks (what a command could do to the machine, or a
    /// credential written out) rather than one of what the host will make of the settings.
    pub fn is_safety(self) -> bool {
        matches!(self, Check::PipeToShell | Check::DangerousRm | Check::Sudo | Check::HardcodedSecret)
    }

    /// The check with this rule id.
    pub fn from_id(id: &str) -> Option<Check> {
        Check::ALL.iter().copied().find(|check| check.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_read_back() {
        let mut seen = std::collections::BTreeSet::new();
        for check in Check::ALL {
            let id = check.id();
            assert!(seen.insert(id), "{id} twice");
            assert!(id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{id}");
            assert!(!id.starts_with('-') && !id.ends_with('-') && !id.contains("--"), "{id}");
            assert_eq!(Check::from_id(id), Some(*check));
            assert!(check.summary().ends_with('.'), "{id}");
        }
        assert_eq!(Check::from_id("Sudo"), None);
    }
}
