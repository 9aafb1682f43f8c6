//! `.claude/tasks/cfg/brewcode.config.json`: brewcode's settings, merged over its defaults.
//!
//! Only the settings a hook reads are kept: the knowledge limits, the log level, the system
//! agents and whether constraints are injected. The numeric ones are validated as brewcode does
//! (a whole number of at least 1, else the default and a `[config]` warning in the log), and the
//! `autoSync` numbers are validated too, because their warnings reach the same log.

use super::js::{self, JsError};
use serde_json::{Map, Value};

/// Where the settings live, relative to the project.
pub const CONFIG_FILE: &str = ".claude/tasks/cfg/brewcode.config.json";

/// Agents that never get knowledge or constraints injected, and never get the 2-step protocol.
pub const SYSTEM_AGENTS: &[&str] = &[
    "bc-coordinator",
    "bc-knowledge-manager",
    "brewcode:bc-coordinator",
    "brewcode:bc-knowledge-manager",
    "bd-auto-sync-processor",
    "brewcode:bd-auto-sync-processor",
    "bc-grepai-configurator",
    "brewcode:bc-grepai-configurator",
    "Explore",
    "Plan",
    "Bash",
    "general-purpose",
    "claude-code-guide",
    "skill-creator",
    "agent-creator",
    "text-optimizer",
    "statusline-setup",
];

pub const DEFAULT_MAX_ENTRIES: f64 = 100.0;
pub const DEFAULT_MAX_TOKENS: f64 = 500.0;
const DEFAULT_INTERVAL_DAYS: f64 = 7.0;
const DEFAULT_PARALLEL_AGENTS: f64 = 5.0;

/// A log level, most severe first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl Level {
    /// The tag in a log line: upper case, padded to five characters.
    pub fn tag(self) -> &'static str {
        match self {
            Level::Error => "ERROR",
            Level::Warn => "WARN ",
            Level::Info => "INFO ",
            Level::Debug => "DEBUG",
            Level::Trace => "TRACE",
        }
    }

    fn from_name(name: &str) -> Option<Level> {
        Some(match name {
            "error" => Level::Error,
            "warn" => Level::Warn,
            "info" => Level::Info,
            "debug" => Level::Debug,
            "trace" => Level::Trace,
            _ => return None,
        })
    }
}

/// The settings the hooks read.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub max_entries: f64,
    pub max_tokens: f64,
    /// `None` when `logging.level` names no level: brewcode then logs nothing at all.
    pub level: Option<Level>,
    /// The defaults plus the user's `agents.system`, as JSON values (brewcode compares with `===`).
    pub system_agents: Vec<Value>,
    pub constraints_enabled: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_entries: DEFAULT_MAX_ENTRIES,
            max_tokens: DEFAULT_MAX_TOKENS,
            level: Some(Level::Info),
            system_agents: SYSTEM_AGENTS.iter().map(|name| Value::from(*name)).collect(),
            constraints_enabled: true,
        }
    }
}

impl Config {
    /// Whether a message at `level` is written.
    pub fn logs(&self, level: Level) -> bool {
        self.level.is_some_and(|configured| level <= configured)
    }

    /// `agents.system.includes(agentType)`.
    pub fn is_system_agent(&self, agent: Option<&Value>) -> bool {
        self.system_agents.iter().any(|system| js::strict_equals(Some(system), agent))
    }
}

/// A setting that fell back to its default, with the warning brewcode logs for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fallback(pub String);

/// The user's settings merged over the defaults, and the warnings to log. `user` is the parsed
/// file (an empty object when the file is missing or unreadable). Fails as brewcode's loader
/// throws: on a file that is JSON `null`, and on an `agents.system` that cannot be spread.
pub fn merge(user: &Value) -> Result<(Config, Vec<Fallback>), JsError> {
    if user.is_null() {
        return Err(JsError::new("Cannot read properties of null (reading 'knowledge')"));
    }
    let section = |name: &str| user.as_object().and_then(|map| map.get(name)).and_then(Value::as_object);
    let setting = |section_map: Option<&Map<String, Value>>, key: &str| section_map.and_then(|m| m.get(key)).cloned();

    let knowledge = section("knowledge");
    let max_entries = setting(knowledge, "maxEntries").unwrap_or(Value::from(100));
    let max_tokens = setting(knowledge, "maxTokens").unwrap_or(Value::from(500));
    let level_value = setting(section("logging"), "level").unwrap_or(Value::from("info"));
    let level = if js::truthy(Some(&level_value)) {
        Level::from_name(&js::string_of(Some(&level_value)))
    } else {
        Some(Level::Info)
    };

    let mut system_agents: Vec<Value> = SYSTEM_AGENTS.iter().map(|name| Value::from(*name)).collect();
    let agents = user.as_object().and_then(|map| map.get("agents"));
    let user_agents = js::or_none(js::prop(agents, "system"));
    match user_agents {
        None => {}
        Some(Value::Array(items)) => system_agents.extend(items.iter().cloned()),
        // Spreading a string spreads its characters.
        Some(Value::String(s)) => system_agents.extend(s.chars().map(|c| Value::from(c.to_string()))),
        Some(_) => return Err(JsError::new("((intermediate value) || []) is not iterable")),
    }

    let constraints_enabled = !matches!(setting(section("constraints"), "enabled"), Some(Value::Bool(false)));
    let auto_sync = section("autoSync");
    let interval_days = setting(auto_sync, "intervalDays").unwrap_or(Value::from(7));
    let parallel_agents = setting(auto_sync, "parallelAgents").unwrap_or(Value::from(5));

    let mut warnings = Vec::new();
    let mut check = |name: &str, value: &Value, default: f64| -> f64 {
        if js::is_positive_integer(Some(value)) {
            return value.as_f64().unwrap_or(default);
        }
        warnings.push(Fallback(format!(
            "Invalid {name}={}, using default {}",
            js::string_of(Some(value)),
            js::format_number(default)
        )));
        default
    };
    check("intervalDays", &interval_days, DEFAULT_INTERVAL_DAYS);
    check("parallelAgents", &parallel_agents, DEFAULT_PARALLEL_AGENTS);
    let max_entries = check("maxEntries", &max_entries, DEFAULT_MAX_ENTRIES);
    let max_tokens = check("maxTokens", &max_tokens, DEFAULT_MAX_TOKENS);

    Ok((Config { max_entries, max_tokens, level, system_agents, constraints_enabled }, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_when_the_file_is_empty() {
        let (config, warnings) = merge(&json!({})).unwrap();
        assert_eq!(config, Config::default());
        assert!(warnings.is_empty());
        assert!(config.is_system_agent(Some(&json!("Explore"))));
        assert!(config.is_system_agent(Some(&json!("brewcode:bc-grepai-configurator"))));
        assert!(!config.is_system_agent(Some(&json!("developer"))));
        assert!(!config.is_system_agent(None));
    }

    #[test]
    fn user_agents_are_added_and_bad_numbers_fall_back_with_a_warning() {
        let user = json!({
            "knowledge": {"maxEntries": 10, "maxTokens": 2.5},
            "agents": {"system": ["my-helper"]},
            "autoSync": {"intervalDays": 0},
            "logging": {"level": "debug"},
            "constraints": {"enabled": false}
        });
        let (config, warnings) = merge(&user).unwrap();
        assert_eq!(config.max_entries, 10.0);
        assert_eq!(config.max_tokens, 500.0);
        assert!(config.is_system_agent(Some(&json!("my-helper"))));
        assert!(config.is_system_agent(Some(&json!("Plan"))));
        assert_eq!(config.level, Some(Level::Debug));
        assert!(!config.constraints_enabled);
        assert_eq!(
            warnings,
            [
                Fallback("Invalid intervalDays=0, using default 7".into()),
                Fallback("Invalid maxTokens=2.5, using default 500".into())
            ]
        );
        let (_, warnings) = merge(&json!({"knowledge": {"maxEntries": null}})).unwrap();
        assert_eq!(warnings, [Fallback("Invalid maxEntries=null, using default 100".into())]);
        assert_eq!(merge(&json!({"knowledge": {"maxEntries": 5.0}})).unwrap().0.max_entries, 5.0);
    }

    #[test]
    fn level_names_that_are_not_levels_silence_the_log() {
        assert_eq!(merge(&json!({"logging": {"level": "verbose"}})).unwrap().0.level, None);
        assert_eq!(merge(&json!({"logging": {"level": ""}})).unwrap().0.level, Some(Level::Info));
        assert_eq!(merge(&json!({"logging": {"level": ["warn"]}})).unwrap().0.level, Some(Level::Warn));
    }

    #[test]
    fn a_null_file_or_an_unspreadable_agent_list_throws() {
        assert!(merge(&json!(null)).is_err());
        assert!(merge(&json!({"agents": {"system": 5}})).is_err());
        let (config, _) = merge(&json!({"agents": {"system": "ab"}})).unwrap();
        assert!(config.is_system_agent(Some(&json!("a"))));
        assert!(merge(&json!([1, 2])).is_ok());
    }
}
