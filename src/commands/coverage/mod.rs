//! `hookmux log coverage [--session ID] [--since DAYS] [--transcript FILE] [--json]`: which of
//! the agent's tool calls no hook saw. The host's own transcript has every tool call
//! ([`crate::host::history`]); the trace has every call a dispatch saw. Side by side
//! ([`judge`]), each call either passed a PreToolUse hook, matched no group, or was not seen,
//! and then why: the event does not reach hookmux, the host sent nothing, or the host refused
//! the call before its hooks. Exit 1 when a call that a PreToolUse group would have matched was
//! not seen.
//!
//! hookmux's own transcript (of the hosts that keep none a hook can read) is written from the
//! events dispatch saw, so it cannot tell what no hook saw: a session with only that, or a
//! trace that is off or no longer reaches back to the session, is "unknown", never a count.

pub mod judge;
mod text;
pub(crate) mod wired;

use crate::engine::config::sources::Sources;
use crate::engine::select::plan::{self, PlanOptions};
use crate::engine::trace::{self, Record, Store, TraceMode};
use crate::host::history::{self, lines, Found, Reader, Want, READERS};
use crate::host::Host;
use hookmux_sdk::{Env, Event};
use judge::{Judged, Status, Summary, Trace};
use serde::Serialize;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

/// What `log coverage` was asked.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A session id, or the start of one.
    pub session: Option<String>,
    /// Sessions active this recently, instead of the latest one.
    pub since: Option<Duration>,
    /// A transcript file to read instead of looking for one.
    pub transcript: Option<PathBuf>,
    pub json: bool,
}

/// One session's coverage.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub host: String,
    pub session: String,
    #[serde(flatten)]
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "rfc3339")]
    pub started: Option<SystemTime>,
    /// The transcript files read, the main one first.
    pub transcripts: Vec<PathBuf>,
    /// Tool calls the transcript holds.
    pub transcript_calls: usize,
    /// Transcript lines or records that could not be read.
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped: usize,
    /// A bound stopped the reading: calls past it are not counted.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Whether a PreToolUse group would match was told by the settings as they are now, for
    /// want of a dispatch of the session that recorded its groups.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub groups_from_now: bool,
    /// The figures, when the session is covered or not routed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Judged>,
    /// The session ids its calls' hooks carry (a subagent's own, under some hosts).
    #[serde(skip)]
    pub hook_sessions: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn rfc3339<S: serde::Serializer>(time: &Option<SystemTime>, serializer: S) -> Result<S::Ok, S::Error> {
    match time {
        Some(time) => serializer.serialize_str(&humantime::format_rfc3339_millis(*time).to_string()),
        None => serializer.serialize_none(),
    }
}

impl Report {
    /// Calls a PreToolUse group would have matched that no dispatch saw.
    pub fn unguarded(&self) -> usize {
        self.summary.as_ref().map_or(0, |s| s.unguarded)
    }

    /// Whether the host ran none of the session's hooks though hookmux is installed for it.
    pub fn silent(&self) -> bool {
        matches!(self.status, Status::Silent(_))
    }
}

/// A host's sessions, added up.
#[derive(Clone, Debug, Serialize)]
pub struct HostTotal {
    pub host: String,
    pub sessions: usize,
    pub covered: usize,
    pub not_routed: usize,
    pub silent: usize,
    pub unknown: usize,
    pub summary: Summary,
}

/// `hookmux log coverage`.
pub fn run(options: &Options) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let (sources, root) = super::inspected_sources(&env, Vec::new());
    let trace = TraceState::read(&env, &sources);
    let items = match &options.transcript {
        Some(path) => from_file(&env, path, options.session.as_deref())?,
        None => wanted(&env, options, trace.records()),
    };
    let groups_now = |tool: &str| groups_now(&env, &sources, &root, tool);
    let wired = |host: Host| wired::since(host, &env, &root);
    let mut reports: Vec<Report> = items.into_iter().map(|item| report(item, &trace, &groups_now, &wired)).collect();
    // A session the trace has that is a subagent's of a session read (its own id, under some
    // hosts) is part of that one.
    let parts: Vec<String> =
        reports.iter().flat_map(|r| r.hook_sessions.iter().filter(|s| **s != r.session).cloned()).collect();
    reports.retain(|r| !(r.transcripts.is_empty() && parts.contains(&r.session)));
    let totals = totals(&reports);
    let unguarded: usize = reports.iter().map(Report::unguarded).sum();
    let silent = reports.iter().filter(|r| r.silent()).count();
    let mut out = anstream::stdout();
    if options.json {
        let json =
            serde_json::json!({ "sessions": reports, "hosts": totals, "unguarded": unguarded, "silent": silent });
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else if reports.is_empty() {
        writeln!(out, "{}", text::nothing(options))?;
    } else {
        text::write(&mut out, &reports, &totals, &super::render::Paths::new(hookmux_platform::dirs::home(&env)))?;
    }
    out.flush()?;
    Ok(if unguarded > 0 || silent > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The trace, as far as coverage can use it.
enum TraceState {
    /// Its lines, and whether older ones were rotated away.
    Records(Vec<Record>, bool),
    /// Why the trace cannot tell.
    Unavailable(String),
}

impl TraceState {
    fn read(env: &Env, sources: &Sources) -> TraceState {
        if trace::mode(env, sources) == TraceMode::Off {
            return TraceState::Unavailable(
                "the dispatch trace is off (HOOKMUX_TRACE=0, or `\"$hookmux\": {\"trace\": false}`)".to_string(),
            );
        }
        let Some(store) = Store::locate(env) else {
            return TraceState::Unavailable("there is no place for the trace (HOME is not set)".to_string());
        };
        if std::fs::symlink_metadata(&store.dir).is_ok() {
            if let Err(err) = hookmux_handlers::safe_fs::check_private_dir(&store.dir) {
                return TraceState::Unavailable(format!("the trace is not read: {err}"));
            }
        }
        let records = store.lines().iter().filter_map(|line| serde_json::from_str(line).ok()).collect();
        // Rotation moves the files along and drops only the oldest: while the last is not there,
        // nothing was dropped.
        let rotated_away = std::fs::symlink_metadata(store.file(trace::store::KEEP - 1)).is_ok();
        TraceState::Records(records, rotated_away)
    }

    fn records(&self) -> &[Record] {
        match self {
            TraceState::Records(records, _) => records,
            TraceState::Unavailable(_) => &[],
        }
    }
}

/// A session to report on.
enum Item {
    /// One a reader found.
    Read(&'static Reader, Found),
    /// One the trace has and no host transcript was found for.
    TraceOnly { host: String, session: String },
    /// hookmux's own transcript, named on the command line.
    Own { path: PathBuf, session: String },
}

/// The sessions the options ask for: by id, those active since a time, else the latest.
fn wanted(env: &Env, options: &Options, records: &[Record]) -> Vec<Item> {
    let since = options.since.map(|since| SystemTime::now().checked_sub(since).unwrap_or(SystemTime::UNIX_EPOCH));
    let want = match (&options.session, since) {
        (Some(id), _) => Want::Id(id),
        (None, Some(since)) => Want::Since(since),
        (None, None) => Want::Latest,
    };
    let mut found: Vec<(&'static Reader, Found)> =
        READERS.iter().flat_map(|reader| (reader.find)(env, want).into_iter().map(move |f| (reader, f))).collect();
    found.sort_by_key(|(_, f)| std::cmp::Reverse(f.modified));
    // Sessions the trace has that no reader found: hookmux saw them, their host's transcript is
    // not where hookmux looks (or hookmux reads none of this host's).
    let mut traced: Vec<(String, String, SystemTime)> = Vec::new();
    for record in records {
        let (Some(session), Ok(at)) = (&record.session, humantime::parse_rfc3339_weak(&record.time)) else { continue };
        match traced.iter_mut().find(|(_, s, _)| s == session) {
            Some(known) => known.2 = known.2.max(at),
            None => traced.push((record.host.clone(), session.clone(), at)),
        }
    }
    traced.retain(|(_, session, at)| {
        !found.iter().any(|(_, f)| f.id == *session)
            && match want {
                Want::Id(prefix) => session.starts_with(prefix),
                Want::Since(since) => *at >= since,
                Want::Latest => true,
            }
    });
    traced.sort_by_key(|t| std::cmp::Reverse(t.2));
    if let Want::Latest = want {
        found.truncate(1);
        let newest = found.first().map(|(_, f)| f.modified);
        match traced.first() {
            // The trace's latest session is newer than any transcript: look for it.
            Some((host, session, at)) if newest.is_none_or(|m| *at > m) => {
                return vec![latest_traced(env, host, session, found.pop())];
            }
            _ => traced.clear(),
        }
    }
    let mut items: Vec<Item> = found.into_iter().map(|(reader, found)| Item::Read(reader, found)).collect();
    items.extend(traced.into_iter().map(|(host, session, _)| Item::TraceOnly { host, session }));
    items.truncate(history::MAX_SESSIONS);
    items
}

/// The trace's latest session: the host's transcript of that id, else the newest transcript
/// when the session is one of its subagents' (a subagent has a session of its own under some
/// hosts), else a session only the trace knows.
fn latest_traced(env: &Env, host: &str, session: &str, newest: Option<(&'static Reader, Found)>) -> Item {
    if let Some(reader) = host_named(host).and_then(history::reader) {
        // By id: a subagent's session id finds the session it belongs to, where the host tells.
        let mut hits = (reader.find)(env, Want::Id(session));
        hits.sort_by_key(|f| f.id != session);
        if let Some(found) = hits.into_iter().next() {
            return Item::Read(reader, found);
        }
    }
    if let Some((reader, found)) = newest {
        if (reader.read)(&found).calls.iter().any(|c| c.hook_session.as_deref() == Some(session)) {
            return Item::Read(reader, found);
        }
    }
    Item::TraceOnly { host: host.to_string(), session: session.to_string() }
}

/// The sessions of a transcript file named on the command line.
fn from_file(env: &Env, path: &Path, session: Option<&str>) -> anyhow::Result<Vec<Item>> {
    // The file the user named, wherever a link they named leads: below it, nothing is followed.
    let path = &hookmux_platform::fs::canonicalize(path)
        .map_err(|err| anyhow::anyhow!("cannot read {}: {err}", path.display()))?;
    let head = lines::head(path, 64 * 1024).map_err(|err| anyhow::anyhow!("cannot read {}: {err}", path.display()))?;
    if let Some(own) = own_transcript(env, path, &head) {
        return Ok(vec![Item::Own { path: path.to_path_buf(), session: own }]);
    }
    for reader in READERS {
        let Some(mut found) = (reader.recognise)(path, &head) else { continue };
        found.retain(|f| session.is_none_or(|id| f.id.starts_with(id)));
        found.sort_by_key(|f| std::cmp::Reverse(f.modified));
        if session.is_none() {
            found.truncate(1);
        }
        return Ok(found.into_iter().map(|f| Item::Read(reader, f)).collect());
    }
    anyhow::bail!(
        "{} is not a transcript hookmux reads: it reads Claude Code's, Codex's, Gemini CLI's, Copilot CLI's and \
         OpenCode's (`hookmux log coverage` without --transcript finds them)",
        path.display()
    )
}

/// The session of hookmux's own transcript, when `path` is one: a file in hookmux's transcripts
/// folder, or lines of Claude Code's shape without the `uuid` every line of Claude Code's has.
fn own_transcript(env: &Env, path: &Path, head: &[u8]) -> Option<String> {
    let values: Vec<Value> =
        head.split(|&b| b == b'\n').filter_map(|line| serde_json::from_slice::<Value>(line).ok()).collect();
    let session = values.iter().find_map(|v| v.get("sessionId").and_then(Value::as_str)).map(str::to_string);
    let dir = hookmux_handlers::transcript::state_dir(env).map(|state| state.join("transcripts"));
    let in_dir = dir
        .and_then(|d| hookmux_platform::fs::canonicalize(d).ok())
        .is_some_and(|d| hookmux_platform::fs::canonicalize(path).is_ok_and(|p| p.starts_with(&d)));
    let shaped = !values.is_empty()
        && values.iter().all(|v| {
            v.get("uuid").is_none()
                && v.get("sessionId").is_some()
                && matches!(v.get("type").and_then(Value::as_str), Some("user" | "assistant"))
        });
    (in_dir || shaped).then(|| session.unwrap_or_default())
}

fn host_named(name: &str) -> Option<Host> {
    <Host as clap::ValueEnum>::from_str(name, false).ok()
}

/// Reads and judges one session.
fn report(
    item: Item,
    trace: &TraceState,
    groups_now: &dyn Fn(&str) -> Option<bool>,
    wired: &dyn Fn(Host) -> Option<SystemTime>,
) -> Report {
    let unknown = |host: String, session: String, why: String, transcripts: Vec<PathBuf>| Report {
        host,
        session,
        status: Status::Unknown(why),
        started: None,
        transcripts,
        transcript_calls: 0,
        skipped: 0,
        truncated: false,
        groups_from_now: false,
        summary: None,
        calls: Vec::new(),
        hook_sessions: Vec::new(),
    };
    let (reader, found) = match item {
        Item::Read(reader, found) => (reader, found),
        Item::TraceOnly { host, session } => {
            let why = match host_named(&host).and_then(history::reader) {
                Some(reader) => format!(
                    "no transcript of this session was found in {}; hookmux's own transcript holds only the events \
                     dispatch saw, so what no hook saw cannot be told",
                    reader.place
                ),
                None => format!("hookmux does not read {host}'s transcripts, and its own holds only what dispatch saw"),
            };
            return unknown(host, session, why, Vec::new());
        }
        Item::Own { path, session } => {
            let why = "this is hookmux's own transcript, written from the events dispatch saw: it cannot show what \
                       no hook saw; name the host's transcript instead"
                .to_string();
            return unknown("hookmux".to_string(), session, why, vec![path]);
        }
    };
    let session = (reader.read)(&found);
    let mut report = unknown(session.host.name().to_string(), session.id.clone(), String::new(), session.files.clone());
    report.started = session.started;
    report.hook_sessions = session.calls.iter().filter_map(|c| c.hook_session.clone()).collect();
    report.hook_sessions.sort();
    report.hook_sessions.dedup();
    report.transcript_calls = session.calls.len();
    report.skipped = session.skipped;
    report.truncated = session.truncated;
    let (records, rotated_away) = match trace {
        TraceState::Records(records, rotated_away) => (records, *rotated_away),
        TraceState::Unavailable(why) => {
            report.status = Status::Unknown(why.clone());
            return report;
        }
    };
    let judgement = judge::judge(&session, &Trace::new(records, rotated_away), groups_now, wired(session.host));
    report.status = judgement.status;
    if !matches!(report.status, Status::Unknown(_)) {
        report.summary = Some(Summary::of(&judgement.calls));
        report.groups_from_now = judgement.groups_from_now;
        report.calls = judgement.calls;
    }
    report
}

/// Whether a PreToolUse group of the settings as they are now (for the current project) would
/// match `tool`.
fn groups_now(env: &Env, sources: &Sources, root: &Path, tool: &str) -> Option<bool> {
    let event = Event::from_fields(serde_json::Map::from_iter([
        ("hook_event_name".to_string(), Value::from("PreToolUse")),
        ("tool_name".to_string(), Value::from(tool)),
    ]));
    let options = PlanOptions {
        project_root: root.to_path_buf(),
        home: hookmux_platform::dirs::home(env),
        session_end_budget: None,
    };
    let plan = plan::plan(&event, sources, &options);
    Some(plan.groups.iter().any(|g| g.verdict.is_match()))
}

/// Each host's sessions added up, in the order the hosts first appear.
fn totals(reports: &[Report]) -> Vec<HostTotal> {
    let mut totals: Vec<HostTotal> = Vec::new();
    for report in reports {
        let total = match totals.iter_mut().position(|t| t.host == report.host) {
            Some(at) => &mut totals[at],
            None => {
                totals.push(HostTotal {
                    host: report.host.clone(),
                    sessions: 0,
                    covered: 0,
                    not_routed: 0,
                    silent: 0,
                    unknown: 0,
                    summary: Summary::default(),
                });
                totals.last_mut().expect("just pushed")
            }
        };
        total.sessions += 1;
        match report.status {
            Status::Covered => total.covered += 1,
            Status::NotRouted => total.not_routed += 1,
            Status::Silent(_) => total.silent += 1,
            Status::Unknown(_) => total.unknown += 1,
        }
        if let Some(summary) = &report.summary {
            total.summary.add(summary);
        }
    }
    totals
}

/// How `doctor` shows a host's coverage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Ok,
    Info,
    Problem,
}

/// The days `doctor` looks back.
pub const DOCTOR_DAYS: u64 = 7;

/// The most sessions of one host `doctor` reads.
const DOCTOR_SESSIONS: usize = 10;

/// The coverage of each host's recent sessions, one line per host that has some, for `doctor`.
pub fn recent(env: &Env, sources: &Sources, root: &Path) -> Vec<(Level, String)> {
    let trace = TraceState::read(env, sources);
    let since =
        SystemTime::now().checked_sub(Duration::from_secs(DOCTOR_DAYS * 86_400)).unwrap_or(SystemTime::UNIX_EPOCH);
    let groups_now = |tool: &str| groups_now(env, sources, root, tool);
    let wired = |host: Host| wired::since(host, env, root);
    let mut lines = Vec::new();
    for reader in READERS {
        let mut found = (reader.find)(env, Want::Since(since));
        found.truncate(DOCTOR_SESSIONS);
        if found.is_empty() {
            continue;
        }
        let reports: Vec<Report> =
            found.into_iter().map(|f| report(Item::Read(reader, f), &trace, &groups_now, &wired)).collect();
        lines.push(text::doctor_line(reader.host, &reports));
    }
    lines
}
