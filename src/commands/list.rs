//! `hookmux hooks list`: the effective hooks per event after merging every source.

use super::render::*;
use crate::engine::config::sources::Sources;
use crate::engine::select::listing::{self, Listing};
use crate::engine::verdict::seconds;
use hookmux_sdk::Env;
use serde_json::{json, Value};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `hookmux hooks list [--settings PATH]… [--json]`.
pub fn run(settings: Vec<PathBuf>, as_json: bool) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let (sources, _) = super::inspected_sources(&env, settings);
    let listing = listing::list(&sources);
    if as_json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&json(&sources, &listing))?)?;
    } else {
        text(&mut anstream::stdout(), &sources, &listing, &Paths::new(hookmux_platform::dirs::home(&env)))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The listing, as text.
fn text(out: &mut impl Write, sources: &Sources, listing: &Listing<'_>, paths: &Paths) -> io::Result<()> {
    writeln!(out, "{BOLD}Sources{BOLD:#}")?;
    sources_table(sources, paths).write(out, "  ")?;
    if let Some(line) = gate_line(&listing.gate) {
        writeln!(out, "  {YELLOW}{line}{YELLOW:#}")?;
    }
    if listing.events.is_empty() {
        writeln!(out, "\n{DIM}No hooks.{DIM:#}")?;
    }
    for (event, entries) in &listing.events {
        writeln!(out, "\n{BOLD}{event}{BOLD:#}")?;
        let mut table = Table::new();
        for entry in entries {
            let matchers: Vec<String> = entry.matchers.iter().map(|m| m.unwrap_or("*").to_string()).collect();
            let mut deduped: Vec<String> = Vec::new();
            for m in matchers {
                if !deduped.contains(&m) {
                    deduped.push(m);
                }
            }
            table.row(vec![
                plain(deduped.join(" / ")),
                plain(short(&label(&entry.origin, Some(paths)))),
                plain(seconds(entry.timeout)),
                styled(origin_text(&entry.origin, paths), DIM),
            ]);
            for duplicate in &entry.duplicates {
                table.note(1, format!("also defined in {}: runs once", origin_text(duplicate, paths)), DIM);
            }
            if let Some(off) = &entry.off {
                table.note(1, format!("off: {off}"), YELLOW);
            }
        }
        table.write(out, "  ")?;
    }
    Ok(())
}

/// The listing, as JSON (the documented schema).
fn json(sources: &Sources, listing: &Listing<'_>) -> Value {
    let events: serde_json::Map<String, Value> = listing
        .events
        .iter()
        .map(|(event, entries)| {
            let list: Vec<Value> = entries
                .iter()
                .map(|e| {
                    json!({
                        "type": e.origin.spec.kind.type_name(), "command": e.origin.spec.kind.label(),
                        "expanded": label(&e.origin, None),
                        "matchers": e.matchers, "timeout_s": e.timeout.as_secs_f64(), "if": e.origin.spec.if_rule,
                        "origin": origin_json(&e.origin),
                        "duplicates": e.duplicates.iter().map(origin_json).collect::<Vec<_>>(),
                        "off": e.off,
                    })
                })
                .collect();
            (event.as_str().to_string(), Value::Array(list))
        })
        .collect();
    json!({"sources": sources.files.iter().map(state_json).collect::<Vec<_>>(), "gate": gate_json(&listing.gate), "events": events})
}
