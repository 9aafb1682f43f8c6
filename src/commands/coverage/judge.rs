//! Puts one session's tool calls beside the dispatches the trace holds, and tells for each call
//! whether a PreToolUse and a PostToolUse dispatch saw it, and when none did, why. Pure: the
//! session, the trace's records and the settings are read by the caller.

use crate::engine::select::matcher;
use crate::engine::trace::record::GroupTrace;
use crate::engine::trace::Record;
use crate::host::history::{Call, Session};
use hookmux_sdk::HookEvent;
use serde::Serialize;
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::SystemTime;

/// How one call fared at one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Seen {
    /// A dispatch saw it and a group matched it: its hooks ran.
    Hooked,
    /// A dispatch saw it, and no group matched the tool.
    NoGroup,
    /// No dispatch of this session had this event: the event does not reach hookmux.
    NotRouted,
    /// Other calls of the session reached hookmux at this event, this one did not: the host sent
    /// nothing for it.
    HostSentNothing,
    /// The host refused the call before its hooks (an unknown tool, input that does not fit):
    /// it did not run.
    Refused,
    /// Made before the oldest line the trace still holds: not judged.
    BeforeTrace,
}

impl Seen {
    /// Whether a dispatch saw the call.
    pub fn seen(self) -> bool {
        matches!(self, Seen::Hooked | Seen::NoGroup)
    }

    /// Whether no dispatch saw a call that was judged.
    pub fn missed(self) -> bool {
        matches!(self, Seen::NotRouted | Seen::HostSentNothing | Seen::Refused)
    }
}

/// One call and how it fared.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    pub id: String,
    /// The Claude name hooks match.
    pub tool: String,
    /// The name the host gave the model.
    pub host_tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    pub pre: Seen,
    pub post: Seen,
    /// For a call no PreToolUse dispatch saw: whether a PreToolUse group would have matched it
    /// (`None`: cannot be told).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub would_match: Option<bool>,
    /// A call a PreToolUse group would have matched that no dispatch saw, though the host could
    /// have sent it, in a session hookmux saw other events of: what `log coverage` exits 1 for.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unguarded: bool,
}

/// How far the session's coverage can be told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", content = "why", rename_all = "kebab-case")]
pub enum Status {
    /// Some event of the session reached hookmux: every call is judged.
    Covered,
    /// The trace reaches back to the session, and holds no dispatch of it: none of its events
    /// went through hookmux.
    NotRouted,
    /// As `NotRouted`, though hookmux was installed for the host before the session began: the
    /// host ran none of its hooks (an update, a setting that turns hooks off). Why, for people.
    Silent(String),
    /// The calls cannot be judged, for the reason given.
    Unknown(String),
}

/// What the trace holds, for judging sessions.
pub struct Trace<'r> {
    records: Vec<&'r Record>,
    /// The time of the oldest line still held, when older lines were rotated away: a call
    /// before it may have been seen by a dispatch the trace no longer has.
    pub oldest: Option<SystemTime>,
    /// Whether the trace holds any line.
    pub empty: bool,
}

impl<'r> Trace<'r> {
    /// `records`, oldest first; `rotated_away` when the trace has dropped older lines.
    pub fn new(records: &'r [Record], rotated_away: bool) -> Trace<'r> {
        let oldest = rotated_away
            .then(|| records.iter().filter_map(|r| humantime::parse_rfc3339_weak(&r.time).ok()).min())
            .flatten();
        Trace { records: records.iter().collect(), oldest, empty: records.is_empty() }
    }

    /// The records of the sessions whose ids are in `sessions`, in the trace's order.
    fn of(&self, sessions: &HashSet<&str>) -> Vec<&'r Record> {
        self.records.iter().copied().filter(|r| r.session.as_deref().is_some_and(|s| sessions.contains(s))).collect()
    }
}

/// A session's calls, judged.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub status: Status,
    pub calls: Vec<Judged>,
    /// Whether the PreToolUse groups came from the settings as they are now (the session had no
    /// PreToolUse dispatch whose groups tell).
    pub groups_from_now: bool,
}

/// Judges `session` against `trace`. `groups_now` says, for a tool, whether a PreToolUse group
/// of the settings as they are now would match it; it is asked only when no PreToolUse dispatch
/// of the session recorded its groups. `wired` is when hookmux's entries for the session's host
/// were written, when they are there ([`super::wired::since`]).
pub fn judge(
    session: &Session,
    trace: &Trace<'_>,
    groups_now: &dyn Fn(&str) -> Option<bool>,
    wired: Option<SystemTime>,
) -> Judgement {
    let mut sessions: HashSet<&str> = session.calls.iter().filter_map(|c| c.hook_session.as_deref()).collect();
    sessions.insert(&session.id);
    let records = trace.of(&sessions);
    let before = |call: &Call| matches!((call.time, trace.oldest), (Some(at), Some(oldest)) if at < oldest);
    let routed = |event: HookEvent| records.iter().any(|r| is_event(r, event));
    let mut index = Index::new(&records);
    let groups =
        records.iter().rev().find(|r| is_event(r, HookEvent::PreToolUse) && (!r.groups.is_empty() || r.gate.is_some()));
    let mut calls = Vec::with_capacity(session.calls.len());
    for call in &session.calls {
        let pre_record = index.take(call, HookEvent::PreToolUse);
        let post_record = index.take(call, HookEvent::PostToolUse);
        let pre = match (pre_record, before(call)) {
            (Some(record), _) => seen(record),
            (None, true) => Seen::BeforeTrace,
            (None, false) if call.refused => Seen::Refused,
            (None, false) if !routed(HookEvent::PreToolUse) => Seen::NotRouted,
            (None, false) => Seen::HostSentNothing,
        };
        let post = match (post_record, before(call)) {
            (Some(record), _) => seen(record),
            (None, true) => Seen::BeforeTrace,
            (None, false) if call.refused => Seen::Refused,
            (None, false) if !routed(HookEvent::PostToolUse) => Seen::NotRouted,
            (None, false) => Seen::HostSentNothing,
        };
        let would_match = pre.missed().then(|| match groups {
            Some(record) => Some(would_match(record, &call.tools)),
            None => call.tools.iter().map(|tool| groups_now(tool)).try_fold(false, |any, one| one.map(|m| any || m)),
        });
        calls.push(Judged {
            id: call.id.clone(),
            tool: pre_record.or(post_record).and_then(|r| r.tool.clone()).unwrap_or_else(|| call.tool().to_string()),
            host_tool: call.host_tool.clone(),
            agent: call.agent.clone(),
            pre,
            post,
            would_match: would_match.flatten(),
            unguarded: false,
        });
    }
    let status = if trace.empty {
        Status::Unknown("the trace holds no dispatch".to_string())
    } else if !calls.is_empty() && calls.iter().all(|c| c.pre == Seen::BeforeTrace) {
        Status::Unknown(
            "the session is older than the oldest dispatch the trace still holds (rotated away)".to_string(),
        )
    } else if records.is_empty() {
        silent(session, &calls, wired).map_or(Status::NotRouted, Status::Silent)
    } else {
        Status::Covered
    };
    // A session none of whose events reached hookmux, with hookmux not installed for its host,
    // is not wired to it: told, not a gap within what hookmux guards (`doctor` shows the wiring).
    if matches!(status, Status::Covered | Status::Silent(_)) {
        for call in &mut calls {
            call.unguarded =
                matches!(call.pre, Seen::NotRouted | Seen::HostSentNothing) && call.would_match == Some(true);
        }
    }
    Judgement { status, calls, groups_from_now: groups.is_none() }
}

/// Why a session none of whose events reached hookmux is a host that stopped running its hooks:
/// hookmux was installed for it before the session began, and the host ran tools.
fn silent(session: &Session, calls: &[Judged], wired: Option<SystemTime>) -> Option<String> {
    let (wired, started) = (wired?, session.started?);
    let ran = calls.iter().filter(|c| c.pre == Seen::NotRouted).count();
    if started < wired || ran == 0 {
        return None;
    }
    let when = humantime::format_rfc3339_seconds(wired);
    Some(format!(
        "hookmux is installed for {} (its entries date from {when}), yet none of this session's {ran} tool call{} \
         nor any other event reached it: the host ran no hook (an update, a setting that turns hooks off); \
         `hookmux doctor` checks the wiring",
        session.host.name(),
        if ran == 1 { "" } else { "s" }
    ))
}

fn is_event(record: &Record, event: HookEvent) -> bool {
    let name = record.event.as_deref();
    match event {
        HookEvent::PostToolUse => matches!(name, Some("PostToolUse" | "PostToolUseFailure")),
        other => name == Some(other.as_str()),
    }
}

fn seen(record: &Record) -> Seen {
    if record.groups.iter().any(|g| g.matched) {
        Seen::Hooked
    } else {
        Seen::NoGroup
    }
}

/// Whether one of the groups a dispatch recorded matches one of `tools`.
fn would_match(record: &Record, tools: &[String]) -> bool {
    record.gate.is_none()
        && tools.iter().any(|tool| {
            record.groups.iter().any(|group: &GroupTrace| {
                matcher::group_verdict(group.matcher.as_deref(), HookEvent::PreToolUse, Some(tool)).is_match()
            })
        })
}

/// The session's dispatches, found by the call they were for: by `tool_use_id`, else (a host
/// that sends none) the next unclaimed dispatch of the call's session and tool.
struct Index<'r> {
    by_id: HashMap<(String, bool), &'r Record>,
    in_order: HashMap<(String, String, bool), VecDeque<&'r Record>>,
}

impl<'r> Index<'r> {
    fn new(records: &[&'r Record]) -> Index<'r> {
        let mut index = Index { by_id: HashMap::new(), in_order: HashMap::new() };
        for record in records {
            let pre = is_event(record, HookEvent::PreToolUse);
            if !pre && !is_event(record, HookEvent::PostToolUse) {
                continue;
            }
            match (record.tool_use_id.as_deref(), record.session.as_deref(), record.tool.as_deref()) {
                (Some(id), _, _) => {
                    index.by_id.entry((id.to_string(), pre)).or_insert(record);
                }
                (None, Some(session), Some(tool)) => {
                    index.in_order.entry((session.to_string(), tool.to_string(), pre)).or_default().push_back(record);
                }
                _ => {}
            }
        }
        index
    }

    fn take(&mut self, call: &Call, event: HookEvent) -> Option<&'r Record> {
        let pre = event == HookEvent::PreToolUse;
        if let Some(id) = call.hook_id.as_deref() {
            return self.by_id.get(&(id.to_string(), pre)).copied();
        }
        let session = call.hook_session.as_deref()?;
        self.in_order.get_mut(&(session.to_string(), call.tool().to_string(), pre))?.pop_front()
    }
}

/// A session's figures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Calls judged (made after the trace's oldest line).
    pub calls: usize,
    /// Calls made before the trace's oldest line, not judged.
    #[serde(skip_serializing_if = "is_zero")]
    pub before_trace: usize,
    pub pre_hooked: usize,
    pub pre_no_group: usize,
    pub pre_not_routed: usize,
    pub pre_host_sent_nothing: usize,
    pub pre_refused: usize,
    pub post_hooked: usize,
    pub post_no_group: usize,
    pub post_not_seen: usize,
    pub subagent_calls: usize,
    pub subagent_not_seen: usize,
    /// Calls a PreToolUse group would have matched that no dispatch saw.
    pub unguarded: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    pub fn of(calls: &[Judged]) -> Summary {
        let mut s = Summary::default();
        for call in calls {
            if call.pre == Seen::BeforeTrace {
                s.before_trace += 1;
                continue;
            }
            s.calls += 1;
            match call.pre {
                Seen::Hooked => s.pre_hooked += 1,
                Seen::NoGroup => s.pre_no_group += 1,
                Seen::NotRouted => s.pre_not_routed += 1,
                Seen::HostSentNothing => s.pre_host_sent_nothing += 1,
                Seen::Refused => s.pre_refused += 1,
                Seen::BeforeTrace => {}
            }
            match call.post {
                Seen::Hooked => s.post_hooked += 1,
                Seen::NoGroup => s.post_no_group += 1,
                _ => s.post_not_seen += 1,
            }
            if call.agent.is_some() {
                s.subagent_calls += 1;
                s.subagent_not_seen += usize::from(call.pre.missed());
            }
            s.unguarded += usize::from(call.unguarded);
        }
        s
    }

    pub fn add(&mut self, other: &Summary) {
        self.calls += other.calls;
        self.before_trace += other.before_trace;
        self.pre_hooked += other.pre_hooked;
        self.pre_no_group += other.pre_no_group;
        self.pre_not_routed += other.pre_not_routed;
        self.pre_host_sent_nothing += other.pre_host_sent_nothing;
        self.pre_refused += other.pre_refused;
        self.post_hooked += other.post_hooked;
        self.post_no_group += other.post_no_group;
        self.post_not_seen += other.post_not_seen;
        self.subagent_calls += other.subagent_calls;
        self.subagent_not_seen += other.subagent_not_seen;
        self.unguarded += other.unguarded;
    }

    /// Calls no PreToolUse dispatch saw.
    pub fn not_seen(&self) -> usize {
        self.pre_not_routed + self.pre_host_sent_nothing + self.pre_refused
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::record::GroupTrace;
    use crate::host::history::{Call, Found, Session};
    use crate::host::Host;

    fn record(event: &str, session: &str, tool: &str, id: Option<&str>, matcher: &str, matched: bool) -> Record {
        Record {
            v: 1,
            time: "2026-12-02T10:00:00.000Z".into(),
            host: "copilot".into(),
            event: Some(event.into()),
            session: Some(session.into()),
            tool: Some(tool.into()),
            tool_use_id: id.map(str::to_string),
            groups: vec![GroupTrace { matcher: Some(matcher.into()), matched, hooks: 1, ..GroupTrace::default() }],
            ..Record::default()
        }
    }

    fn call(id: &str, tool: &str, hook_id: Option<&str>, hook_session: &str) -> Call {
        Call {
            id: id.into(),
            host_tool: tool.to_lowercase(),
            tools: vec![tool.into()],
            hook_id: hook_id.map(str::to_string),
            hook_session: Some(hook_session.into()),
            ..Call::default()
        }
    }

    fn session(calls: Vec<Call>) -> Session {
        let found = Found { host: Host::Copilot, id: "s".into(), files: Vec::new(), modified: SystemTime::UNIX_EPOCH };
        let mut session = Session::new(&found);
        calls.into_iter().for_each(|call| session.add(call));
        session
    }

    #[test]
    fn without_ids_calls_pair_with_dispatches_by_session_tool_and_order() {
        let records = vec![
            record("PreToolUse", "s", "Bash", None, "Bash", true),
            record("PreToolUse", "sub", "Bash", None, "Bash", true),
            record("PostToolUse", "s", "Bash", None, "Bash", true),
        ];
        let trace = Trace::new(&records, false);
        let judged = judge(
            &session(vec![call("1", "Bash", None, "s"), call("2", "Bash", None, "s"), call("3", "Bash", None, "sub")]),
            &trace,
            &|_| None,
            None,
        );
        let pre: Vec<Seen> = judged.calls.iter().map(|c| c.pre).collect();
        assert_eq!(pre, [Seen::Hooked, Seen::HostSentNothing, Seen::Hooked]);
        // The second Bash of `s` would have been matched by the `Bash` group the session recorded.
        assert_eq!(judged.calls[1].would_match, Some(true));
        assert!(judged.calls[1].unguarded);
        assert_eq!(judged.calls[2].post, Seen::HostSentNothing);
        assert_eq!(Summary::of(&judged.calls).unguarded, 1);
    }

    #[test]
    fn a_call_the_host_refused_or_no_group_matches_is_no_gap() {
        let records = vec![record("PreToolUse", "s", "Bash", Some("t1"), "Bash", true)];
        let trace = Trace::new(&records, false);
        let mut refused = call("t2", "Bash", Some("t2"), "s");
        refused.refused = true;
        let judged = judge(&session(vec![refused, call("t3", "Glob", Some("t3"), "s")]), &trace, &|_| Some(true), None);
        assert_eq!(judged.calls[0].pre, Seen::Refused);
        assert_eq!((judged.calls[1].pre, judged.calls[1].would_match), (Seen::HostSentNothing, Some(false)));
        assert_eq!(Summary::of(&judged.calls).unguarded, 0);
        assert!(!judged.groups_from_now);
    }

    #[test]
    fn a_session_no_dispatch_saw_is_not_routed_and_one_before_the_trace_is_unknown() {
        let records = vec![record("Stop", "other", "", None, "", false)];
        let judged = judge(
            &session(vec![call("t1", "Bash", Some("t1"), "s")]),
            &Trace::new(&records, false),
            &|_| Some(true),
            None,
        );
        assert_eq!(judged.status, Status::NotRouted);
        assert_eq!((judged.calls[0].pre, judged.calls[0].would_match), (Seen::NotRouted, Some(true)));
        assert!(!judged.calls[0].unguarded);
        assert!(judged.groups_from_now);
        let mut early = call("t1", "Bash", Some("t1"), "s");
        early.time = humantime::parse_rfc3339_weak("2026-12-02T09:00:00Z").ok();
        let judged = judge(&session(vec![early]), &Trace::new(&records, true), &|_| Some(true), None);
        assert!(matches!(judged.status, Status::Unknown(_)), "{:?}", judged.status);
    }
}
