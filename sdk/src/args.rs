//! A handler's command-line arguments, parsed against its declared options.

use crate::{HandlerInfo, OptionKind, OptionSpec};
use std::collections::BTreeMap;

/// The parsed arguments of one handler invocation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Args {
    given: BTreeMap<&'static str, Vec<String>>,
    specs: &'static [OptionSpec],
}

/// Why arguments could not be parsed. The message names the option and the handler.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    #[error("`{handler}` has no option `{arg}`{hint}")]
    Unknown { handler: &'static str, arg: String, hint: String },
    #[error("`{handler}`: option `--{option}` needs a value")]
    MissingValue { handler: &'static str, option: &'static str },
    #[error("`{handler}`: option `--{option}` is a flag and takes no value (got `{value}`)")]
    UnexpectedValue { handler: &'static str, option: &'static str, value: String },
    #[error("`{handler}`: option `--{option}` wants a whole number, got `{value}`")]
    NotAnInteger { handler: &'static str, option: &'static str, value: String },
    #[error("`{handler}`: option `--{option}` is given more than once")]
    Repeated { handler: &'static str, option: &'static str },
}

impl Args {
    /// Parses `--name`, `--name VALUE` and `--name=VALUE` words against `info.options`.
    pub fn parse<S: AsRef<str>>(info: &'static HandlerInfo, argv: &[S]) -> Result<Args, ArgsError> {
        let mut given: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
        let mut words = argv.iter().map(AsRef::as_ref);
        while let Some(word) = words.next() {
            let Some(body) = word.strip_prefix("--") else {
                return Err(unknown(info, word));
            };
            let (name, inline) = match body.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (body, None),
            };
            let Some(spec) = info.option(name) else {
                return Err(unknown(info, word));
            };
            let value = match spec.kind {
                OptionKind::Flag => {
                    if let Some(value) = inline {
                        return Err(ArgsError::UnexpectedValue { handler: info.name, option: spec.name, value });
                    }
                    String::new()
                }
                _ => match inline.or_else(|| words.next().map(str::to_string)) {
                    Some(value) => value,
                    None => return Err(ArgsError::MissingValue { handler: info.name, option: spec.name }),
                },
            };
            if spec.kind == OptionKind::Integer && value.parse::<i64>().is_err() {
                return Err(ArgsError::NotAnInteger { handler: info.name, option: spec.name, value });
            }
            let values = given.entry(spec.name).or_default();
            if spec.kind != OptionKind::List && !values.is_empty() {
                return Err(ArgsError::Repeated { handler: info.name, option: spec.name });
            }
            values.push(value);
        }
        Ok(Args { given, specs: info.options })
    }

    /// Whether the flag was given.
    pub fn flag(&self, name: &str) -> bool {
        self.given.contains_key(name)
    }

    /// The value of a string option, else its declared default.
    pub fn value(&self, name: &str) -> Option<&str> {
        match self.given.get(name).and_then(|values| values.last()) {
            Some(value) => Some(value),
            None => self.default(name),
        }
    }

    /// The value of an integer option, else its declared default.
    pub fn integer(&self, name: &str) -> Option<i64> {
        self.value(name).and_then(|value| value.parse().ok())
    }

    /// Every value given for a list option, in order; empty when none was given.
    pub fn values(&self, name: &str) -> &[String] {
        self.given.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    fn default(&self, name: &str) -> Option<&'static str> {
        self.specs.iter().find(|spec| spec.name == name).and_then(|spec| spec.default)
    }
}

fn unknown(info: &'static HandlerInfo, arg: &str) -> ArgsError {
    let known: Vec<String> = info.options.iter().map(|o| format!("--{}", o.name)).collect();
    let hint = if known.is_empty() {
        "; it takes no options".to_string()
    } else {
        format!("; its options are {}", known.join(", "))
    };
    ArgsError::Unknown { handler: info.name, arg: arg.to_string(), hint }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HookEvent;

    static INFO: HandlerInfo = HandlerInfo {
        name: "demo",
        description: "demo",
        events: &[HookEvent::PreToolUse],
        matcher: None,
        options: &[
            OptionSpec { name: "loud", kind: OptionKind::Flag, default: None, help: "" },
            OptionSpec { name: "mode", kind: OptionKind::String, default: Some("soft"), help: "" },
            OptionSpec { name: "limit", kind: OptionKind::Integer, default: Some("3"), help: "" },
            OptionSpec { name: "deny", kind: OptionKind::List, default: None, help: "" },
        ],
    };

    #[test]
    fn parses_every_kind() {
        let args = Args::parse(&INFO, &["--loud", "--mode=hard", "--deny", "a", "--deny=b", "--limit", "7"]).unwrap();
        assert!(args.flag("loud"));
        assert_eq!(args.value("mode"), Some("hard"));
        assert_eq!(args.integer("limit"), Some(7));
        assert_eq!(args.values("deny"), ["a", "b"]);
    }

    #[test]
    fn defaults_apply_when_absent() {
        let args = Args::parse::<&str>(&INFO, &[]).unwrap();
        assert!(!args.flag("loud"));
        assert_eq!(args.value("mode"), Some("soft"));
        assert_eq!(args.integer("limit"), Some(3));
        assert!(args.values("deny").is_empty());
    }

    #[test]
    fn errors_name_the_option() {
        let err = Args::parse(&INFO, &["--nope"]).unwrap_err();
        assert_eq!(err.to_string(), "`demo` has no option `--nope`; its options are --loud, --mode, --limit, --deny");
        assert!(matches!(Args::parse(&INFO, &["positional"]), Err(ArgsError::Unknown { .. })));
        assert!(matches!(Args::parse(&INFO, &["--mode"]), Err(ArgsError::MissingValue { option: "mode", .. })));
        assert!(matches!(Args::parse(&INFO, &["--loud=yes"]), Err(ArgsError::UnexpectedValue { .. })));
        assert!(matches!(Args::parse(&INFO, &["--limit", "x"]), Err(ArgsError::NotAnInteger { .. })));
        assert!(matches!(Args::parse(&INFO, &["--mode", "a", "--mode", "b"]), Err(ArgsError::Repeated { .. })));
    }
}
