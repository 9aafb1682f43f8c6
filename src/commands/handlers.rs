//! `hookmux handlers [--json] [NAME]`: the built-in handlers, or one with its options and a
//! settings snippet.

use hookmux_sdk::Registry;
use serde_json::{json, Value};
use std::io::Write;
use std::process::ExitCode;

pub fn run(name: Option<&str>, as_json: bool) -> anyhow::Result<ExitCode> {
    let registry = Registry::global().map_err(|err| anyhow::anyhow!("{err}"))?;
    let selected: Vec<_> = match name {
        Some(name) => match registry.registration(name) {
            Some(registration) => vec![registration],
            None => {
                let known = registry.names().collect::<Vec<_>>().join(", ");
                anyhow::bail!("no handler named `{name}`; the handlers are: {known}");
            }
        },
        None => registry.iter().collect(),
    };
    let mut out = std::io::stdout().lock();
    if as_json {
        let list: Vec<Value> = selected.iter().map(|r| handler_json(r)).collect();
        let value = if name.is_some() { list.into_iter().next().unwrap_or(Value::Null) } else { Value::Array(list) };
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if name.is_some() {
        for registration in &selected {
            write_handler_details(&mut out, registration)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<[String; 4]> = selected
        .iter()
        .map(|r| {
            let info = r.handler.info();
            let events = info.events.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(",");
            [info.name.to_string(), events, info.matcher.unwrap_or("*").to_string(), info.description.to_string()]
        })
        .collect();
    let header = ["NAME", "EVENTS", "MATCHER", "DESCRIPTION"].map(str::to_string);
    let widths: Vec<usize> =
        (0..3).map(|i| rows.iter().chain([&header]).map(|row| row[i].chars().count()).max().unwrap_or(0)).collect();
    for row in std::iter::once(&header).chain(&rows) {
        writeln!(
            out,
            "{:w0$}  {:w1$}  {:w2$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        )?;
    }
    writeln!(out, "\n`hookmux handlers NAME` shows a handler's options and a settings snippet.")?;
    Ok(ExitCode::SUCCESS)
}

fn handler_json(registration: &hookmux_sdk::Registration) -> Value {
    let info = registration.handler.info();
    json!({
        "name": info.name,
        "description": info.description,
        "events": info.events.iter().map(|e| e.as_str()).collect::<Vec<_>>(),
        "matcher": info.matcher,
        "options": info.options.iter().map(|o| json!({
            "name": o.name,
            "type": o.kind.as_str(),
            "default": o.default,
            "help": o.help,
        })).collect::<Vec<_>>(),
        "snippet": settings_snippet(info),
        "registered_at": format!("{}:{}", registration.location.file, registration.location.line),
    })
}

/// A settings fragment that wires the handler for each of its events.
pub fn settings_snippet(info: &hookmux_sdk::HandlerInfo) -> Value {
    let mut hooks = serde_json::Map::new();
    for event in info.events {
        let mut group = serde_json::Map::new();
        if let Some(matcher) = info.matcher {
            group.insert("matcher".into(), matcher.into());
        }
        group.insert("hooks".into(), json!([{"type": "command", "command": format!("hookmux run {}", info.name)}]));
        hooks.insert(event.as_str().into(), json!([group]));
    }
    json!({ "hooks": hooks })
}

fn write_handler_details(out: &mut impl Write, registration: &hookmux_sdk::Registration) -> std::io::Result<()> {
    let info = registration.handler.info();
    writeln!(out, "{}: {}", info.name, info.description)?;
    let events = info.events.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", ");
    writeln!(out, "  events:  {events}")?;
    writeln!(out, "  matcher: {}", info.matcher.unwrap_or("* (any)"))?;
    if info.options.is_empty() {
        writeln!(out, "  options: none")?;
    } else {
        writeln!(out, "  options:")?;
        let labels: Vec<String> = info
            .options
            .iter()
            .map(|o| match o.kind {
                hookmux_sdk::OptionKind::Flag => format!("--{}", o.name),
                kind => format!("--{} <{}>", o.name, kind.as_str()),
            })
            .collect();
        let width = labels.iter().map(String::len).max().unwrap_or(0);
        for (option, label) in info.options.iter().zip(&labels) {
            let default = option.default.map(|d| format!(" (default: {d})")).unwrap_or_default();
            let repeat = if option.kind == hookmux_sdk::OptionKind::List { " (repeatable)" } else { "" };
            writeln!(out, "    {label:width$}  {}{repeat}{default}", option.help)?;
        }
    }
    writeln!(out, "\nIn settings.json:")?;
    let snippet = serde_json::to_string_pretty(&settings_snippet(info)).unwrap_or_default();
    for line in snippet.lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}
