//! `hookmux hooks validate`: every problem in the settings files, beyond what reading them finds,
//! each with its file, JSON path and a hint.
//!
//! Errors are what makes a hook silently misbehave: a matcher regex that does not compile, a
//! timeout written in milliseconds, a command that points at a missing or non-executable file,
//! a `hookmux run` of an unknown handler or option, an `if` rule that cannot be read. Warnings
//! are what is legal but probably not meant: an exact matcher that can never match, a matcher
//! on an event that ignores matchers, a matcher regex whose shape can backtrack for a very long
//! time, `if` on an event that never evaluates it, handlers `dispatch` cannot run; and, from
//! `safety`, commands that run what they download, `rm -rf` on a variable, `sudo`, and API keys
//! written into the settings.
//!
//! Every diagnostic names its check ([`Check`], a stable rule id). A settings file silences rules
//! for its own diagnostics with `"$hookmux": {"ignore": ["rule-id", …]}`, read here only.

use crate::engine::config::diagnostic::{Check, Diagnostic, Severity};
use crate::engine::config::jsonpath::{JsonPath, Segment};
use crate::engine::config::placeholders;
use crate::engine::config::settings::{
    describe, suggest_event, Group, HookKind, HookSpec, Scope, SettingsFile, MAX_TIMEOUT,
};
use crate::engine::config::sources::Sources;
use crate::engine::execute::http::HttpPolicy;
use crate::engine::select::matcher::{self, Matcher};
use crate::engine::select::plan;
use crate::engine::select::rule::Rule;
use hookmux_sdk::{Args, HookEvent, MatchField, Registry};
use std::path::{Path, PathBuf};

mod safety;

/// A timeout above this many seconds is almost certainly milliseconds.
const MAX_SENSIBLE_TIMEOUT: f64 = 3600.0;

/// Tool names Claude Code 2.1.328 uses (those sent to the model, the deferred ones it loads on
/// demand, and the legacy names matchers still accept).
const KNOWN_TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "Edit",
    "EnterPlanMode",
    "ExitPlanMode",
    "Glob",
    "Grep",
    "KillShell",
    "LS",
    "ListAgents",
    "ListMcpResourcesTool",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "PowerShell",
    "Read",
    "ReadMcpResourceTool",
    "ReportFindings",
    "ScheduleWakeup",
    "SendMessage",
    "Skill",
    "SlashCommand",
    "Task",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// The values an event's match field can take, where the host fixes them.
fn known_values(event: HookEvent) -> Option<&'static [&'static str]> {
    use HookEvent::*;
    Some(match event {
        SessionStart => &["startup", "resume", "clear", "compact", "fork"],
        Setup => &["init", "maintenance"],
        PreCompact | PostCompact => &["manual", "auto"],
        SessionEnd => &["clear", "resume", "logout", "prompt_input_exit", "other"],
        Notification => &[
            "permission_prompt",
            "idle_prompt",
            "auth_success",
            "elicitation_dialog",
            "elicitation_url_dialog",
            "elicitation_complete",
            "elicitation_response",
            "agent_needs_input",
            "agent_completed",
        ],
        StopFailure => &[
            "rate_limit",
            "overloaded",
            "authentication_failed",
            "oauth_org_not_allowed",
            "billing_error",
            "invalid_request",
            "model_not_found",
            "server_error",
            "max_output_tokens",
            "unknown",
        ],
        ConfigChange => &["user_settings", "project_settings", "local_settings", "policy_settings", "skills"],
        InstructionsLoaded => &["session_start", "nested_traversal", "path_glob_match", "include", "compact"],
        DirectoryAdded => &["slash_command", "register_repo_root"],
        _ => return None,
    })
}

/// What the checks need to know about the machine.
pub struct Context<'a> {
    pub project_root: &'a Path,
    pub home: Option<&'a Path>,
    pub registry: Option<&'a Registry>,
}

/// What `hooks validate` found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every diagnostic not silenced, in the order found.
    pub findings: Vec<Diagnostic>,
    /// Those a file's `"$hookmux": {"ignore": [ … ]}` silenced.
    pub silenced: Vec<Diagnostic>,
}

/// Every diagnostic for every file that its file does not silence: see [`report`].
pub fn validate(sources: &Sources, cx: &Context<'_>) -> Vec<Diagnostic> {
    report(sources, cx).findings
}

/// Every diagnostic for every file: what reading found, then the deeper checks; then those of
/// the sources as a whole (a plugin enabled but not installed). A diagnostic whose rule id its
/// file's `$hookmux.ignore` lists is set aside as silenced.
pub fn report(sources: &Sources, cx: &Context<'_>) -> Report {
    let mut out = Vec::new();
    let mut ignored: Vec<(&Path, Vec<Check>)> = Vec::new();
    for file in &sources.files {
        out.extend(file.diagnostics.iter().cloned());
        if file.is_usable() {
            check_file(file, cx, &mut out);
            let (ignore, problems) = hookmux_key(file);
            out.extend(problems);
            if !ignore.is_empty() {
                ignored.push((&file.path, ignore));
            }
        }
    }
    out.extend(sources.notes.iter().cloned());
    out.extend(weakened_redefinitions(sources));
    let (silenced, findings) = out.into_iter().partition(|d: &Diagnostic| {
        ignored.iter().any(|(path, checks)| *path == d.file.as_path() && checks.contains(&d.check))
    });
    Report { findings, silenced }
}

/// The top-level key of a settings file that is hookmux's own: hosts ignore keys they do not
/// know, and hooks are only read under `hooks`.
pub const HOOKMUX_KEY: &str = "$hookmux";

/// `"$hookmux": {"ignore": ["rule-id", …]}`: the checks it silences in this file, and what is
/// wrong with it. Other keys in it (other hookmux settings) are left alone. Dispatch never reads
/// it.
fn hookmux_key(file: &SettingsFile) -> (Vec<Check>, Vec<Diagnostic>) {
    let (mut ignore, mut problems) = (Vec::new(), Vec::new());
    let Some(text) = file.text.as_deref().filter(|text| text.contains(HOOKMUX_KEY)) else {
        return (ignore, problems);
    };
    let Ok(serde_json::Value::Object(root)) = serde_json::from_str::<serde_json::Value>(text) else {
        return (ignore, problems);
    };
    let at = JsonPath::root().key(HOOKMUX_KEY);
    let wrong = |at: JsonPath, message: String, hint: &str| {
        Diagnostic::warning(&file.path, at, message).with_hint(hint).check(Check::InvalidHookmuxKey)
    };
    let shape = r#"write "$hookmux": {"ignore": ["rule-id", …]}"#;
    let ignore_list = match root.get(HOOKMUX_KEY) {
        None | Some(serde_json::Value::Null) => return (ignore, problems),
        Some(serde_json::Value::Object(settings)) => settings.get("ignore"),
        Some(other) => {
            let message =
                format!("`{HOOKMUX_KEY}` must be an object, not {}; nothing in it is applied", describe(other));
            problems.push(wrong(at, message, shape));
            return (ignore, problems);
        }
    };
    let at = at.key("ignore");
    match ignore_list {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Array(items)) => {
            for (index, item) in items.iter().enumerate() {
                match item.as_str() {
                    Some(id) => match Check::from_id(id) {
                        Some(check) => ignore.push(check),
                        None => problems.push(
                            Diagnostic::warning(
                                &file.path,
                                at.index(index),
                                format!("`{id}` is not a rule id; it silences nothing"),
                            )
                            .with_hint(match closest_rule(id) {
                                Some(known) => format!("did you mean `{known}`?"),
                                None => "copy the id from the finding, where it is shown in brackets".to_string(),
                            })
                            .check(Check::UnknownRuleInIgnore),
                        ),
                    },
                    None => problems.push(wrong(
                        at.index(index),
                        format!("a rule id must be a string, not {}; it silences nothing", describe(item)),
                        shape,
                    )),
                }
            }
        }
        Some(other) => problems.push(wrong(
            at,
            format!("`ignore` must be an array of rule ids, not {}; it silences nothing", describe(other)),
            shape,
        )),
    }
    (ignore, problems)
}

/// The rule id a mistyped one most likely meant: the one sharing the longest start with it.
fn closest_rule(id: &str) -> Option<&'static str> {
    let id = id.to_ascii_lowercase().replace('_', "-");
    Check::ALL
        .iter()
        .map(|check| check.id())
        .map(|known| (known.chars().zip(id.chars()).take_while(|(a, b)| a == b).count(), known))
        .filter(|(shared, known)| *shared >= 4 || *known == id)
        .max_by_key(|(shared, _)| *shared)
        .map(|(_, known)| known)
}

fn check_file(file: &SettingsFile, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (event, groups) in &file.hooks {
        if !event.is_known() {
            out.push(unknown_event(file, *event));
        }
        check_groups(file, *event, groups, cx, out);
    }
    // Fixing a misnamed event's name runs its hooks: they are checked as the event it means.
    for misnamed in &file.misnamed {
        out.extend(misnamed.diagnostics.iter().cloned());
        if let Some(event) = misnamed.meant {
            check_groups(file, event, &misnamed.groups, cx, out);
        }
    }
}

fn check_groups(file: &SettingsFile, event: HookEvent, groups: &[Group], cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for group in groups {
        check_matcher(file, event, group, out);
        for spec in &group.hooks {
            check_handler(file, event, spec, cx, out);
        }
    }
}

/// How far a scope's files are the user's own: managed settings, then the user's (and
/// `--settings` files), then the project's (project and local, which a repository brings).
fn trust_rank(scope: Scope) -> u8 {
    match scope {
        Scope::Managed => 2,
        Scope::User | Scope::Flag | Scope::Plugin => 1,
        Scope::Project | Scope::Local => 0,
    }
}

/// Hooks of the user's own or managed settings that a project's settings redefine so that they
/// no longer block, or no longer answer in time. The same command (with its shell and `if`) in
/// two files is one hook to Claude Code, run with the settings of the definition read last, and
/// the project's files are read after the user's: `"async": true` there makes the user's guard a
/// background hook whose answer is not waited for. Each finding is the user's file's, at the
/// definition that loses its settings (the project's file cannot silence it), and names both.
pub fn weakened_redefinitions(sources: &Sources) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let usable: Vec<&SettingsFile> = sources.files.iter().filter(|f| f.is_usable() && f.plugin.is_none()).collect();
    let mut events: Vec<HookEvent> = Vec::new();
    for file in &usable {
        for (event, _) in &file.hooks {
            if !events.contains(event) {
                events.push(*event);
            }
        }
    }
    for event in events {
        let definitions: Vec<(&SettingsFile, &HookSpec)> = usable
            .iter()
            .flat_map(|file| file.groups(event).iter().flat_map(|g| &g.hooks).map(move |spec| (*file, spec)))
            .collect();
        for (index, (file, spec)) in definitions.iter().enumerate() {
            let key = plan::dedup_key(spec);
            let Some((winner_file, winner)) =
                definitions[index + 1..].iter().rev().find(|(_, later)| plan::dedup_key(later) == key)
            else {
                continue;
            };
            if trust_rank(winner_file.scope) >= trust_rank(file.scope) {
                continue;
            }
            if let Some(how) = weakening(spec, winner, event) {
                out.push(
                    Diagnostic::warning(
                        &file.path,
                        spec.path.clone(),
                        format!(
                            "{} ({} settings) redefines this hook at {}: the host runs it once, with that \
                             definition's settings, so {how}",
                            winner_file.path.display(),
                            winner_file.scope.as_str(),
                            winner.path
                        ),
                    )
                    .with_hint(
                        "remove the redefinition from the project's settings (or make its command differ); a \
                         guard that must hold against the projects you trust belongs in managed settings",
                    )
                    .check(Check::WeakenedRedefinition),
                );
            }
        }
    }
    out
}

/// How `later`, which wins over `first`, takes away its power to block in time.
fn weakening(first: &HookSpec, later: &HookSpec, event: HookEvent) -> Option<String> {
    let flags = |spec: &HookSpec| match &spec.kind {
        HookKind::Command { is_async, async_rewake, .. } => (*is_async, *async_rewake),
        _ => (false, false),
    };
    let ((first_async, first_rewake), (later_async, later_rewake)) = (flags(first), flags(later));
    if later_async && !first_async {
        return Some("it is `async` there: started in the background, its answer is not waited for".to_string());
    }
    if later_rewake && !first_rewake {
        return Some("it is `asyncRewake` there: started in the background, it decides nothing".to_string());
    }
    if later.once && !first.once {
        return Some("it is `once` there: it runs the first time only".to_string());
    }
    let wait = |spec: &HookSpec| spec.wait().unwrap_or_else(|| plan::default_timeout(spec, event));
    let (first_wait, later_wait) = (wait(first), wait(later));
    (later_wait < first_wait / 2).then(|| {
        format!(
            "its timeout is {} s there, where this one's is {} s: cut short, it gives no decision",
            written(later_wait.as_secs_f64()),
            written(first_wait.as_secs_f64())
        )
    })
}

/// A PascalCase event name hookmux does not know: a typo, or an event of a newer host. Its
/// hooks are kept and run with the generic rules, so this is a warning.
fn unknown_event(file: &SettingsFile, event: HookEvent) -> Diagnostic {
    let name = event.as_str();
    let spelling = match suggest_event(name) {
        Some(known) => format!("if you meant `{known}`, fix the name; "),
        None => String::new(),
    };
    Diagnostic::warning(
        &file.path,
        JsonPath::root().key("hooks").key(name),
        format!(
            "`{name}` is not an event hookmux knows (Claude Code 2.1.328 sends none by that name); if a newer host \
             sends it, its hooks run with the generic rules"
        ),
    )
    .with_hint(format!(
        "{spelling}the generic rules: every group runs (matchers are not tested), exit 2 is handed back to the host \
         as exit 2 with its stderr, plain stdout is not context, and the JSON fields are handed on"
    ))
    .check(Check::UnknownEvent)
}

fn check_matcher(file: &SettingsFile, event: HookEvent, group: &Group, out: &mut Vec<Diagnostic>) {
    let Some(source) = group.matcher.as_deref().filter(|m| !m.is_empty() && *m != "*") else { return };
    let at = group.path.key("matcher");
    if !event.is_known() {
        out.push(
            Diagnostic::warning(
                &file.path,
                at,
                format!(
                    "hookmux does not know which field `{event}` matches on; `{source}` is not tested and every hook \
                     of this group runs"
                ),
            )
            .with_hint("drop the matcher, or have the hook check the payload itself until hookmux knows this event")
            .check(Check::MatcherNotTested),
        );
        return;
    }
    if event.match_field() == MatchField::None {
        out.push(
            Diagnostic::warning(
                &file.path,
                at,
                format!("{event} ignores matchers; `{source}` has no effect and every hook of this group runs"),
            )
            .with_hint("remove the matcher, or use an `if` rule on tool events")
            .check(Check::MatcherIgnored),
        );
        return;
    }
    match Matcher::compile(Some(source), event) {
        Matcher::Invalid { error, .. } => out.push(
            Diagnostic::error(
                &file.path,
                at,
                format!(
                    "matcher `{source}` is not a valid JavaScript regular expression ({error}); this group never runs"
                ),
            )
            .with_hint("escape regex characters with \\, or list exact names as `A|B`")
            .check(Check::InvalidMatcher),
        ),
        Matcher::Names(names) => {
            for name in &names {
                if let Some(warning) = impossible_name(event, name) {
                    out.push(
                        Diagnostic::warning(&file.path, at.clone(), warning.0)
                            .with_hint(warning.1)
                            .check(Check::MatcherNeverMatches),
                    );
                }
            }
        }
        Matcher::Pattern { risk: Some(risk), .. } => out.push(
            Diagnostic::warning(
                &file.path,
                at,
                format!(
                    "matcher `{source}` can backtrack for a very long time on some names: {risk}; dispatch gives \
                     it {} ms, then runs this group as if it matched",
                    matcher::DEADLINE.as_millis()
                ),
            )
            .with_hint(risk.hint())
            .check(Check::MatcherBacktracking),
        ),
        Matcher::All | Matcher::Substrings { .. } | Matcher::Pattern { .. } => {}
    }
}

/// Why an exact matcher name can never match, and what to write instead.
fn impossible_name(event: HookEvent, name: &str) -> Option<(String, String)> {
    if event.is_tool_event() {
        if let Some(server) = name.strip_prefix("mcp__") {
            if !server.contains("__") {
                return Some((
                    format!("exact matcher `{name}` names an MCP server, not a tool, so it never matches"),
                    format!("match every tool of the server with `{name}__.*`"),
                ));
            }
            return None;
        }
        if KNOWN_TOOLS.contains(&name) {
            return None;
        }
        if let Some(known) = KNOWN_TOOLS.iter().find(|k| k.eq_ignore_ascii_case(name)) {
            return Some((
                format!("exact matcher `{name}` never matches: tool names are case-sensitive"),
                format!("did you mean `{known}`?"),
            ));
        }
        return Some((
            format!("exact matcher `{name}` is not a tool Claude Code has, so it never matches"),
            "MCP tools are named `mcp__<server>__<tool>`; use a regex such as `Bash|mcp__.*` for patterns".to_string(),
        ));
    }
    let values = known_values(event)?;
    if values.contains(&name) {
        return None;
    }
    let suggestion = values.iter().find(|v| v.eq_ignore_ascii_case(name));
    Some((
        format!("exact matcher `{name}` never matches on {event}"),
        match suggestion {
            Some(value) => format!("did you mean `{value}`? Values are case-sensitive"),
            None => format!("{event} matches one of: {}", values.join(", ")),
        },
    ))
}

fn check_handler(file: &SettingsFile, event: HookEvent, spec: &HookSpec, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    out.extend(check_timeout(file, spec));
    check_safety(file, spec, out);
    if let Some(text) = &spec.if_rule {
        if !event.is_tool_event() {
            out.push(
                Diagnostic::warning(
                    &file.path,
                    spec.path.key("if"),
                    format!("`if` is only evaluated on tool events; on {event} this handler never runs"),
                )
                .with_hint("remove `if`, or move the handler to PreToolUse/PostToolUse")
                .check(Check::IfIgnored),
            );
        } else if let Err(error) = Rule::parse(text) {
            out.push(
                Diagnostic::error(
                    &file.path,
                    spec.path.key("if"),
                    format!("`if` rule cannot be read: {error}; this handler never runs"),
                )
                .with_hint("write one permission rule, such as `Bash(git *)` or `Edit(src/**)`")
                .check(Check::InvalidIf),
            );
        }
    }
    match &spec.kind {
        HookKind::Command { command, args, is_async, .. } => {
            if !is_async {
                check_builtin(file, spec, command, args.as_deref(), cx, out);
            }
            check_program(file, spec, command, args.is_some(), cx, out);
            check_placeholders(file, spec, command, args.as_deref(), out);
        }
        HookKind::Http { .. } if matches!(event, HookEvent::SessionStart | HookEvent::Setup) => out.push(
            Diagnostic::warning(&file.path, spec.path.key("type"), format!("http handlers do not run on {event}"))
                .with_hint("use a command handler there")
                .check(Check::HttpNotRun),
        ),
        HookKind::Prompt { .. } | HookKind::Agent { .. } | HookKind::McpTool { .. } => out.push(
            Diagnostic::warning(
                &file.path,
                spec.path.key("type"),
                format!(
                    "`{}` handlers need the host's model or MCP client: hookmux dispatch does not run them",
                    spec.kind.type_name()
                ),
            )
            .with_hint("keep them in the host's own settings (`hookmux install` leaves them there)")
            .check(Check::NotRunByDispatch),
        ),
        // The allow-list depends on every settings file, so only what no list can change is
        // checked here: a URL that cannot be read, or one with a user name or password.
        HookKind::Http { url, .. } => {
            if let Err(refusal) = HttpPolicy::default().permit(url) {
                out.push(
                    Diagnostic::error(&file.path, spec.path.key("url"), format!("{refusal}; this handler never runs"))
                        .with_hint("write the URL as scheme://host[:port]/path, with no user@ before the host")
                        .check(Check::InvalidUrl),
                );
            }
        }
    }
}

/// `${NAME}` placeholders the host does not put in: a plugin variable in a settings hook (the
/// host does not run it), and, in the exec form, any variable but the host's own (passed as
/// written; hookmux used to put in every variable).
fn check_placeholders(
    file: &SettingsFile,
    spec: &HookSpec,
    command: &str,
    args: Option<&[String]>,
    out: &mut Vec<Diagnostic>,
) {
    let plugin = file.plugin.is_some() || is_plugin_hooks_file(&file.path);
    let mut words = vec![(spec.path.key("command"), command)];
    if let Some(args) = args {
        words.extend(args.iter().enumerate().map(|(i, arg)| (spec.path.key("args").index(i), arg.as_str())));
    }
    for (at, word) in &words {
        if !plugin {
            if let Some(name) = placeholders::PLUGIN_ONLY.iter().find(|name| word.contains(&format!("${{{name}}}"))) {
                out.push(
                    Diagnostic::error(
                        &file.path,
                        at.clone(),
                        format!("`${{{name}}}` is only a plugin's: the host does not run this hook at all"),
                    )
                    .with_hint("name the script's path itself, or move the hook into the plugin's hooks/hooks.json")
                    .check(Check::PluginVariableOutsidePlugin),
                );
            }
        }
        if args.is_none() {
            continue;
        }
        for name in placeholders::left_as_written(word, plugin) {
            out.push(
                Diagnostic::warning(
                    &file.path,
                    at.clone(),
                    format!(
                        "`${{{name}}}` is passed as written: in the exec form the host puts in only \
                         `${{CLAUDE_PROJECT_DIR}}` (and a plugin's `${{CLAUDE_PLUGIN_ROOT}}` and `${{CLAUDE_PLUGIN_DATA}}`)"
                    ),
                )
                .with_hint(format!(
                    "write the value itself, or use the shell form (no `args`), where the shell expands `\"${name}\"`; \
                     earlier hookmux put every variable in, which showed its value to `ps`"
                ))
                .check(Check::EnvVarInArgs),
            );
        }
    }
}

/// A plugin's own hooks file checked by name (`hooks validate --settings PLUGIN/hooks/hooks.json`):
/// `hooks/hooks.json` beside the plugin's `.claude-plugin/plugin.json`.
fn is_plugin_hooks_file(path: &Path) -> bool {
    let folder = path.parent().filter(|_| path.file_name().is_some_and(|name| name == "hooks.json"));
    folder
        .filter(|folder| folder.file_name().is_some_and(|name| name == "hooks"))
        .and_then(Path::parent)
        .is_some_and(|root| root.join(".claude-plugin").join("plugin.json").is_file())
}

/// Risky commands (a download run by a shell, `rm -rf $VAR`, `sudo`) and API keys written into
/// a command, an http hook's URL or its headers.
fn check_safety(file: &SettingsFile, spec: &HookSpec, out: &mut Vec<Diagnostic>) {
    let command_at = spec.path.key("command");
    let mut places: Vec<(JsonPath, &str)> = Vec::new();
    match &spec.kind {
        HookKind::Command { command, args, shell, .. } => {
            let findings = match args {
                Some(args) => safety::argv(command, args),
                // PowerShell is not read as a POSIX shell.
                None if shell.as_deref() == Some("powershell") => Vec::new(),
                None => safety::command(command),
            };
            for finding in findings {
                out.push(
                    Diagnostic::warning(&file.path, command_at.clone(), finding.message)
                        .with_hint(finding.hint)
                        .check(finding.check),
                );
            }
            places.push((command_at, command));
            for (index, arg) in args.iter().flatten().enumerate() {
                places.push((spec.path.key("args").index(index), arg));
            }
        }
        HookKind::Http { url, headers, .. } => {
            places.push((spec.path.key("url"), url));
            for (name, value) in headers {
                let at = spec.path.key("headers").key(name);
                let found = safety::secrets(value);
                // A credential header written out, whatever its shape: `x-api-key: 3f…`.
                let literal = value.rsplit(' ').next().unwrap_or(value);
                if found.is_empty() && credential_header(name) && safety::literal_secret(literal) {
                    out.push(secret(file, at, "a credential", &safety::mask(literal), Place::Header));
                } else {
                    places.push((at, value));
                }
            }
        }
        _ => {}
    }
    for (at, text) in places {
        let place = match at.segments().iter().rev().nth(1) {
            _ if !matches!(spec.kind, HookKind::Http { .. }) => Place::Command,
            Some(Segment::Key(key)) if &**key == "headers" => Place::Header,
            _ => Place::Url,
        };
        for (masked, kind) in safety::secrets(text) {
            out.push(secret(file, at.clone(), kind, &masked, place));
        }
    }
}

/// A header whose name says it carries a credential.
fn credential_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["auth", "key", "token", "secret", "password", "cookie"].iter().any(|word| name.contains(word))
}

/// Where a secret was written, for what to write instead.
#[derive(Clone, Copy)]
enum Place {
    Command,
    Url,
    Header,
}

fn secret(file: &SettingsFile, at: JsonPath, kind: &str, masked: &str, place: Place) -> Diagnostic {
    let hint = match place {
        Place::Header => {
            "write a variable instead (`\"Bearer $MY_TOKEN\"`), list it in the hook's `allowedEnvVars`, set it in \
             the environment, and revoke this one: it is in the file's history"
        }
        // Only headers put variables in.
        Place::Url => {
            "send it in a header instead (`\"X-Api-Key\": \"$MY_KEY\"`, with `MY_KEY` in the hook's \
             `allowedEnvVars`), and revoke this one: it is in the file's history"
        }
        Place::Command => {
            "read it from the environment (`$MY_TOKEN`) or a secrets manager, and revoke this one: it is in the \
             file's history"
        }
    };
    Diagnostic::warning(
        &file.path,
        at,
        format!(
            "this looks like {kind} (`{masked}`) written into the settings: anyone who can read the file, or its \
             history, can use it"
        ),
    )
    .with_hint(hint)
    .check(Check::HardcodedSecret)
}

/// A timeout longer than dispatch waits, or one that looks like milliseconds.
fn check_timeout(file: &SettingsFile, spec: &HookSpec) -> Option<Diagnostic> {
    let timeout = spec.timeout?;
    let at = spec.path.key("timeout");
    let longest = MAX_TIMEOUT.as_secs_f64();
    if timeout > longest {
        let hint = if timeout / 1000.0 <= MAX_SENSIBLE_TIMEOUT {
            format!("timeouts are in seconds: for {} milliseconds, write {}", written(timeout), timeout / 1000.0)
        } else {
            format!("timeouts are in seconds; write at most {longest}")
        };
        let hours = longest / 3600.0;
        let message = format!(
            "timeout {} is more than the {longest} s ({hours} hours) hookmux waits at most, so it waits {hours} hours",
            written(timeout)
        );
        return Some(Diagnostic::error(&file.path, at, message).with_hint(hint).check(Check::TimeoutTooLong));
    }
    (timeout > MAX_SENSIBLE_TIMEOUT).then(|| {
        Diagnostic::error(
            &file.path,
            at,
            format!(
                "timeout {timeout} looks like milliseconds: timeouts are in seconds, so this is {:.1} hours",
                timeout / 3600.0
            ),
        )
        .with_hint(format!("write {}", timeout / 1000.0))
        .check(Check::TimeoutMilliseconds)
    })
}

/// A number of seconds as a reader would write it: `90000`, but `1e20` rather than 21 digits.
fn written(seconds: f64) -> String {
    if seconds < 1e15 {
        seconds.to_string()
    } else {
        format!("{seconds:e}")
    }
}

/// `hookmux run NAME [OPTIONS]`: the handler must exist and take these options.
fn check_builtin(
    file: &SettingsFile,
    spec: &HookSpec,
    command: &str,
    exec_args: Option<&[String]>,
    cx: &Context<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let words: Vec<String> = match exec_args {
        Some(args) => std::iter::once(command.to_string()).chain(args.iter().cloned()).collect(),
        // As dispatch reads it, so that a quoted option value with spaces is one word; a command
        // with shell syntax runs in a shell, and is read word by word as a best guess.
        None => crate::engine::config::shell_words::plain_words(command)
            .unwrap_or_else(|| command.split_whitespace().map(|w| w.trim_matches(['\'', '"']).to_string()).collect()),
    };
    let [program, run, name, options @ ..] = words.as_slice() else { return };
    if !(program == "hookmux" || program.ends_with("/hookmux")) || run != "run" {
        return;
    }
    let Some(registry) = cx.registry else { return };
    let at = spec.path.key("command");
    match registry.get(name) {
        None => {
            let known: Vec<&str> = registry.names().collect();
            out.push(
                Diagnostic::error(
                    &file.path,
                    at,
                    format!("`hookmux run {name}`: no handler is called `{name}`; this hook always fails"),
                )
                .with_hint(format!("the handlers are: {} (see `hookmux handlers`)", known.join(", ")))
                .check(Check::UnknownHandler),
            );
        }
        Some(handler) => {
            if let Err(error) = Args::parse(handler.info(), options) {
                out.push(
                    Diagnostic::error(&file.path, at, format!("`hookmux run {name}`: {error}; this hook always fails"))
                        .with_hint(format!("see `hookmux handlers {name}`"))
                        .check(Check::InvalidHandlerOptions),
                );
            }
        }
    }
}

/// A command whose first word is a path (once `$CLAUDE_PROJECT_DIR`, `$HOME` and `~` are
/// expanded, it has a `/`; on Windows also a backslash or a drive, `C:`) must name an executable
/// file.
fn check_program(
    file: &SettingsFile,
    spec: &HookSpec,
    command: &str,
    exec_form: bool,
    cx: &Context<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let first = if exec_form { Some(command.to_string()) } else { first_word(command) };
    let Some(word) = first else { return };
    let Some(path) = expand(&word, cx) else { return };
    if !hookmux_platform::program::is_path(&path.to_string_lossy()) {
        return;
    }
    let path = if path.is_absolute() { path } else { cx.project_root.join(path) };
    let at = spec.path.key("command");
    match std::fs::metadata(&path) {
        Err(_) => out.push(
            Diagnostic::error(
                &file.path,
                at,
                format!("`{}` does not exist; this hook fails every time", path.display()),
            )
            .with_hint("fix the path; `$CLAUDE_PROJECT_DIR` is the project root")
            .check(Check::MissingProgram),
        ),
        Ok(meta) if meta.is_dir() => out.push(
            Diagnostic::error(&file.path, at, format!("`{}` is a folder, not a program", path.display()))
                .check(Check::ProgramNotExecutable),
        ),
        Ok(meta) if hookmux_platform::fs::lacks_execute_permission(&meta) => out.push(
            Diagnostic::error(
                &file.path,
                at,
                format!("`{}` is not executable; this hook fails every time", path.display()),
            )
            .with_hint(format!("chmod +x {}", path.display()))
            .check(Check::ProgramNotExecutable),
        ),
        Ok(_) => {}
    }
}

/// The first shell word of a command, quotes removed; `None` when it starts with something other
/// than a plain word (a subshell, a variable assignment, a redirection).
fn first_word(command: &str) -> Option<String> {
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in command.trim_start().chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() || ";&|<>()".contains(c) => break,
            (_, c) => word.push(c),
        }
    }
    (!word.is_empty() && !word.contains('=')).then_some(word)
}

/// Expands `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PROJECT_DIR}`, `$HOME`, `${HOME}` and a leading `~/`;
/// `None` when another variable remains (its value is not known here).
fn expand(word: &str, cx: &Context<'_>) -> Option<PathBuf> {
    let root = cx.project_root.to_string_lossy();
    let home = cx.home.map(|h| h.to_string_lossy().into_owned());
    let mut text = word.replace("${CLAUDE_PROJECT_DIR}", &root).replace("$CLAUDE_PROJECT_DIR", &root);
    if let Some(home) = &home {
        text = text.replace("${HOME}", home).replace("$HOME", home);
        if let Some(rest) = text.strip_prefix("~/") {
            text = format!("{home}/{rest}");
        }
    }
    (!text.contains('$')).then(|| PathBuf::from(text))
}

/// Counts by severity.
pub fn counts(diagnostics: &[Diagnostic]) -> (usize, usize) {
    let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    (errors, diagnostics.len() - errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_words() {
        assert_eq!(
            first_word("\"$CLAUDE_PROJECT_DIR\"/hooks/a.sh --x").as_deref(),
            Some("$CLAUDE_PROJECT_DIR/hooks/a.sh")
        );
        assert_eq!(first_word("python3 x.py").as_deref(), Some("python3"));
        assert_eq!(first_word("FOO=1 cmd"), None);
        assert_eq!(first_word("(cd x; y)"), None);
    }

    #[test]
    fn builtin_options_are_read_as_dispatch_reads_them() {
        let file = SettingsFile::parse(
            Path::new("s.json"),
            crate::engine::config::settings::Scope::Project,
            r#"{"hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": "hookmux run protect-paths --deny 'a b/**' --allow \"c d\""},
                {"type": "command", "command": "hookmux run protect-paths --deny"}]}]}}"#,
        );
        let sources = Sources::from_files(vec![file]);
        let cx = Context { project_root: Path::new("/p"), home: None, registry: Registry::global().ok() };
        let messages: Vec<String> = validate(&sources, &cx).into_iter().map(|d| d.message).collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].contains("`--deny` needs a value"), "{messages:?}");
    }

    /// A regex that can backtrack for a very long time is a warning at its matcher, with a
    /// rewrite; a safe regex is not.
    #[test]
    fn matchers_that_can_backtrack_steeply_are_warned_about() {
        let file = SettingsFile::parse(
            Path::new("s.json"),
            crate::engine::config::settings::Scope::Project,
            r#"{"hooks": {"PreToolUse": [
                {"matcher": "mcp__.*__write.*", "hooks": [{"type": "command", "command": "true"}]},
                {"matcher": "(a+)+$", "hooks": [{"type": "command", "command": "true"}]}]}}"#,
        );
        let sources = Sources::from_files(vec![file]);
        let cx = Context { project_root: Path::new("/p"), home: None, registry: Registry::global().ok() };
        let diagnostics = validate(&sources, &cx);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        let warning = &diagnostics[0];
        assert_eq!(warning.severity, Severity::Warning);
        assert_eq!(warning.path.to_string(), "hooks.PreToolUse[1].matcher");
        assert!(warning.message.contains("`(a+)+$` can backtrack"), "{}", warning.message);
        assert!(warning.message.contains("runs this group as if it matched"), "{}", warning.message);
        assert!(warning.hint.as_deref().is_some_and(|hint| hint.contains("`a+`")), "{warning:?}");
    }

    /// A PascalCase event hookmux does not know is a warning (its hooks are kept and run with the
    /// generic rules); a known event in the wrong case is an error (its hooks are skipped).
    #[test]
    fn unknown_events_warn_and_wrong_case_ones_are_errors() {
        let file = SettingsFile::parse(
            Path::new("s.json"),
            crate::engine::config::settings::Scope::Project,
            r#"{"hooks": {
                "PreFutureThing": [{"matcher": "x", "hooks": [{"type": "command", "command": "true"}]}],
                "PreToolUser": [{"hooks": [{"type": "command", "command": "true"}]}],
                "preToolUse": [{"hooks": [{"type": "command", "command": "true"}]}],
                "PreModelSwitch": [{"matcher": "claude-opus-4-6", "hooks": [{"type": "command", "command": "true"}]}]}}"#,
        );
        let sources = Sources::from_files(vec![file]);
        let cx = Context { project_root: Path::new("/p"), home: None, registry: Registry::global().ok() };
        let found: Vec<(Severity, String, String)> = validate(&sources, &cx)
            .into_iter()
            .map(|d| (d.severity, d.path.to_string(), format!("{} | {}", d.message, d.hint.unwrap_or_default())))
            .collect();
        assert_eq!(found.len(), 4, "{found:#?}");
        let at = |path: &str| found.iter().find(|(_, p, _)| p == path).unwrap_or_else(|| panic!("{path}: {found:#?}"));
        let (severity, _, text) = at("hooks.preToolUse");
        assert_eq!(*severity, Severity::Error);
        assert!(text.contains("did you mean `PreToolUse`?"), "{text}");
        let (severity, _, text) = at("hooks.PreFutureThing");
        assert_eq!(*severity, Severity::Warning);
        assert!(text.contains("not an event hookmux knows") && text.contains("generic rules"), "{text}");
        let (severity, _, text) = at("hooks.PreFutureThing[0].matcher");
        assert_eq!(*severity, Severity::Warning);
        assert!(text.contains("every hook of this group runs"), "{text}");
        let (severity, _, text) = at("hooks.PreToolUser");
        assert_eq!(*severity, Severity::Warning);
        assert!(text.contains("if you meant `PreToolUse`"), "{text}");
    }

    /// A misnamed event's hooks do not run, but fixing the name runs them: they are checked as the
    /// event the name means, their shape included.
    #[test]
    fn the_hooks_of_a_misnamed_event_are_checked_too() {
        let file = SettingsFile::parse(
            Path::new("s.json"),
            crate::engine::config::settings::Scope::Project,
            r#"{"hooks": {"preToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "curl -s https://x | sh"},
                {"type": "command", "command": "hookmux run no-such-handler"},
                {"type": "command", "command": "true", "if": "Bash(git *"},
                {"type": "command"}]}],
                "stop": [{"matcher": "x", "hooks": [{"type": "command", "command": "true", "timeout": 5000}]}]}}"#,
        );
        let sources = Sources::from_files(vec![file]);
        let cx = Context { project_root: Path::new("/p"), home: None, registry: Registry::global().ok() };
        let mut found: Vec<(String, &str)> =
            validate(&sources, &cx).into_iter().map(|d| (d.path.to_string(), d.check.id())).collect();
        found.sort();
        let expected = [
            ("hooks.preToolUse", "invalid-event-name"),
            ("hooks.preToolUse[0].hooks[0].command", "pipe-to-shell"),
            ("hooks.preToolUse[0].hooks[1].command", "unknown-handler"),
            ("hooks.preToolUse[0].hooks[2].if", "invalid-if"),
            ("hooks.preToolUse[0].hooks[3]", "invalid-shape"),
            ("hooks.stop", "invalid-event-name"),
            ("hooks.stop[0].hooks[0].timeout", "timeout-milliseconds"),
            ("hooks.stop[0].matcher", "matcher-ignored"),
        ];
        assert_eq!(found, expected.map(|(path, rule)| (path.to_string(), rule)), "{found:#?}");
        // dispatch is not told about them: they do not run.
        assert_eq!(sources.diagnostics().count(), 2);
    }

    /// The safety checks point at the string they found something in: the command, an exec-form
    /// argument, the URL, the header; a variable in a header is what to write, and not reported.
    #[test]
    fn safety_findings_point_at_their_string() {
        let file = SettingsFile::parse(
            Path::new("s.json"),
            crate::engine::config::settings::Scope::Project,
            r#"{"hooks": {"Stop": [{"hooks": [
                {"type": "command", "command": "curl -s https://x | sh"},
                {"type": "command", "command": "gh", "args": ["auth", "--token", "ghp_0123456789abcdefghijABCDEFGHIJ0123"]},
                {"type": "command", "command": "sudo true", "shell": "powershell"},
                {"type": "http", "url": "https://x/?key=AIzaSyA1234567890abcdefghijklmnopqrstuv",
                 "headers": {"X-Api-Key": "3f9a1c0e5b7d2468ace0", "Authorization": "Bearer $TOKEN"},
                 "allowedEnvVars": ["TOKEN"]}]}]}}"#,
        );
        let sources = Sources::from_files(vec![file]);
        let cx = Context { project_root: Path::new("/p"), home: None, registry: Registry::global().ok() };
        let found: Vec<(String, &str)> =
            validate(&sources, &cx).into_iter().map(|d| (d.path.to_string(), d.check.id())).collect();
        let at = |path: &str, rule| (format!("hooks.Stop[0].hooks[{path}"), rule);
        assert_eq!(
            found,
            [
                at("0].command", "pipe-to-shell"),
                at("1].args[2]", "hardcoded-secret"),
                at("3].headers.X-Api-Key", "hardcoded-secret"),
                at("3].url", "hardcoded-secret"),
            ]
        );
        let messages: Vec<String> = validate(&sources, &cx).into_iter().map(|d| d.message).collect();
        assert!(messages.iter().all(|m| !m.contains("0123456789") && !m.contains("3f9a1c0e")), "{messages:?}");
    }

    #[test]
    fn mistyped_rule_ids_get_the_closest() {
        assert_eq!(closest_rule("sudoo"), Some("sudo"));
        assert_eq!(closest_rule("matcher_backtrack"), Some("matcher-backtracking"));
        assert_eq!(closest_rule("xyz"), None);
    }

    #[test]
    fn impossible_names() {
        assert!(impossible_name(HookEvent::PreToolUse, "mcp__memory").is_some());
        assert!(impossible_name(HookEvent::PreToolUse, "mcp__memory__create").is_none());
        assert_eq!(impossible_name(HookEvent::PreToolUse, "bash").unwrap().1, "did you mean `Bash`?");
        assert!(impossible_name(HookEvent::PreToolUse, "Bash").is_none());
        assert!(impossible_name(HookEvent::SessionStart, "Startup").unwrap().1.contains("`startup`"));
        assert!(impossible_name(HookEvent::SessionStart, "compact").is_none());
        assert!(impossible_name(HookEvent::SubagentStop, "my-agent").is_none());
    }
}
