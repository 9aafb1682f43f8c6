#!/usr/bin/env python3
"""More brewcode v3.4.20 conformance scenarios: edge cases beyond the recorded set.

    brewcode_scenarios.py generate [--conformance DIR] [--out DIR]   # (re)write the inputs; record after
    brewcode_scenarios.py record BREWCODE_HOOKS [--conformance DIR] [--out DIR] [NAME...]
    brewcode_scenarios.py compare HOOKMUX_BIN [--conformance DIR] [--out DIR] [NAME...] [-v]

The scenarios live in fixtures/brewcode/scenarios/, in the recorded set's format (see
fixtures/brewcode/conformance/README.md), each made from a recorded scenario with edits:
a lock of another task, a PLAN.md that is a folder, a knowledge line `5`, a config that is JSON
`null`, an index of exactly 20 000 bytes, and so on. `record` runs brewcode's real hooks under
node (BREWCODE_HOOKS is its hooks folder, e.g. a checkout of kochetkov-ma/claude-brewcode at
a37064f, brewcode/hooks) and writes expected.json; `compare` runs `HOOKMUX_BIN run <handler>`
(plus the scenario's `args` file, if any) in the same sandbox and diffs, with the recorded
compare.py's rules. Both import the sandbox and the comparison from the recorded set
(--conformance, default fixtures/brewcode/conformance).
"""
import argparse
import json
import os
import shutil
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CONFORMANCE = os.path.join(REPO, "fixtures", "brewcode", "conformance")
DEFAULT_OUT = os.path.join(REPO, "fixtures", "brewcode", "scenarios")
SRC = DST = None

HOOK = {"compact-handoff": "session-start.mjs", "grepai-status": "grepai-session.mjs",
        "knowledge-inject": "pre-task.mjs", "grepai-reminder": "grepai-reminder.mjs",
        "task-bind": "post-task.mjs", "knowledge-compact": "pre-compact.mjs", "stop-guard": "stop.mjs"}
TASK = ".claude/tasks/20260201-120000_auth_refactor_task"
V3TASK = ".claude/tasks/20260210-093000_billing_export_task"
SID9 = "09110fd9-e94d-4dcf-ab61-cd5b8a24d6b2"
SID7 = "7b6b5f32-8486-4727-aaf9-dffe030c4e74"
SID2 = "282e26e7-f6c1-4b13-872d-9ee6402f5f4c"


def make(name, base, handler=None, files=None, remove=(), event=None, event_raw=None, env=None, setup=None,
         logs=None, mkdirs=(), args=None):
    """One scenario: a recorded scenario's folder, edited."""
    d = os.path.join(DST, name)
    if os.path.exists(d):
        shutil.rmtree(d)
    shutil.copytree(os.path.join(SRC, base), d, ignore=shutil.ignore_patterns("expected.json", "compare.json"))
    for root, dirs, fs in os.walk(d):
        os.chmod(root, 0o755)
        for f in fs:
            os.chmod(os.path.join(root, f), 0o644)
    handler = handler or open(os.path.join(d, "handler")).read().strip()
    open(os.path.join(d, "handler"), "w").write(handler + "\n")
    open(os.path.join(d, "hook"), "w").write(HOOK[handler] + "\n")
    open(os.path.join(d, "description"), "w").write(name + "\n")
    for rel in remove:
        p = os.path.join(d, rel)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    for rel in mkdirs:
        os.makedirs(os.path.join(d, rel), exist_ok=True)
        open(os.path.join(d, rel, ".keep"), "w").close()
    for rel, content in (files or {}).items():
        p = os.path.join(d, rel)
        if os.path.isdir(p):
            shutil.rmtree(p)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if not isinstance(content, str):
            content = json.dumps(content, indent=2, ensure_ascii=False)
        open(p, "w").write(content)
    ev_path = os.path.join(d, "event.json")
    if event_raw is not None:
        open(ev_path, "w").write(event_raw)
    elif event:
        ev = json.load(open(ev_path))
        for k, v in event.items():
            if v is None:
                ev.pop(k, None)
            else:
                ev[k] = v
        json.dump(ev, open(ev_path, "w"), indent=2)
    if env is not None:
        json.dump(env, open(os.path.join(d, "env.json"), "w"))
    if setup is not None:
        json.dump(setup, open(os.path.join(d, "setup.json"), "w"))
    if logs:
        json.dump({"logs": logs}, open(os.path.join(d, "compare.json"), "w"))
    if args:
        open(os.path.join(d, "args"), "w").write(" ".join(args) + "\n")


def lock(task=TASK, sid=None, started="{{NOW-2h}}", bound="{{NOW-2h}}", **extra):
    l = {"task_path": task + "/PLAN.md", "started_at": started}
    if sid:
        l["session_id"] = sid
        l["bound_at"] = bound
    l.update(extra)
    return l


DEBUG = {"project/.claude/tasks/cfg/brewcode.config.json": {"logging": {"level": "debug"}}}


def batch1():
    P = "project/"
    # ---- knowledge-inject
    make("pt-grepai-dir-without-index", "pt-system-explore-grepai", setup={})
    make("pt-invalid-task-path-lock", "pt-developer-bound",
         files={P + TASK + "/.lock": lock(task=".claude/tasks/../evil_task", sid=SID7)})
    make("pt-reviewer", "pt-developer-bound", event={"tool_input": {"description": "r", "prompt": "Review it", "subagent_type": "code-reviewer"}})
    make("pt-no-role", "pt-developer-bound", event={"tool_input": {"description": "r", "prompt": "x", "subagent_type": "sql_expert"}})
    make("pt-constraints-off", "pt-developer-bound",
         files={P + ".claude/tasks/cfg/brewcode.config.json": {"constraints": {"enabled": False}, "logging": {"level": "debug"}}})
    make("pt-over-budget", "pt-developer-bound",
         files={P + ".claude/tasks/cfg/brewcode.config.json": {"knowledge": {"maxTokens": 10}},
                P + TASK + "/KNOWLEDGE.jsonl": "".join(json.dumps({"ts": "2026-02-01T12:%02d:00.000Z" % i, "t": ["❌", "✅", "ℹ️"][i % 3], "txt": "Lesson %d is a fairly long sentence that gets cut at fifty characters 😀 yes" % i}, ensure_ascii=False) + "\n" for i in range(40))})
    make("pt-invalid-lines", "pt-developer-bound",
         files={P + TASK + "/KNOWLEDGE.jsonl": "not json 1\n{bad\n\n  \nnull\n{\"t\":\"❌\",\"txt\":\"Keep it\"}\nx3\nx4 and a rather long line that goes on beyond fifty characters for sure\n{\"txt\":\"no type\"}\n0\n[1,2]\n"})
    make("pt-number-line", "pt-developer-bound", files={P + TASK + "/KNOWLEDGE.jsonl": "{\"t\":\"❌\",\"txt\":\"a\"}\n5\n"}, logs="loose")
    make("pt-txt-number", "pt-developer-bound", files={P + TASK + "/KNOWLEDGE.jsonl": "{\"t\":\"❌\",\"txt\":7}\n"})
    make("pt-empty-knowledge", "pt-developer-bound", files={P + TASK + "/KNOWLEDGE.jsonl": ""})
    make("pt-mode-legacy", "pt-developer-bound", env={"CLAUDE_PLUGIN_ROOT": "{{PLUGIN_ROOT}}"},
         files={P + ".claude/tasks/cfg/brewcode.state.json": {"mode": "terse"}, "plugin/modes/terse.md": "  Be terse.\n"})
    make("pt-mode-missing", "pt-developer-bound", env={"CLAUDE_PLUGIN_DATA": "{{PLUGIN_DATA}}"},
         files={"plugin-data/modes.json": {"global": {"mode": "ghost"}}})
    make("pt-modes-null", "pt-developer-bound", env={"CLAUDE_PLUGIN_DATA": "{{PLUGIN_DATA}}"},
         files={"plugin-data/modes.json": "null"})
    make("pt-teams-short-sid", "pt-developer-bound", mkdirs=[P + ".claude/teams"], event={"session_id": "abc"})
    make("pt-number-agent", "pt-developer-bound", event={"tool_input": {"prompt": "x", "subagent_type": 5}}, logs="loose")
    make("pt-no-subagent", "pt-developer-bound", event={"tool_input": {"prompt": "x"}})
    make("pt-prompt-missing", "pt-developer-bound", event={"tool_input": {"subagent_type": "developer", "2": "two", "description": "d"}})
    make("pt-other-session", "pt-developer-bound", files={P + TASK + "/.lock": lock(sid=SID9)})
    make("pt-plan-dir", "pt-developer-bound", remove=[P + TASK + "/PLAN.md"], mkdirs=[P + TASK + "/PLAN.md"])
    make("pt-v2-phases-no-header", "pt-developer-bound", mkdirs=[P + TASK + "/phases"])
    make("pt-config-bad", "pt-developer-bound",
         files={P + ".claude/tasks/cfg/brewcode.config.json": {"knowledge": {"maxEntries": 0, "maxTokens": "x"}, "autoSync": {"intervalDays": 1.5, "parallelAgents": None}, "agents": {"system": ["developer"]}}})
    make("pt-config-null", "pt-developer-bound", files={P + ".claude/tasks/cfg/brewcode.config.json": "null"}, logs="loose")
    make("pt-config-silent", "pt-developer-bound", files={P + ".claude/tasks/cfg/brewcode.config.json": {"logging": {"level": "verbose"}}})
    make("pt-task-md-dir", "pt-developer-bound", remove=[P + ".claude/TASK.md"], mkdirs=[P + ".claude/TASK.md"], logs="loose")
    make("pt-lock-dir", "pt-developer-bound", remove=[P + TASK + "/.lock"], mkdirs=[P + TASK + "/.lock"])
    make("pt-lock-not-json", "pt-developer-bound", files={P + TASK + "/.lock": "{nope"}, logs="loose")
    make("pt-lock-null", "pt-developer-bound", files={P + TASK + "/.lock": "null"})
    make("pt-lock-missing-started", "pt-developer-bound", files={P + TASK + "/.lock": {"task_path": TASK + "/PLAN.md", "session_id": SID7}})
    make("pt-stdin-invalid", "pt-developer-bound", event_raw="{not json", logs="loose")
    make("pt-stdin-empty", "pt-developer-bound", event_raw="")
    make("pt-stdin-null", "pt-developer-bound", event_raw="null")
    make("pt-stdin-array", "pt-developer-bound", event_raw="[1,2]")
    make("pt-cwd-trailing-slash", "pt-developer-bound", event={"cwd": "{{PROJECT}}/"})
    make("pt-v3-debug", "pt-full-stack-v3", files={P + ".claude/tasks/cfg/brewcode.config.json": {"logging": {"level": "trace"}}})
    # ---- task-bind
    make("po-tool-response-error", "po-worker-done", event={"tool_response": {"is_error": True, "content": "boom"}})
    make("po-done-v3", "po-worker-done", mkdirs=[P + TASK + "/phases"])
    make("po-failed-v3", "po-worker-failed", mkdirs=[P + TASK + "/phases"])
    make("po-coordinator-bound", "po-worker-done", event={"tool_input": {"subagent_type": "brewcode:bc-coordinator"}})
    make("po-coordinator-no-lock", "po-coordinator-binds", remove=[P + TASK + "/.lock"])
    make("po-coordinator-bad-sid", "po-coordinator-binds", event={"session_id": 12345678}, logs="loose")
    make("po-coordinator-no-sid", "po-coordinator-binds", event={"session_id": None})
    make("po-coordinator-debug", "po-coordinator-binds", files=DEBUG)
    make("po-unbound-worker", "po-coordinator-binds", event={"tool_input": {"subagent_type": "developer"}})
    make("po-other-session", "po-worker-done", files={P + TASK + "/.lock": lock(sid=SID9)})
    make("po-no-tool-input", "po-worker-done", event={"tool_input": None})
    make("po-unicode-agent", "po-worker-done", event={"tool_input": {"subagent_type": "straße-dev"}})
    # ---- knowledge-compact
    make("pc-invalid-task-path", "pc-below-threshold", files={P + TASK + "/.lock": lock(task=".claude/tasks/x/../y_task", sid=SID2)})
    make("pc-v3", "pt-full-stack-v3", handler="knowledge-compact", event_raw=json.dumps({"session_id": SID7, "cwd": "{{PROJECT}}", "hook_event_name": "PreCompact", "trigger": "auto"}))
    make("pc-v3-no-knowledge", "pt-full-stack-v3", handler="knowledge-compact", remove=[P + V3TASK + "/KNOWLEDGE.jsonl"],
         event_raw=json.dumps({"session_id": SID7, "cwd": "{{PROJECT}}", "hook_event_name": "PreCompact", "trigger": "auto"}))
    make("pc-state-null", "pc-below-threshold", files={P + ".claude/tasks/cfg/brewcode.state.json": "null"}, logs="loose")
    make("pc-state-array", "pc-below-threshold", files={P + ".claude/tasks/cfg/brewcode.state.json": "[1, 2]"})
    make("pc-state-bad-json", "pc-below-threshold", files={P + ".claude/tasks/cfg/brewcode.state.json": "{x"}, logs="loose")
    make("pc-artifacts-file", "pc-below-threshold", remove=[P + TASK + "/artifacts"], files={P + TASK + "/artifacts": "x"})
    make("pc-debug", "pc-below-threshold", files=DEBUG)
    make("pc-no-artifacts-debug", "pc-over-threshold-trim", files={P + ".claude/tasks/cfg/brewcode.config.json": {"knowledge": {"maxEntries": 10}, "logging": {"level": "debug"}}})
    make("pc-frontmatter", "pc-below-threshold", files={P + TASK + "/PLAN.md": "---\ntitle: x\n---\n# Plan\n\n## Phase 1: a\n- [x] done\n## Phase 12V: v\n- [ ] b\n"})
    make("pc-no-frontmatter-no-status", "pc-below-threshold", files={P + TASK + "/PLAN.md": "# Plan\n\n## Phase 1: a\n- [x] done\n### Phase 2\nStatus: Completed\n## Phase 3\n"})
    make("pc-status-next-line", "pc-below-threshold", files={P + TASK + "/PLAN.md": "status:\nin progress\n## Phase 1\n- [ ] a\n"})
    make("pc-plan-dir", "pc-below-threshold", remove=[P + TASK + "/PLAN.md"], mkdirs=[P + TASK + "/PLAN.md"], logs="loose")
    make("pc-knowledge-weird", "pc-over-threshold-trim",
         files={P + TASK + "/KNOWLEDGE.jsonl": "".join(l + "\n" for l in [
             json.dumps({"t": "❌", "txt": "A", "ts": "2026-02-01T00:00:00Z"}), json.dumps({"t": "❌", "txt": "A", "ts": "2026-02-01"}),
             json.dumps({"t": "✅", "txt": 5, "ts": 1770000000000}), json.dumps({"txt": "x", "ts": None}), "[1,2]",
             json.dumps({"t": ["❌"], "txt": {"a": 1}, "ts": "2026-02-03T00:00:00.000+01:00"}), json.dumps({"t": "ℹ️", "2": "b", "1": "a", "txt": "keys"}),
             json.dumps({"t": "❌", "txt": "B" * 120, "ts": "2026-02-05T00:00:00.000Z"}), json.dumps({"t": "✅", "txt": "B" * 100 + "C", "ts": "2026-02-06T00:00:00.000Z"}),
             json.dumps({"t": "✅", "txt": "num", "n": 1.0, "f": 1.5, "ts": "2026-02-07 10:00:00"}),
             json.dumps({"t": "ℹ️", "txt": "", "ts": "2026-02-01T00:00:00.000Z"}),
             json.dumps({"t": "ℹ️", "txt": "dup", "ts": "2026-02-01T00:00:00.000Z"}), json.dumps({"t": "ℹ️", "txt": "dup", "ts": "2026-02-01T00:00:00.000Z", "second": True}),
         ])})
    make("pc-knowledge-zero", "pc-over-threshold-trim",
         files={P + TASK + "/KNOWLEDGE.jsonl": "".join(json.dumps({"t": "❌", "txt": "r%d" % i}) + "\n" for i in range(9)) + "0\n"}, logs="loose")
    make("pc-config-warn", "pc-below-threshold", files={P + ".claude/tasks/cfg/brewcode.config.json": {"knowledge": {"maxEntries": -3}}})
    make("pc-cwd-trailing-slash", "pc-over-threshold-trim", event={"cwd": "{{PROJECT}}/"},
         files={P + ".claude/tasks/cfg/brewcode.config.json": {"knowledge": {"maxEntries": 10, "maxTokens": 0}}})
    # ---- stop-guard
    make("st-task-file-not-found", "st-incomplete-v2-block",
         files={P + TASK + "/.lock": lock(task=".claude/tasks/20990101-000000_gone_task", sid=SID9, started="{{NOW-1h}}", bound="{{NOW-1h}}")})
    make("st-unbound", "st-incomplete-v2-block", files={P + TASK + "/.lock": lock(started="{{NOW-1h}}")})
    make("st-plan-dir", "st-incomplete-v2-block", remove=[P + TASK + "/PLAN.md"], mkdirs=[P + TASK + "/PLAN.md"], logs="loose")
    make("st-terminal-no-knowledge", "st-terminal-finished-knowledge", remove=[P + TASK + "/KNOWLEDGE.jsonl"])
    make("st-corrupt-lock", "st-incomplete-v2-block", files={P + TASK + "/.lock": "not json"}, logs="loose")
    make("st-lock-dir", "st-incomplete-v2-block", remove=[P + TASK + "/.lock"], mkdirs=[P + TASK + "/.lock"])
    make("st-task-md-only", "st-incomplete-v2-block", remove=[P + TASK + "/.lock"], files=DEBUG)
    make("st-task-md-bad", "st-incomplete-v2-block", files={P + ".claude/TASK.md": "\ufeff  ../.claude/tasks/x_task/PLAN.md\n"})
    make("st-task-md-bom", "st-incomplete-v2-block", files={P + ".claude/TASK.md": "\ufeff " + TASK + "/PLAN.md \r\nmore\n"})
    make("st-stale-bad-date", "st-incomplete-v2-block", files={P + TASK + "/.lock": lock(sid=SID9, bound="yesterday")})
    make("st-bound-number", "st-incomplete-v2-block", files={P + TASK + "/.lock": lock(sid=SID9, bound=1)})
    make("st-other-debug", "st-other-session", files=DEBUG)
    make("st-v3", "pt-full-stack-v3", handler="stop-guard", event_raw=json.dumps({"session_id": SID7, "cwd": "{{PROJECT}}", "hook_event_name": "Stop", "stop_hook_active": False}))
    make("st-v3-bad-header", "pt-full-stack-v3", handler="stop-guard",
         files={P + V3TASK + "/PLAN.md": "# Plan\nstatus: in progress\ncurrent_phase: 3\n## Phase 1\n- [x] a\n## Phase 2\n- [ ] b\n"},
         event_raw=json.dumps({"session_id": SID7, "cwd": "{{PROJECT}}", "hook_event_name": "Stop"}))
    make("st-hook-active-string", "st-incomplete-v2-block", event={"stop_hook_active": "yes"})
    make("st-hook-active-zero", "st-incomplete-v2-block", event={"stop_hook_active": 0})
    make("st-cancelled", "st-incomplete-v2-block", files={P + TASK + "/PLAN.md": "status:   cancelled  \n## Phase 1\n- [ ] a\n"})
    make("st-no-status", "st-incomplete-v2-block", files={P + TASK + "/PLAN.md": "# Plan\n## Phase 1\n- [x] a\n## Phase 2\n- [x] b\n"})
    # ---- compact-handoff
    make("ss-compact-other-session", "ss-compact-bound-v2", files={P + TASK + "/.lock": lock(sid=SID7)})
    make("ss-compact-no-lock", "ss-compact-bound-v2", remove=[P + TASK + "/.lock"])
    make("ss-compact-no-task", "ss-startup-no-task", event={"source": "compact"}, files=DEBUG)
    make("ss-compact-v3", "pt-full-stack-v3", handler="compact-handoff",
         event_raw=json.dumps({"session_id": SID7, "cwd": "{{PROJECT}}", "hook_event_name": "SessionStart", "source": "compact"}))
    make("ss-resume-v3-unbound", "pt-full-stack-v3", handler="compact-handoff", files={P + V3TASK + "/.lock": lock(task=V3TASK)},
         event_raw=json.dumps({"session_id": SID7, "cwd": "{{PROJECT}}", "hook_event_name": "SessionStart", "source": "resume"}))
    make("ss-clear-old-plan", "ss-clear-fresh-plan", setup={"mtimes": {"home/.claude/plans/fresh-plan.md": "NOW-90s", "home/.claude/plans/older-plan.md": "NOW-2h", "home/.claude/plans/notes.txt": "NOW"}})
    make("ss-clear-no-plans", "ss-clear-fresh-plan", remove=["home/.claude/plans"], setup={})
    make("ss-clear-latest-dir", "ss-clear-fresh-plan", remove=[P + ".claude/plans/LATEST.md"], mkdirs=[P + ".claude/plans/LATEST.md"], logs="loose")
    make("ss-clear-plans-file", "ss-clear-fresh-plan", remove=[P + ".claude/plans"], files={P + ".claude/plans": "a file"}, logs="loose")
    make("ss-startup-debug", "ss-startup-no-task", files=DEBUG)
    make("ss-session-number", "ss-startup-no-task", event={"session_id": 42}, logs="loose")
    make("ss-no-session", "ss-startup-no-task", event={"session_id": None, "source": None})
    make("ss-plugin-unversioned", "ss-startup-no-task", env={"CLAUDE_PLUGIN_ROOT": "{{PLUGIN_ROOT}}", "CLAUDE_PLUGIN_DATA": "{{PLUGIN_DATA}}"},
         files={"plugin-data/modes.json": {"projects": {"{{PROJECT}}": {"mode": "deep"}}}, "plugin-data/modes/deep.md": "Deep.\n", **DEBUG})
    # Online checks, with neither curl nor claude on the sandbox's PATH: brewcode's offline log.
    make("ss-plugin-manifest", "ss-startup-no-task", env={"CLAUDE_PLUGIN_ROOT": "{{PLUGIN_ROOT}}"},
         files={"plugin/.claude-plugin/plugin.json": {"version": "3.4.20"}, **DEBUG}, args=["--check-updates"])
    # ---- grepai-status
    make("gs-kb-small", "gs-index-missing", setup={"sized_files": {"project/.grepai/index.gob": 19999}}, files=DEBUG)
    make("gs-kb-boundary", "gs-index-missing", setup={"sized_files": {"project/.grepai/index.gob": 20000}}, files=DEBUG)
    make("gs-kb-upper", "gs-index-missing", setup={"sized_files": {"project/.grepai/index.gob": 99999}})
    make("gs-mb-rounding", "gs-index-missing", setup={"sized_files": {"project/.grepai/index.gob": 262144}}, files=DEBUG)
    make("gs-mb", "gs-index-missing", setup={"sized_files": {"project/.grepai/index.gob": 2202010}})
    make("gs-pids-self-dead", "gs-index-missing", files={P + ".grepai/watch.pid": "999999\n", P + ".grepai/mcp-serve.pid": "abc", **DEBUG})
    make("gs-not-configured-debug", "gs-not-configured", files=DEBUG)
    make("gs-index-dir", "gs-index-missing", mkdirs=[P + ".grepai/index.gob"])
    # ---- grepai-reminder
    make("gr-old-stamp", "gr-throttled", setup={"sized_files": {"project/.grepai/index.gob": 150000}, "mtimes": {"project/.grepai/.reminder-ts": "NOW-70s"}}, files=DEBUG)
    make("gr-future-stamp", "gr-throttled", setup={"sized_files": {"project/.grepai/index.gob": 150000}, "mtimes": {"project/.grepai/.reminder-ts": "NOW+1h"}})
    make("gr-stamp-dir", "gr-first-reminder", mkdirs=[P + ".grepai/.reminder-ts"], setup={"sized_files": {"project/.grepai/index.gob": 150000}, "mtimes": {"project/.grepai/.reminder-ts": "NOW-2h"}}, logs="loose")
    make("gr-no-index", "gr-first-reminder", setup={})
    make("gr-bash", "gr-first-reminder", event={"tool_name": "Bash", "tool_input": {"command": "ls"}})


def batch2():
    P = "project/"
    make("pt-lock-other-task", "pt-developer-bound",
         files={P + ".claude/tasks/20260301-000000_other_task/PLAN.md": "status: in progress\n<!-- ALL -->\n- other all\n<!-- /ALL -->\n",
                P + ".claude/tasks/20260301-000000_other_task/KNOWLEDGE.jsonl": json.dumps({"t": "✅", "txt": "From the other task"}) + "\n",
                P + TASK + "/.lock": lock(task=".claude/tasks/20260301-000000_other_task", sid=SID7)})
    make("st-task-md-missing-plan", "st-incomplete-v2-block", files={P + ".claude/TASK.md": ".claude/tasks/20990101-000000_nope_task/PLAN.md\n"})
    make("pt-agents-string", "pt-developer-bound", files={P + ".claude/tasks/cfg/brewcode.config.json": {"agents": {"system": "developer"}}})
    make("pt-agents-number", "pt-developer-bound", files={P + ".claude/tasks/cfg/brewcode.config.json": {"agents": {"system": 7}}}, logs="loose")
    make("pt-crlf", "pt-developer-bound",
         files={P + TASK + "/KNOWLEDGE.jsonl": "{\"t\":\"❌\",\"txt\":\"CRLF line\"}\r\n{\"t\":\"✅\",\"txt\":\"Second\"}\r\n",
                P + TASK + "/PLAN.md": "status: in progress\r\n<!-- ALL -->\r\n- all rule\r\n  <!-- comment -->\r\n<!-- /ALL -->\r\n<!-- DEV -->\r\n- dev rule\r\n<!-- /DEV -->\r\n"})
    make("st-crlf-plan", "st-incomplete-v2-block", files={P + TASK + "/PLAN.md": "status: in progress\r\n## Phase 1\r\n- [x] a\r\n## Phase 2\r\n- [ ] b\r\n"})
    make("st-huge-phase", "st-incomplete-v2-block", files={P + TASK + "/PLAN.md": "status: in progress\n## Phase 99999999999999999999999\n- [x] a\n"})
    make("pc-huge-phase", "pc-below-threshold", files={P + TASK + "/PLAN.md": "status: in progress\n## Phase 9007199254740993\n- [ ] a\n"})
    make("ss-clear-tie", "ss-clear-fresh-plan", files={"home/.claude/plans/a-plan.md": "a\n", "home/.claude/plans/b-plan.md": "b\n"},
         setup={"mtimes": {"home/.claude/plans/fresh-plan.md": "NOW-5s", "home/.claude/plans/a-plan.md": "NOW-5s", "home/.claude/plans/b-plan.md": "NOW-5s", "home/.claude/plans/older-plan.md": "NOW-2h", "home/.claude/plans/notes.txt": "NOW"}})
    make("ss-clear-symlink-exists", "ss-clear-fresh-plan", remove=[P + ".claude/plans/LATEST.md"])
    make("ss-clear-md-dir", "ss-clear-fresh-plan", mkdirs=["home/.claude/plans/zz.md"],
         setup={"mtimes": {"home/.claude/plans/fresh-plan.md": "NOW-5s", "home/.claude/plans/older-plan.md": "NOW-2h", "home/.claude/plans/notes.txt": "NOW", "home/.claude/plans/zz.md": "NOW-1s"}})
    make("po-coordinator-corrupt", "po-coordinator-binds", files={P + TASK + "/.lock": {"task_path": TASK + "/PLAN.md", "started_at": 5}})
    make("po-coordinator-falsy-sid", "po-coordinator-binds", files={P + TASK + "/.lock": {"task_path": TASK + "/PLAN.md", "started_at": "{{NOW-1h}}", "session_id": "", "x": 1}})
    make("pt-lock-sid-number", "pt-developer-bound", files={P + TASK + "/.lock": lock(sid=12345)}, event={"session_id": 12345}, logs="loose")
    make("pt-session-missing", "pt-developer-bound", event={"session_id": None}, files=DEBUG)
    make("pc-knowledge-dir", "pc-below-threshold", remove=[P + TASK + "/KNOWLEDGE.jsonl"], mkdirs=[P + TASK + "/KNOWLEDGE.jsonl"], logs="loose")
    make("pc-state-string", "pc-below-threshold", files={P + ".claude/tasks/cfg/brewcode.state.json": "\"text\""}, logs="loose")
    make("pc-relative-cwd", "pc-below-threshold", event={"cwd": "."})
    make("gs-cwd-empty", "gs-index-missing", event={"cwd": ""})
    make("gr-debug-stdin-empty", "gr-first-reminder", event_raw="   ")
    make("st-started-only-stale", "st-incomplete-v2-block", files={P + TASK + "/.lock": {"task_path": TASK + "/PLAN.md", "started_at": "{{NOW-25h}}", "session_id": SID9}})
    make("st-bound-empty-stale", "st-incomplete-v2-block", files={P + TASK + "/.lock": {"task_path": TASK + "/PLAN.md", "started_at": "{{NOW-25h}}", "session_id": SID9, "bound_at": ""}})
    make("pt-knowledge-unicode-cut", "pt-developer-bound",
         files={P + TASK + "/KNOWLEDGE.jsonl": json.dumps({"t": "❌", "txt": "é" * 45 + "😀😀😀😀😀"}, ensure_ascii=False) + "\n" + json.dumps({"t": "ℹ️", "txt": "x" * 200}) + "\n"})


def conformance_modules(conformance, out):
    sys.dont_write_bytecode = True
    sys.path.insert(0, conformance)
    import compare as cmp  # noqa: E402
    import run_oracle as ro  # noqa: E402
    ro.SCENARIOS = out
    return cmp, ro


def scenario_args(ro, name):
    path = os.path.join(ro.SCENARIOS, name, "args")
    return open(path).read().split() if os.path.exists(path) else []


def main():
    global SRC, DST
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("generate", "record", "compare"))
    ap.add_argument("target", nargs="?", help="record: brewcode's hooks folder; compare: the hookmux binary")
    ap.add_argument("names", nargs="*")
    ap.add_argument("--conformance", default=DEFAULT_CONFORMANCE,
                    help="the recorded brewcode-3.4.20 set: scenarios/, run_oracle.py, compare.py")
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("-v", "--verbose", action="store_true")
    opts = ap.parse_args()
    SRC, DST = os.path.join(opts.conformance, "scenarios"), os.path.abspath(opts.out)
    if opts.command == "generate":
        if os.path.isdir(DST):
            shutil.rmtree(DST)
        os.makedirs(DST)
        batch1()
        batch2()
        print("generated %d scenarios in %s" % (len(os.listdir(DST)), DST))
        return
    if not opts.target:
        sys.exit("%s needs %s" % (opts.command, "BREWCODE_HOOKS" if opts.command == "record" else "HOOKMUX_BIN"))
    cmp, ro = conformance_modules(opts.conformance, DST)
    names = ro.scenario_names(opts.names)
    if opts.command == "record":
        hooks, node = ro.resolve_hooks_dir(opts.target), ro.resolve_node(None)
        for name in names:
            result = ro.run_scenario(name, [node, os.path.join(hooks, ro.scenario_field(name, "hook"))])
            expected = {"scenario": name, "hook": ro.scenario_field(name, "hook"),
                        "handler": ro.scenario_field(name, "handler"), "oracle": ro.ORACLE}
            expected.update(result)
            with open(os.path.join(DST, name, "expected.json"), "w", encoding="utf-8") as f:
                json.dump(expected, f, indent=2, ensure_ascii=False)
                f.write("\n")
        print("recorded %d scenario(s)" % len(names))
        return
    binary = cmp.resolve_bin(opts.target)
    same = 0
    for name in names:
        with open(os.path.join(DST, name, "expected.json"), encoding="utf-8") as f:
            expected = json.load(f)
        cfg_path = os.path.join(DST, name, "compare.json")
        logs = json.load(open(cfg_path)).get("logs", "exact") if os.path.exists(cfg_path) else "exact"
        argv = [binary, "run", ro.scenario_field(name, "handler")] + scenario_args(ro, name)
        diffs = cmp.compare(expected, ro.run_scenario(name, argv), logs, ro.input_paths(name))
        if not diffs:
            same += 1
            print("same  %s" % name)
            continue
        print("DIFF  %s" % name)
        for d in diffs if opts.verbose else diffs[:cmp.MAX_DIFF_LINES]:
            print("      " + d)
    print("%d/%d scenarios equivalent" % (same, len(names)))
    sys.exit(0 if same == len(names) else 1)


if __name__ == "__main__":
    main()
