//! `log coverage` for people, and `doctor`'s line per host.

use super::judge::{Judged, Seen, Status, Summary};
use super::{HostTotal, Level, Options, Report};
use crate::commands::render::*;
use crate::host::Host;
use std::io::{self, Write};

/// The most calls listed by name per session; `--json` has them all.
const LISTED: usize = 25;

/// What `log coverage` says when it finds no session.
pub fn nothing(options: &Options) -> String {
    let places: Vec<&str> = crate::host::history::READERS.iter().map(|r| r.place).collect();
    match (&options.session, options.since) {
        (Some(id), _) => format!("No session `{}` found in the hosts' transcripts or the trace.", shown(id)),
        (None, Some(_)) => "No session that recent in the hosts' transcripts or the trace.".to_string(),
        (None, None) => format!("No session found: hookmux looked in {} and the trace.", places.join(", ")),
    }
}

pub fn write(out: &mut impl Write, reports: &[Report], totals: &[HostTotal], paths: &Paths) -> io::Result<()> {
    for (n, report) in reports.iter().enumerate() {
        if n > 0 {
            writeln!(out)?;
        }
        session(out, report, paths)?;
    }
    if reports.len() > 1 {
        writeln!(out)?;
        for total in totals {
            let sessions = count(total.sessions, "session");
            let mut line = format!("{BOLD}{}{BOLD:#} {DIM}· {sessions}{DIM:#}", label(&total.host));
            if total.covered > 0 || total.not_routed > 0 || total.silent > 0 {
                line.push_str(&format!(": {}", sentence(&total.summary)));
            }
            if total.unknown > 0 {
                line.push_str(&format!("; {} unknown", count(total.unknown, "session")));
            }
            writeln!(out, "{line}")?;
        }
    }
    let unguarded: usize = reports.iter().map(Report::unguarded).sum();
    if unguarded > 0 {
        writeln!(
            out,
            "\n{RED}{} that a PreToolUse group would have matched no hook saw{RED:#}",
            if unguarded == 1 { "1 tool call".to_string() } else { format!("{unguarded} tool calls") }
        )?;
    }
    let silent = reports.iter().filter(|r| r.silent()).count();
    if silent > 0 {
        writeln!(
            out,
            "\n{RED}{} whose host ran no hook though hookmux is installed for it{RED:#}",
            count(silent, "session")
        )?;
    }
    Ok(())
}

fn session(out: &mut impl Write, report: &Report, paths: &Paths) -> io::Result<()> {
    let when = report
        .started
        .map(|t| {
            let text = humantime::format_rfc3339_seconds(t).to_string();
            format!(" · {} UTC", text.get(..16).unwrap_or(&text).replacen('T', " ", 1))
        })
        .unwrap_or_default();
    writeln!(out, "{BOLD}{} session {}{BOLD:#}{DIM}{when}{DIM:#}", label(&report.host), shown(&report.session))?;
    if let Some(main) = report.transcripts.first() {
        let more = match report.transcripts.len() {
            1 => String::new(),
            n => format!(" and {}", count(n - 1, "subagent transcript")),
        };
        writeln!(out, "  {DIM}{}{more}{DIM:#}", shown(&paths.show(main)))?;
    }
    if report.skipped > 0 || report.truncated {
        let mut note = String::new();
        if report.skipped > 0 {
            note.push_str(&format!(
                "{} of the transcript could not be read and was skipped",
                count(report.skipped, "line")
            ));
        }
        if report.truncated {
            if !note.is_empty() {
                note.push_str("; ");
            }
            note.push_str("the transcript is past what hookmux reads: later calls are not counted");
        }
        writeln!(out, "  {YELLOW}{note}{YELLOW:#}")?;
    }
    let summary = match (&report.status, &report.summary) {
        (Status::Unknown(why), _) => {
            let calls = count(report.transcript_calls, "tool call");
            return writeln!(out, "  {YELLOW}coverage unknown{YELLOW:#} ({calls} in the transcript): {why}");
        }
        (_, None) => return Ok(()),
        (_, Some(summary)) => summary,
    };
    if let Status::Silent(why) = &report.status {
        writeln!(out, "  {RED}none of this session's events reached hookmux{RED:#}: {why}")?;
    }
    if report.status == Status::NotRouted {
        writeln!(
            out,
            "  {YELLOW}none of this session's events reached hookmux{YELLOW:#}: its hooks do not go through \
             `hookmux dispatch` (`hookmux doctor` shows what is wired)"
        )?;
    }
    writeln!(out, "  {}", sentence(summary))?;
    if summary.calls > 0 {
        writeln!(
            out,
            "  {DIM}PostToolUse: {} passed a hook, {} matched no group, {} not seen{DIM:#}",
            summary.post_hooked, summary.post_no_group, summary.post_not_seen
        )?;
    }
    if summary.subagent_calls > 0 {
        writeln!(
            out,
            "  {DIM}subagents: {}, {} of them not seen{DIM:#}",
            count(summary.subagent_calls, "call"),
            summary.subagent_not_seen
        )?;
    }
    if summary.before_trace > 0 {
        writeln!(
            out,
            "  {DIM}{} made before the oldest dispatch the trace still holds are not counted{DIM:#}",
            count(summary.before_trace, "call")
        )?;
    }
    let missed: Vec<&Judged> = report.calls.iter().filter(|c| c.pre.missed()).collect();
    if missed.is_empty() {
        return Ok(());
    }
    writeln!(out, "  {BOLD}Not seen by a PreToolUse dispatch{BOLD:#}")?;
    let mut table = Table::new();
    for call in missed.iter().take(LISTED) {
        let tool = if call.tool == call.host_tool {
            shown(&call.tool)
        } else {
            format!("{} ({})", shown(&call.tool), shown(&call.host_tool))
        };
        let agent =
            call.agent.as_deref().map_or_else(|| "main agent".to_string(), |a| format!("subagent {}", shown(a)));
        let (why, style) = why(call);
        table.row(vec![
            plain(short(&tool, 40)),
            styled(short(&call.id, 40), DIM),
            plain(short(&agent, 32)),
            styled(why, style),
        ]);
    }
    table.write(out, "    ")?;
    if missed.len() > LISTED {
        writeln!(out, "    {DIM}… and {} more (`--json` lists every call){DIM:#}", missed.len() - LISTED)?;
    }
    if report.groups_from_now {
        writeln!(
            out,
            "  {DIM}(no PreToolUse dispatch of this session recorded its groups: whether one would match is told by \
             the settings as they are now, in this folder){DIM:#}"
        )?;
    }
    Ok(())
}

fn why(call: &Judged) -> (String, anstyle::Style) {
    let would = match call.would_match {
        Some(true) => ": a PreToolUse group would have matched it",
        Some(false) => "; no PreToolUse group would have matched it",
        None => "",
    };
    let style = if call.unguarded { RED } else { YELLOW };
    let reason = match call.pre {
        Seen::NotRouted => "PreToolUse does not reach hookmux in this session",
        Seen::HostSentNothing => "the host sent no PreToolUse for it",
        Seen::Refused => return ("refused by the host before its hooks: it did not run".to_string(), DIM),
        _ => "",
    };
    (format!("{reason}{would}"), style)
}

/// `412 of 418 tool calls passed a PreToolUse hook; 4 matched no group; 2 were not seen (2 in subagents)`.
pub fn sentence(s: &Summary) -> String {
    let mut text = format!("{} of {} passed a PreToolUse hook", s.pre_hooked, count(s.calls, "tool call"));
    if s.pre_no_group > 0 {
        text.push_str(&format!("; {} matched no group", s.pre_no_group));
    }
    let not_seen = s.not_seen();
    if not_seen > 0 {
        let mut why = Vec::new();
        if s.subagent_not_seen > 0 {
            why.push(format!("{} in subagents", s.subagent_not_seen));
        }
        if s.pre_refused > 0 {
            why.push(format!("{} refused by the host before its hooks", s.pre_refused));
        }
        if s.pre_not_routed > 0 {
            why.push(format!("{} where PreToolUse does not reach hookmux", s.pre_not_routed));
        }
        let verb = if not_seen == 1 { "was" } else { "were" };
        text.push_str(&format!("; {not_seen} {verb} not seen"));
        if !why.is_empty() {
            text.push_str(&format!(" ({})", why.join(", ")));
        }
    }
    text
}

/// `doctor`'s line for one host.
pub fn doctor_line(host: Host, reports: &[Report]) -> (Level, String) {
    let days = super::DOCTOR_DAYS;
    let mut summary = Summary::default();
    let (mut judged, mut unknown, mut not_routed, mut silent) = (0, Vec::new(), 0, 0);
    for report in reports {
        match &report.status {
            Status::Unknown(why) => unknown.push(why.clone()),
            Status::NotRouted => not_routed += 1,
            Status::Silent(_) => silent += 1,
            Status::Covered => judged += 1,
        }
        if let (Status::Covered, Some(s)) = (&report.status, &report.summary) {
            summary.add(s);
        }
    }
    let name = label(host.name());
    let sessions = count(reports.len(), "session");
    if silent > 0 {
        return (
            Level::Problem,
            format!(
                "{name}, last {days} days ({sessions}): {} ran no hook though hookmux is installed for it \
                 (`hookmux log coverage --since {days}`)",
                count(silent, "session")
            ),
        );
    }
    if judged == 0 && not_routed == 0 {
        let why = unknown.first().cloned().unwrap_or_default();
        return (Level::Info, format!("{name}: coverage of the last {days} days ({sessions}) unknown: {why}"));
    }
    if judged == 0 {
        return (
            Level::Info,
            format!(
                "{name}, last {days} days ({sessions}): no event reached hookmux; its hooks do not go through \
                 `hookmux dispatch`"
            ),
        );
    }
    let mut message = format!("{name}, last {days} days ({sessions}): {}", sentence(&summary));
    if not_routed > 0 {
        message.push_str(&format!("; {} had no event through hookmux", count(not_routed, "more session")));
    }
    if summary.unguarded > 0 {
        message.push_str(&format!(
            "; {} a PreToolUse group would have matched (`hookmux log coverage --since {days}`)",
            if summary.unguarded == 1 { "1 was one".to_string() } else { format!("{} were ones", summary.unguarded) }
        ));
        return (Level::Problem, message);
    }
    (if not_routed > 0 || !unknown.is_empty() { Level::Info } else { Level::Ok }, message)
}

/// The host's name for people.
fn label(host: &str) -> String {
    let name = match <Host as clap::ValueEnum>::from_str(host, false) {
        Ok(Host::Claude) => "Claude Code",
        Ok(Host::Codex) => "Codex",
        Ok(Host::Gemini) => "Gemini CLI",
        Ok(Host::Copilot) => "Copilot CLI",
        Ok(Host::Opencode) => "OpenCode",
        Ok(Host::Cline) => "Cline",
        Ok(Host::Qwen) => "Qwen Code",
        Err(_) => host,
    };
    shown(name)
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Text from a transcript (a tool's name, an id: the model chose them) with its control
/// characters written out, so that nothing in it can drive the terminal.
fn shown(text: &str) -> String {
    text.chars().flat_map(|c| if c.is_control() { c.escape_unicode().collect::<Vec<_>>() } else { vec![c] }).collect()
}

fn short(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width - 1).collect();
    format!("{kept}…")
}
