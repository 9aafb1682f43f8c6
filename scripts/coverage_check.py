#!/usr/bin/env python3
"""Runs the coverage scenarios in one real host and checks `hookmux log coverage` against it.

usage: coverage_check.py HARNESS_DIR HOOKMUX_BIN WORK_DIR [--keep]
(scripts/coverage-check.sh calls it with the release build and a fresh WORK_DIR.)

The host is told by the harness's runner (cc_run_scopes.py: Claude Code, codex_run.py: Codex,
gemini_run.py: Gemini CLI, copilot_run.py: Copilot CLI, oc_run.py: OpenCode, cline_run.py: Cline,
qwen_run.py: Qwen Code). Each scenario of fixtures/coverage/scenarios/ for that host is run
installed as a user installs hookmux (Claude Code: `install claude`; Codex: the entries `install
codex` writes; Gemini CLI, Copilot CLI, Cline, Qwen Code: `install <host>` run by the harness;
OpenCode: the plugin). A scenario's `home/` is laid into the run's home when hookmux is installed
(Cline reads its MCP servers only from there), with `PROJECT` in it replaced by the project's
folder. Its hooks write
`pre` or `post` to $DUMP/ran.txt for every call a group matched. Then `hookmux log coverage --json`
runs in the run's home and project, and its counts must agree with the host's own JSON output:
the tool calls the host reports (plus the subagent's, where the host's output leaves them out),
the PreToolUse and PostToolUse hooks that ran, and the scenario's expect.json (calls that matched
no group, that the host refused before its hooks, that no dispatch saw, the exit code;
`extra_item_runs`: hook runs past one per call, where one call of several items runs its hooks
once per item).
Prints `same NAME` or `DIFF NAME` with what differs; exits 1 on any DIFF.
"""
import json, os, shlex, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = os.path.join(ROOT, "fixtures", "coverage", "scenarios")
RUNNERS = [("cc_run_scopes.py", "claude"), ("codex_run.py", "codex"), ("gemini_run.py", "gemini"),
           ("copilot_run.py", "copilot"), ("oc_run.py", "opencode"), ("cline_run.py", "cline"),
           ("qwen_run.py", "qwen")]
SCENARIOS_OF = {"claude": ["claude", "claude-unrouted"], "codex": ["codex"], "gemini": ["gemini"],
                "copilot": ["copilot"], "opencode": ["opencode"], "cline": ["cline"], "qwen": ["qwen"]}
# Variables that would point hookmux or a host elsewhere than the run's own home.
CLEARED = ("XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOOKMUX_TRACE", "HOOKMUX_TRACE_DIR",
           "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "CLAUDE_PROJECT_DIR",
           "CLINE_DIR", "CLINE_DATA_DIR", "CLINE_SESSION_DATA_DIR", "QWEN_HOME")


def host_of(harness):
    for runner, host in RUNNERS:
        if os.path.exists(os.path.join(harness, runner)):
            return host, os.path.join(harness, runner)
    sys.exit(f"coverage_check: {harness} holds none of {', '.join(r for r, _ in RUNNERS)}")


def host_binary(harness, host):
    var = {"claude": "CLAUDE_BIN", "codex": "CODEX_BIN", "gemini": "GEMINI_BIN", "copilot": "COPILOT_BIN",
           "opencode": "OPENCODE_BIN", "cline": "CLINE_BIN", "qwen": "QWEN_BIN"}[host]
    if not os.environ.get(var):
        install = os.path.join(harness, f"install-{host}.sh")
        os.environ[var] = subprocess.run([install], check=True, capture_output=True, text=True).stdout.strip()


def prepare(host, name, bin_path, work):
    """The scenario copied into WORK with the MCP server beside it, and Codex's entries."""
    scen = os.path.join(work, "scenarios", name)
    shutil.copytree(os.path.join(SCENARIOS, name), scen)
    files = os.path.join(scen, "files")
    os.makedirs(files, exist_ok=True)
    shutil.copy(os.path.join(SCENARIOS, "mcp_echo.py"), files)
    if host == "codex":
        script_path = os.path.join(scen, "script.json")
        script = json.load(open(script_path))
        script["config"] = script["config"].replace("MCP_ECHO", os.path.join(files, "mcp_echo.py"))
        json.dump(script, open(script_path, "w"), indent=1)
        # The entries `hookmux install codex` writes, as the harness's hooks.json.
        scratch = tempfile.mkdtemp(dir=work)
        project = os.path.join(scratch, "project")
        os.makedirs(project)
        subprocess.run(["git", "init", "-q"], cwd=project, check=True)
        env = dict(os.environ, HOME=scratch, CODEX_HOME=os.path.join(scratch, ".codex"))
        subprocess.run([bin_path, "install", "codex"], cwd=project, env=env, check=True, capture_output=True)
        shutil.copy(os.path.join(scratch, ".codex", "hooks.json"), os.path.join(scen, "hooks.json"))
    return scen


def installer(scen, bin_path, work):
    """A `hookmux` that lays the scenario's `home/` into the run's home when it installs, then is
    BIN: the harness runs `hookmux install HOST` before the turn and nothing else of the home."""
    folder = tempfile.mkdtemp(dir=work, prefix="bin-")
    wrapper = os.path.join(folder, "hookmux")
    home = os.path.join(scen, "home")
    with open(wrapper, "w") as f:
        f.write(f"""#!/bin/sh
if [ "$1" = install ] && [ -d {shlex.quote(home)} ]; then
  (cd {shlex.quote(home)} && find . -type f) | while IFS= read -r file; do
    mkdir -p "$HOME/$(dirname "$file")"
    sed "s|PROJECT|$PWD|g" {shlex.quote(home)}/"$file" > "$HOME/$file"
  done
fi
exec {shlex.quote(bin_path)} "$@"
""")
    os.chmod(wrapper, 0o755)
    return wrapper


def run_host(host, runner, name, scen, bin_path, work):
    cmd = [sys.executable, runner, scen, "--keep"]
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(bin_path) + os.pathsep + env.get("PATH", "")
    if host == "claude" and name == "claude":
        cmd += ["--install", bin_path]
    elif host == "codex":
        cmd += ["--raw"]
    elif host == "gemini":
        cmd += ["--raw", "--via", bin_path]
    elif host == "copilot":
        cmd += ["--via", bin_path]
    elif host == "opencode":
        cmd += ["--plugin", os.path.join(ROOT, "integrations", "opencode", "hookmux.js")]
        env["HOOKMUX_BIN"] = bin_path
    elif host in ("cline", "qwen"):
        cmd += ["--via", installer(scen, bin_path, work)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(p.stdout)
    except ValueError:
        raise RuntimeError(f"the harness printed no JSON (exit {p.returncode}): {p.stderr[-1500:]}")


def coverage(bin_path, home, project):
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env["HOME"] = home
    p = subprocess.run([bin_path, "log", "coverage", "--json"], cwd=project, env=env, capture_output=True, text=True)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        raise RuntimeError(f"`hookmux log coverage --json` printed no JSON (exit {p.returncode}): {p.stderr[-1500:]}")


def host_figures(host, out, script, expect):
    """What the host's own output says: its tool calls, and the hooks' lines in $DUMP/ran.txt."""
    ran = out.get("ran")
    if ran is None:
        ran = (out.get("events", {}).get("ran.txt") or "").splitlines()
    if host == "codex":
        # codex_run reports the main thread's calls; the subagent's are the script's.
        calls = len(out["tool_calls"]) + len(script.get("subagent", {}).get("tool_calls", []))
    else:
        calls = len(out["tool_results"])
        if expect.get("host_output_misses_subagents"):
            calls += expect["subagent_calls"]
    return calls, ran


def check(host, runner, name, bin_path, work):
    scen = prepare(host, name, bin_path, work)
    script = json.load(open(os.path.join(scen, "script.json")))
    expect = json.load(open(os.path.join(scen, "expect.json")))
    out = run_host(host, runner, name, scen, bin_path, work)
    run_dir = out.get("work")
    if not run_dir:
        raise RuntimeError(f"the harness kept no work folder: {json.dumps(out)[:800]}")
    home = os.path.join(run_dir, "home")
    project = os.path.join(home, "acme") if host == "codex" else os.path.join(run_dir, "proj")
    rc, report, stderr = coverage(bin_path, home, project)
    calls, ran = host_figures(host, out, script, expect)
    sessions = report.get("sessions", [])
    diffs = []
    if len(sessions) != 1:
        diffs.append(f"sessions: {len(sessions)} reported, 1 expected")
    summary = (sessions[0].get("summary") or {}) if sessions else {}
    status = sessions[0].get("status") if sessions else None
    if status != "covered":
        diffs.append(f"status: {status} ({sessions[0].get('why') if sessions else ''}), covered expected")
    not_seen = sum(summary.get(k, 0) for k in ("pre_not_routed", "pre_host_sent_nothing", "pre_refused"))
    measured = {"calls": summary.get("calls"), "pre_hooked": summary.get("pre_hooked"),
                "post_hooked": summary.get("post_hooked"), "not_seen": not_seen, "exit": rc}
    measured.update({k: summary.get(k) for k in ("pre_no_group", "pre_refused", "pre_not_routed",
                                                 "subagent_calls", "unguarded")})
    # Against the host's own output.
    # A call of several items (Cline's run_commands of two commands) is one call, whose hooks ran
    # once per item: the scenario says how many runs past one per call that makes.
    extra = expect.get("extra_item_runs", 0)
    against_host = {"calls": calls, "pre_hooked": ran.count("pre") - extra, "post_hooked": ran.count("post") - extra}
    if "native_pre" in expect:
        # The calls no dispatch saw that a PreToolUse group would have matched are the ones the
        # host's own (unrouted) PreToolUse hook ran for.
        against_host["unguarded"] = ran.count("native-pre")
    for key, want in against_host.items():
        if measured.get(key) != want:
            diffs.append(f"{key}: report {measured.get(key)}, host {want}")
    for key, want in expect.items():
        if key in measured and measured[key] != want:
            diffs.append(f"{key}: report {measured[key]}, expected {want}")
    return diffs, {"host": against_host, "report": measured, "work": run_dir, "stderr": stderr[-500:]}


def main():
    args = sys.argv[1:]
    keep = "--keep" in args
    args = [a for a in args if a != "--keep"]
    if len(args) != 3:
        sys.exit(__doc__)
    harness, bin_path, work = (os.path.abspath(a) for a in args)
    host, runner = host_of(harness)
    host_binary(harness, host)
    failed = 0
    for name in SCENARIOS_OF[host]:
        try:
            diffs, detail = check(host, runner, name, bin_path, work)
        except (RuntimeError, subprocess.SubprocessError, OSError, KeyError) as err:
            diffs, detail = [f"the run failed: {err}"], {}
        if diffs:
            failed += 1
            print(f"DIFF {name}")
            for diff in diffs:
                print(f"   {diff}")
            print(f"   kept: {detail.get('work')}")
        else:
            print(f"same {name}: {json.dumps(detail['report'], sort_keys=True)}")
            if not keep and detail.get("work"):
                shutil.rmtree(detail["work"], ignore_errors=True)
    total = len(SCENARIOS_OF[host])
    print(f"{total - failed}/{total} coverage scenarios agree with {host}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
