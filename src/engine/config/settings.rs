//! One settings file, read the way Claude Code reads it: every malformed entry is reported with
//! its JSON path and skipped, and the rest of the file is kept.

use crate::engine::config::diagnostic::{Check, Diagnostic};
use crate::engine::config::jsonpath::JsonPath;
use hookmux_sdk::HookEvent;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tree::{Json, Object};

/// The longest dispatch waits for one hook. A larger `timeout` is read as this: far beyond any
/// hook's useful wait, and small enough that no clock overflows adding it (`1e20` seconds is
/// more than a `Duration` holds, and `1e19` more than an `Instant` can be moved by).
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// The key of hookmux's own settings in a settings file: `"$hookmux": {…}`. Claude Code ignores
/// keys it does not know, and `$` keeps it apart from any key of Claude Code's.
pub const HOOKMUX_KEY: &str = "$hookmux";

/// How much of each dispatch hookmux writes to its trace (see `engine::trace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceMode {
    /// Nothing.
    Off,
    /// Names, ids, decisions, sizes and timings: no prompt, tool input or hook output.
    On,
    /// Also the event itself and the hooks' outputs.
    Full,
}

/// Where a settings file sits in Claude Code's order (user → project → local → flag → managed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    User,
    Project,
    Local,
    /// A file named by `--settings`.
    Flag,
    Managed,
    /// An enabled plugin's hooks file (see [`super::plugins`]): read after every settings file.
    Plugin,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::Flag => "settings",
            Scope::Managed => "managed",
            Scope::Plugin => "plugin",
        }
    }

    /// Which scope's value of a setting wins: the highest; within one scope, the later file.
    /// Plugins' files set nothing but hooks.
    pub fn precedence(self) -> u8 {
        match self {
            Scope::Plugin | Scope::User => 0,
            Scope::Project => 1,
            Scope::Local => 2,
            Scope::Flag => 3,
            Scope::Managed => 4,
        }
    }
}

/// Where one enabled plugin's hooks come from, and the variables its commands get.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plugin {
    /// `NAME@MARKETPLACE`, as `enabledPlugins` spells it.
    pub id: String,
    pub version: Option<String>,
    /// `CLAUDE_PLUGIN_ROOT`.
    pub root: PathBuf,
    /// `CLAUDE_PLUGIN_DATA`.
    pub data: PathBuf,
    /// The settings file whose `enabledPlugins` switched it on.
    pub enabled_by: PathBuf,
    /// Switched on by managed settings: its hooks are managed hooks.
    pub managed: bool,
}

impl Plugin {
    /// `alpha@tools 1.2.0`.
    pub fn label(&self) -> String {
        match &self.version {
            Some(version) => format!("{} {version}", self.id),
            None => self.id.clone(),
        }
    }

    /// The command as the plugin's process sees it: `${CLAUDE_PLUGIN_ROOT}` and
    /// `${CLAUDE_PLUGIN_DATA}` written out (by `show`), for listings.
    pub fn expand(&self, text: &str, show: impl Fn(&Path) -> String) -> String {
        text.replace("${CLAUDE_PLUGIN_ROOT}", &show(&self.root)).replace("${CLAUDE_PLUGIN_DATA}", &show(&self.data))
    }
}

/// What reading the file gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileState {
    /// Not there: normal for most sources.
    Missing,
    Loaded,
    /// There, but could not be read (permissions, a folder, not UTF-8): reported, no hooks used.
    Unreadable(String),
    /// Read, but not a JSON object: reported, no hooks used.
    Invalid(String),
    /// A project's own file, set aside unread: the project is not trusted by the host or by
    /// hookmux's trust list.
    Untrusted,
}

/// A parsed settings file.
#[derive(Clone, Debug)]
pub struct SettingsFile {
    pub path: PathBuf,
    pub scope: Scope,
    /// The settings file whose hookmux entry named this one (a hooks file `install` wrote),
    /// which lends it its scope.
    pub via: Option<PathBuf>,
    /// Named on purpose (by `--settings` or by a hookmux entry) rather than found: when it
    /// cannot be read, hooks someone relies on are off, and dispatch says so on every event.
    pub required: bool,
    pub state: FileState,
    /// The raw text, kept for locating diagnostics (line:column).
    pub text: Option<String>,
    /// Each event's groups, in file order: the known events, and PascalCase names hookmux does
    /// not know as `HookEvent::Other`.
    pub hooks: Vec<(HookEvent, Vec<Group>)>,
    pub disable_all_hooks: Option<bool>,
    pub allow_managed_hooks_only: Option<bool>,
    pub allowed_http_hook_urls: Option<Vec<String>>,
    pub http_hook_allowed_env_vars: Option<Vec<String>>,
    /// `enabledPlugins`, in file order.
    pub enabled_plugins: Vec<(String, bool)>,
    /// `"$hookmux": {"trace": …}`: hookmux's own dispatch trace on, off or in full. Claude Code
    /// ignores the `$hookmux` key; its other members are not dispatch's.
    pub trace: Option<TraceMode>,
    /// The plugin this hooks file belongs to ([`Scope::Plugin`]).
    pub plugin: Option<Plugin>,
    pub diagnostics: Vec<Diagnostic>,
    /// Handlers kept and skipped (malformed), for `dry-run`'s source table.
    pub kept: usize,
    pub skipped: usize,
    /// Events whose name is not one (`preToolUse`): their hooks never run, but fixing the name
    /// runs them, so `hooks validate` checks them too.
    pub misnamed: Vec<Misnamed>,
}

/// The groups of an event name that is not an event's.
#[derive(Clone, Debug)]
pub struct Misnamed {
    pub name: String,
    /// The event the name most likely means, whose rules its hooks are checked by.
    pub meant: Option<HookEvent>,
    pub groups: Vec<Group>,
    /// What reading the groups found (a handler without a command, say), not told by dispatch.
    pub diagnostics: Vec<Diagnostic>,
}

/// A matcher group: `{"matcher": …, "hooks": [ … ]}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub matcher: Option<String>,
    pub hooks: Vec<HookSpec>,
    pub path: JsonPath,
}

/// One handler entry of a group.
#[derive(Clone, Debug, PartialEq)]
pub struct HookSpec {
    pub kind: HookKind,
    /// The `if` permission rule, e.g. `Bash(git *)`.
    pub if_rule: Option<String>,
    /// Seconds, as written; [`HookSpec::wait`] is what dispatch waits.
    pub timeout: Option<f64>,
    pub status_message: Option<String>,
    pub once: bool,
    pub path: JsonPath,
}

impl HookSpec {
    /// The `timeout` as dispatch waits it: at most [`MAX_TIMEOUT`].
    pub fn wait(&self) -> Option<Duration> {
        self.timeout.map(clamp_timeout)
    }
}

/// Seconds as a wait of at most [`MAX_TIMEOUT`], for any number (what is not a positive number
/// of seconds waits the most).
pub fn clamp_timeout(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds).map_or(MAX_TIMEOUT, |wait| wait.min(MAX_TIMEOUT))
}

#[derive(Clone, Debug, PartialEq)]
pub enum HookKind {
    Command {
        command: String,
        /// Exec form when present: spawn `command` with these arguments, no shell.
        args: Option<Vec<String>>,
        shell: Option<String>,
        is_async: bool,
        async_rewake: bool,
    },
    Http {
        url: String,
        headers: BTreeMap<String, String>,
        allowed_env_vars: Vec<String>,
    },
    McpTool {
        server: String,
        tool: String,
        input: Option<Value>,
    },
    Prompt {
        prompt: String,
        model: Option<String>,
    },
    Agent {
        prompt: String,
        model: Option<String>,
    },
}

impl HookKind {
    pub fn type_name(&self) -> &'static str {
        match self {
            HookKind::Command { .. } => "command",
            HookKind::Http { .. } => "http",
            HookKind::McpTool { .. } => "mcp_tool",
            HookKind::Prompt { .. } => "prompt",
            HookKind::Agent { .. } => "agent",
        }
    }

    /// A one-line label for listings: the command, URL, tool or prompt.
    pub fn label(&self) -> String {
        match self {
            HookKind::Command { command, args: Some(args), .. } => {
                std::iter::once(command.as_str()).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
            }
            HookKind::Command { command, .. } => command.clone(),
            // A password in the URL is hidden from every message and listing that names the hook.
            HookKind::Http { url, .. } => format!("POST {}", super::secrets::redact_url(url)),
            HookKind::McpTool { server, tool, .. } => format!("mcp {server}/{tool}"),
            HookKind::Prompt { prompt, .. } | HookKind::Agent { prompt, .. } => prompt.clone(),
        }
    }
}

impl SettingsFile {
    /// A file that is not there.
    pub fn missing(path: impl Into<PathBuf>, scope: Scope) -> SettingsFile {
        SettingsFile::empty(path.into(), scope, FileState::Missing)
    }

    /// A project's own file that is not read: the project is not trusted.
    pub fn untrusted(path: impl Into<PathBuf>, scope: Scope) -> SettingsFile {
        SettingsFile::empty(path.into(), scope, FileState::Untrusted)
    }

    fn empty(path: PathBuf, scope: Scope, state: FileState) -> SettingsFile {
        SettingsFile {
            path,
            scope,
            via: None,
            required: false,
            state,
            text: None,
            hooks: Vec::new(),
            disable_all_hooks: None,
            allow_managed_hooks_only: None,
            allowed_http_hook_urls: None,
            http_hook_allowed_env_vars: None,
            enabled_plugins: Vec::new(),
            trace: None,
            plugin: None,
            diagnostics: Vec::new(),
            kept: 0,
            skipped: 0,
            misnamed: Vec::new(),
        }
    }

    /// Reads and parses a file. A missing file is [`FileState::Missing`]; any other failure is
    /// recorded in the state and in a diagnostic, never returned as an error.
    pub fn load(path: &Path, scope: Scope) -> SettingsFile {
        match std::fs::read(path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => SettingsFile::parse(path, scope, &text),
                Err(_) => SettingsFile::unreadable(path, scope, "the file is not UTF-8 text".to_string()),
            },
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => SettingsFile::missing(path, scope),
            Err(err) => SettingsFile::unreadable(path, scope, err.to_string()),
        }
    }

    fn unreadable(path: &Path, scope: Scope, reason: String) -> SettingsFile {
        let mut file = SettingsFile::empty(path.to_path_buf(), scope, FileState::Unreadable(reason.clone()));
        file.diagnostics.push(
            Diagnostic::error(
                path,
                JsonPath::root(),
                format!("cannot read the file: {reason}; its hooks are not used"),
            )
            .with_hint("check the file's permissions")
            .check(Check::UnreadableFile),
        );
        file
    }

    /// Parses settings text.
    pub fn parse(path: &Path, scope: Scope, text: &str) -> SettingsFile {
        let root = match Json::parse(text) {
            Ok(Json::Object(root)) => root,
            Ok(other) => {
                let reason = format!("the file holds a JSON {}, not an object", other.kind());
                return SettingsFile::invalid(path, scope, text, reason);
            }
            Err(err) if text.trim().is_empty() => {
                let _ = err;
                let mut file = SettingsFile::empty(path.to_path_buf(), scope, FileState::Loaded);
                file.text = Some(text.to_string());
                file.diagnostics.push(
                    Diagnostic::warning(path, JsonPath::root(), "the file is empty; it sets nothing")
                        .check(Check::EmptyFile),
                );
                return file;
            }
            Err(err) => {
                let mut file = SettingsFile::invalid(path, scope, text, format!("invalid JSON: {err}"));
                if let Some(diagnostic) = file.diagnostics.last_mut() {
                    diagnostic.position = Some((err.line(), err.column()));
                }
                return file;
            }
        };
        let mut file = SettingsFile::empty(path.to_path_buf(), scope, FileState::Loaded);
        file.text = Some(text.to_string());
        let mut reader = Reader { file: &mut file };
        reader.read_root(&root);
        file
    }

    fn invalid(path: &Path, scope: Scope, text: &str, reason: String) -> SettingsFile {
        let mut file = SettingsFile::empty(path.to_path_buf(), scope, FileState::Invalid(reason.clone()));
        file.text = Some(text.to_string());
        file.diagnostics.push(
            Diagnostic::error(path, JsonPath::root(), format!("{reason}; none of this file's hooks are used"))
                .with_hint("fix the file; until then none of its hooks run")
                .check(Check::InvalidJson),
        );
        file
    }

    /// The groups this file defines for `event`.
    pub fn groups(&self, event: HookEvent) -> &[Group] {
        self.hooks.iter().find(|(e, _)| *e == event).map(|(_, groups)| groups.as_slice()).unwrap_or(&[])
    }

    pub fn is_usable(&self) -> bool {
        self.state == FileState::Loaded
    }

    /// Whether its hooks are managed (policy) hooks, which `allowManagedHooksOnly` and a
    /// non-managed `disableAllHooks` leave running: a managed settings file's, or those of a
    /// plugin the managed settings enable (as Claude Code 2.1.328 counts them).
    pub fn is_managed(&self) -> bool {
        self.scope == Scope::Managed || self.plugin.as_ref().is_some_and(|plugin| plugin.managed)
    }
}

struct Reader<'f> {
    file: &'f mut SettingsFile,
}

impl Reader<'_> {
    fn error(&mut self, path: JsonPath, message: impl Into<String>) -> &mut Diagnostic {
        let diagnostic = Diagnostic::error(&self.file.path, path, message);
        self.file.diagnostics.push(diagnostic);
        self.file.diagnostics.last_mut().expect("just pushed")
    }

    fn read_root(&mut self, root: &Object<'_>) {
        let top = JsonPath::root();
        self.file.disable_all_hooks = self.bool_field(root, &top, "disableAllHooks");
        self.file.allow_managed_hooks_only = self.bool_field(root, &top, "allowManagedHooksOnly");
        self.file.allowed_http_hook_urls = self.string_list_field(root, &top, "allowedHttpHookUrls");
        self.file.http_hook_allowed_env_vars = self.string_list_field(root, &top, "httpHookAllowedEnvVars");
        self.file.enabled_plugins = self.enabled_plugins(root, &top);
        self.file.trace = self.trace_mode(root, &top);
        match root.get("hooks") {
            None | Some(Json::Null) => {}
            Some(Json::Object(events)) => self.read_events(events, &top.key("hooks")),
            Some(other) => {
                let message = format!(
                    "`hooks` must be an object of events, not a {}; no hooks used from this file",
                    other.kind()
                );
                self.error(top.key("hooks"), message);
            }
        }
    }

    fn bool_field(&mut self, obj: &Object<'_>, at: &JsonPath, key: &str) -> Option<bool> {
        match obj.get(key)? {
            Json::Bool(b) => Some(*b),
            other => {
                let message = format!("`{key}` must be true or false, not a {}; ignored", other.kind());
                self.error(at.key(key), message);
                None
            }
        }
    }

    /// `"$hookmux": {"trace": true | false | "full"}`. The rest of `$hookmux` (and a `$hookmux`
    /// that is not an object) is left to the commands that own it.
    fn trace_mode(&mut self, obj: &Object<'_>, at: &JsonPath) -> Option<TraceMode> {
        let Some(Json::Object(own)) = obj.get(HOOKMUX_KEY) else { return None };
        match own.get("trace")? {
            Json::Bool(true) => Some(TraceMode::On),
            Json::Bool(false) => Some(TraceMode::Off),
            Json::String(text) if text == "full" => Some(TraceMode::Full),
            other => {
                let message = format!(
                    "`trace` must be true, false or \"full\", not {}; the trace stays as it was",
                    describe_json(other)
                );
                self.file.diagnostics.push(Diagnostic::warning(
                    &self.file.path,
                    at.key(HOOKMUX_KEY).key("trace"),
                    message,
                ));
                None
            }
        }
    }

    /// `enabledPlugins: {"NAME@MARKETPLACE": true | false}`; any other value is reported and
    /// left out.
    fn enabled_plugins(&mut self, obj: &Object<'_>, at: &JsonPath) -> Vec<(String, bool)> {
        let at = at.key("enabledPlugins");
        match obj.get("enabledPlugins") {
            None | Some(Json::Null) => Vec::new(),
            Some(Json::Object(plugins)) => {
                let mut enabled = Vec::new();
                for (id, value) in plugins.iter() {
                    match value {
                        Json::Bool(on) => enabled.push((id.to_string(), *on)),
                        other => {
                            let message = format!(
                                "`{id}` must be true or false, not {}; the plugin is left as the other settings say",
                                describe_json(other)
                            );
                            self.error(at.key(id), message);
                        }
                    }
                }
                enabled
            }
            Some(other) => {
                let message =
                    format!("`enabledPlugins` must be an object of plugin ids, not {}; ignored", describe_json(other));
                self.error(at, message);
                Vec::new()
            }
        }
    }

    fn string_list_field(&mut self, obj: &Object<'_>, at: &JsonPath, key: &str) -> Option<Vec<String>> {
        match obj.get(key)? {
            Json::Array(items) if items.iter().all(Json::is_string) => {
                Some(items.iter().filter_map(Json::as_str).map(str::to_string).collect())
            }
            other => {
                let message = format!("`{key}` must be an array of strings, not {}; ignored", describe_json(other));
                self.error(at.key(key), message);
                None
            }
        }
    }

    fn read_events(&mut self, events: &Object<'_>, at: &JsonPath) {
        for (name, value) in events.iter() {
            let path = at.key(name);
            // A PascalCase name hookmux does not know is kept: a newer host may send it, and its
            // hooks then run with the generic rules (`hooks validate` warns about it).
            let Some(event) = HookEvent::named(name) else {
                let hint = match suggest_event(name) {
                    Some(known) => format!("did you mean `{known}`? Event names are case-sensitive"),
                    None => "event names are PascalCase, as `PreToolUse`; see `hookmux hooks validate` for the list of events".to_string(),
                };
                let count = value.as_array().map(|groups| count_handlers(groups)).unwrap_or(0);
                self.file.skipped += count;
                let diagnostic =
                    self.error(path.clone(), format!("unknown hook event `{name}`; its hooks are skipped"));
                diagnostic.hint = Some(hint);
                diagnostic.check = Check::InvalidEventName;
                self.read_misnamed(name, value, &path);
                continue;
            };
            let Json::Array(groups) = value else {
                let message =
                    format!("`{name}` must be an array of matcher groups, not {}; skipped", describe_json(value));
                self.error(path, message).hint =
                    Some(format!(r#"write "{name}": [{{"matcher": "…", "hooks": [ … ]}}]"#));
                continue;
            };
            let groups: Vec<Group> =
                groups.iter().enumerate().filter_map(|(i, group)| self.read_group(group, path.index(i))).collect();
            match self.file.hooks.iter_mut().find(|(e, _)| *e == event) {
                Some((_, existing)) => existing.extend(groups),
                None => self.file.hooks.push((event, groups)),
            }
        }
    }

    /// Reads the groups of a misnamed event aside, with their own diagnostics: they do not run,
    /// and what is wrong in them is `hooks validate`'s to say, not dispatch's.
    fn read_misnamed(&mut self, name: &str, value: &Json<'_>, path: &JsonPath) {
        let Json::Array(groups) = value else { return };
        let mut aside = SettingsFile::empty(self.file.path.clone(), self.file.scope, FileState::Loaded);
        let mut reader = Reader { file: &mut aside };
        let groups =
            groups.iter().enumerate().filter_map(|(i, group)| reader.read_group(group, path.index(i))).collect();
        let pascal: String = name.chars().take(1).flat_map(char::to_uppercase).chain(name.chars().skip(1)).collect();
        let meant = suggest_event(name).and_then(HookEvent::named).or_else(|| HookEvent::named(&pascal));
        self.file.misnamed.push(Misnamed { name: name.to_string(), meant, groups, diagnostics: aside.diagnostics });
    }

    fn read_group(&mut self, value: &Json<'_>, path: JsonPath) -> Option<Group> {
        let Json::Object(group) = value else {
            self.error(path, format!("a matcher group must be an object, not {}; skipped", describe_json(value)))
                .hint =
                Some(r#"write {"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}"#.to_string());
            return None;
        };
        let matcher = match member(group, "matcher") {
            None | Some(Json::Null) => None,
            Some(Json::String(m)) => Some(m.to_string()),
            Some(other) => {
                let count = member(group, "hooks").and_then(Json::as_array).map(Vec::len).unwrap_or(0);
                self.file.skipped += count;
                let message =
                    format!("`matcher` must be a string, not {}; this group is skipped", describe_json(other));
                self.error(path.key("matcher"), message).hint =
                    Some(r#"list tools as one string: "Edit|Write""#.to_string());
                return None;
            }
        };
        let hooks = match member(group, "hooks") {
            Some(Json::Array(hooks)) => hooks,
            Some(other) => {
                let message = format!(
                    "`hooks` must be an array of handlers, not {}; this group is skipped",
                    describe_json(other)
                );
                self.error(path.key("hooks"), message);
                return None;
            }
            None => {
                self.error(path.clone(), "a matcher group needs a `hooks` array; this group is skipped");
                return None;
            }
        };
        let at = path.key("hooks");
        let hooks = hooks.iter().enumerate().filter_map(|(i, hook)| self.read_hook(hook, at.index(i))).collect();
        Some(Group { matcher, hooks, path })
    }

    fn read_hook(&mut self, value: &Json<'_>, path: JsonPath) -> Option<HookSpec> {
        let result = parse_hook(value, &path);
        match result {
            Ok(spec) => {
                self.file.kept += 1;
                Some(spec)
            }
            Err((at, message, hint)) => {
                self.file.skipped += 1;
                let unknown_type = message.starts_with("unknown handler type");
                let diagnostic = self.error(at, format!("{message}; this handler is skipped"));
                diagnostic.hint = hint;
                if unknown_type {
                    diagnostic.check = Check::UnknownHandlerType;
                }
                None
            }
        }
    }
}

type HookError = (JsonPath, String, Option<String>);

fn parse_hook(value: &Json<'_>, path: &JsonPath) -> Result<HookSpec, HookError> {
    let Json::Object(hook) = value else {
        return Err((path.clone(), format!("a handler must be an object, not {}", describe_json(value)), None));
    };
    let fields = Fields { obj: hook, path };
    let kind = match fields.required_str("type")? {
        "command" => HookKind::Command {
            command: fields.required_string("command")?,
            args: fields.optional_string_list("args")?,
            shell: fields.optional_string("shell")?,
            is_async: fields.optional_bool("async")?.unwrap_or(false),
            async_rewake: fields.optional_bool("asyncRewake")?.unwrap_or(false),
        },
        "http" => HookKind::Http {
            url: fields.required_string("url")?,
            headers: fields.optional_string_map("headers")?.unwrap_or_default(),
            allowed_env_vars: fields.optional_string_list("allowedEnvVars")?.unwrap_or_default(),
        },
        "mcp_tool" => HookKind::McpTool {
            server: fields.required_string("server")?,
            tool: fields.required_string("tool")?,
            input: member(hook, "input").map(Json::to_value),
        },
        "prompt" => {
            HookKind::Prompt { prompt: fields.required_string("prompt")?, model: fields.optional_string("model")? }
        }
        "agent" => {
            HookKind::Agent { prompt: fields.required_string("prompt")?, model: fields.optional_string("model")? }
        }
        other => {
            return Err((
                path.key("type"),
                format!("unknown handler type `{other}`"),
                Some("the types are command, http, mcp_tool, prompt and agent".to_string()),
            ))
        }
    };
    let timeout = match member(hook, "timeout") {
        None | Some(Json::Null) => None,
        Some(Json::Number(n)) if n.as_f64().is_some_and(|t| t > 0.0 && t.is_finite()) => n.as_f64(),
        Some(other) => {
            return Err((
                path.key("timeout"),
                format!("`timeout` must be a positive number of seconds, not {}", describe_json(other)),
                None,
            ))
        }
    };
    Ok(HookSpec {
        kind,
        if_rule: fields.optional_string("if")?,
        timeout,
        status_message: fields.optional_string("statusMessage")?,
        once: fields.optional_bool("once")?.unwrap_or(false),
        path: path.clone(),
    })
}

struct Fields<'a, 't> {
    obj: &'a Object<'t>,
    path: &'a JsonPath,
}

impl<'a> Fields<'a, '_> {
    fn required_string(&self, key: &str) -> Result<String, HookError> {
        self.required_str(key).map(str::to_string)
    }

    fn required_str(&self, key: &str) -> Result<&'a str, HookError> {
        match member(self.obj, key) {
            Some(Json::String(s)) if !s.trim().is_empty() => Ok(s),
            Some(Json::String(_)) => Err((self.path.key(key), format!("`{key}` is empty"), None)),
            Some(other) => {
                Err((self.path.key(key), format!("`{key}` must be a string, not {}", describe_json(other)), None))
            }
            None => Err((self.path.clone(), format!("the handler has no `{key}`"), None)),
        }
    }

    fn optional_string(&self, key: &str) -> Result<Option<String>, HookError> {
        match member(self.obj, key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.to_string())),
            Some(other) => {
                Err((self.path.key(key), format!("`{key}` must be a string, not {}", describe_json(other)), None))
            }
        }
    }

    fn optional_bool(&self, key: &str) -> Result<Option<bool>, HookError> {
        match member(self.obj, key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Bool(b)) => Ok(Some(*b)),
            Some(other) => {
                Err((self.path.key(key), format!("`{key}` must be true or false, not {}", describe_json(other)), None))
            }
        }
    }

    fn optional_string_list(&self, key: &str) -> Result<Option<Vec<String>>, HookError> {
        match member(self.obj, key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Json::String(s) => Ok(s.to_string()),
                    other => Err((
                        self.path.key(key).index(i),
                        format!("must be a string, not {}", describe_json(other)),
                        None,
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(other) => Err((
                self.path.key(key),
                format!("`{key}` must be an array of strings, not {}", describe_json(other)),
                None,
            )),
        }
    }

    fn optional_string_map(&self, key: &str) -> Result<Option<BTreeMap<String, String>>, HookError> {
        match member(self.obj, key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Object(map)) => map
                .iter()
                .map(|(k, v)| match v {
                    Json::String(s) => Ok((k.to_string(), s.to_string())),
                    other => Err((
                        self.path.key(key).key(k),
                        format!("must be a string, not {}", describe_json(other)),
                        None,
                    )),
                })
                .collect::<Result<BTreeMap<_, _>, _>>()
                .map(Some),
            Some(other) => {
                Err((self.path.key(key), format!("`{key}` must be an object, not {}", describe_json(other)), None))
            }
        }
    }
}

/// A group's or a handler's member.
fn member<'v, 't>(obj: &'v Object<'t>, key: &str) -> Option<&'v Json<'t>> {
    obj.get(key)
}

fn count_handlers(groups: &[Json<'_>]) -> usize {
    groups
        .iter()
        .filter_map(|g| match g {
            Json::Object(group) => group.get("hooks").and_then(Json::as_array),
            _ => None,
        })
        .map(Vec::len)
        .sum()
}

/// The known event a misspelt name most likely meant: same letters ignoring case, or one edit away.
pub fn suggest_event(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    HookEvent::ALL.iter().map(|e| e.as_str()).find(|known| known.to_ascii_lowercase() == lower).or_else(|| {
        HookEvent::ALL
            .iter()
            .map(|e| e.as_str())
            .map(|known| (edit_distance(&known.to_ascii_lowercase(), &lower), known))
            .filter(|(d, _)| *d <= 2)
            .min()
            .map(|(_, known)| known)
    })
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb)).min(row[j] + 1).min(current + 1);
            previous = current;
        }
    }
    row[b.len()]
}

/// [`describe`] for the reader's tree.
fn describe_json(value: &Json<'_>) -> String {
    match value {
        Json::Null => "null".to_string(),
        Json::Bool(b) => format!("the boolean {b}"),
        Json::Number(n) => format!("the number {n}"),
        Json::String(s) => format!("the string {}", Value::from(&**s)),
        Json::Array(_) => "an array".to_string(),
        Json::Object(_) => "an object".to_string(),
    }
}

/// "an object", "the number 5000", … for messages.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", Value::from(s.as_str())),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

mod tree;

#[cfg(test)]
mod tests;
