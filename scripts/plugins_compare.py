#!/usr/bin/env python3
"""Claude Code plugins, installed offline from a local marketplace, native and through hookmux.

usage: plugins_compare.py HARNESS_DIR record SCENARIO_DIR...
       plugins_compare.py HARNESS_DIR run SCENARIO_DIR [--install HOOKMUX] [--plugins]
       plugins_compare.py HARNESS_DIR compare HOOKMUX SCENARIO_DIR... [--modes installed,dispatch]

A scenario holds what the harness's cc_run_scopes.py reads (settings.json, script.json, files/,
user_settings.json, local_settings.json), and:
  marketplace/   a plugin marketplace (.claude-plugin/marketplace.json and the plugins it lists)
  plugins.json   the plugins to install: ["NAME@MARKETPLACE", ...], or objects
                 {"plugin": "NAME@MARKETPLACE", "scope": "user|project|local", "enabled": false}
Before the turn the marketplace is copied beside the project, added with the real
`claude plugin marketplace add`, and each plugin installed with `claude plugin install` (then
`claude plugin disable` when "enabled" is false), in the harness's HOME and project, as a user
does; what those commands said is in the result's "plugins".

record   runs each scenario natively and writes its native.json (paths normalized).
run      prints one run's result; --install HOOKMUX runs `hookmux install claude` first for every
         settings file with hooks, and --plugins also makes the installed entries run the
         plugins' hooks while Claude Code loads no user settings (see "dispatch" below).
compare  compares each scenario's native.json with:
  installed  `hookmux install claude` for every settings file with hooks: the settings' hooks run
             through dispatch, the plugins' hooks stay with Claude Code.
  dispatch   the same, with every event of the project settings routed to the installed entry
             with `--plugins` (`hookmux dispatch --installed --plugins`), and Claude Code started
             with `--setting-sources project,local`, so that it does not see the user settings'
             `enabledPlugins` and runs no plugin: hookmux runs the plugins' hooks instead, as it
             does under hosts that do not run them. Only for scenarios whose plugins are all
             installed at user scope and none enabled by managed settings (Claude Code loads
             those whatever --setting-sources says).
  Verdict: the harness's dropin_compare.py summary (which hooks ran, as written to $DUMP/ran.txt,
  with repeats; tool results; the turn's end; which of the hooks' strings reached the model), with
  the strings of the settings and of every plugin's hooks files. Exit 0 when every run is `same`.
"""
import json, os, shutil, subprocess, sys, tempfile

HARNESS = os.path.abspath(sys.argv[1])
sys.path.insert(0, HARNESS)
import cc_run_scopes as cc  # noqa: E402
import dropin_compare as dc  # noqa: E402

real_run = subprocess.run


def claude():
    return os.environ.get("CLAUDE_BIN", "claude")


def plugin_items(scen):
    items = json.load(open(os.path.join(scen, "plugins.json")))
    return [item if isinstance(item, dict) else {"plugin": item} for item in items]


def install_plugins(scen, proj, record):
    work = os.path.dirname(proj)
    home = os.path.join(work, "home")
    market = os.path.join(work, "marketplace")
    shutil.copytree(os.path.join(scen, "marketplace"), market)
    env = dict(os.environ, HOME=home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1")
    env.pop("CLAUDE_CONFIG_DIR", None)
    steps = [["plugin", "marketplace", "add", market]]
    for item in plugin_items(scen):
        scope = item.get("scope", "user")
        steps.append(["plugin", "install", item["plugin"], "--scope", scope])
        if item.get("enabled") is False:
            steps.append(["plugin", "disable", item["plugin"], "--scope", scope])
    for step in steps:
        p = real_run([claude()] + step, cwd=proj, env=env, capture_output=True, text=True, timeout=60)
        record.append({"cmd": " ".join(step), "rc": p.returncode, "out": (p.stdout + p.stderr)[-500:]})
        if p.returncode != 0:
            sys.exit(f"plugins_compare.py: `claude {' '.join(step)}` failed: {p.stdout}{p.stderr}")


class Subprocess:
    """The subprocess module as cc_run_scopes.py uses it, with two steps added: the plugins are
    installed right after the project's `git init`, and, for the dispatch variant, the installed
    entries get `--plugins` right before Claude Code starts."""

    def __init__(self, scen, record, plugins_flag):
        self.scen, self.record, self.plugins_flag = scen, record, plugins_flag
        self.proj = None

    def __getattr__(self, name):
        return getattr(subprocess, name)

    def run(self, cmd, *args, **kwargs):
        if self.plugins_flag and cmd and cmd[0] == claude() and "-p" in cmd:
            add_plugins_flag(self.proj)
        result = real_run(cmd, *args, **kwargs)
        if cmd == ["git", "init", "-q"]:
            self.proj = kwargs["cwd"]
            install_plugins(self.scen, self.proj, self.record)
        return result


def add_plugins_flag(proj):
    """Every event of the project settings routed to `hookmux dispatch --installed --plugins`: the
    plugins' hooks may use events that the settings do not."""
    path = os.path.join(proj, ".claude", "settings.json")
    settings = json.load(open(path))
    entry = {"type": "command", "command": "hookmux dispatch --installed --plugins", "timeout": 600}
    settings["hooks"] = {event: [{"hooks": [entry]}] for event in dc.EVENTS}
    json.dump(settings, open(path, "w"), indent=1)


def run(scen, install=None, plugins_flag=False):
    scen = os.path.abspath(scen)
    record = []
    cc.subprocess = Subprocess(scen, record, plugins_flag)
    if plugins_flag:
        # Claude Code without the user settings: it sees no user-scope plugin.
        copy = tempfile.mkdtemp(prefix="plugins-dispatch-")
        target = os.path.join(copy, os.path.basename(scen))
        shutil.copytree(scen, target)
        script = json.load(open(os.path.join(target, "script.json")))
        script["extra_args"] = script.get("extra_args", []) + ["--setting-sources", "project,local"]
        json.dump(script, open(os.path.join(target, "script.json"), "w"))
        try:
            out = cc.run_scenario(target, claude(), keep=True, install=install, api_log=True)
        finally:
            shutil.rmtree(copy, ignore_errors=True)
    else:
        out = cc.run_scenario(scen, claude(), keep=True, install=install, api_log=True)
    out["plugins"] = record
    out["x_hook_texts"] = hook_texts(os.path.join(out["work"], "api.jsonl"))
    shutil.rmtree(out["work"], ignore_errors=True)
    out["work"] = None
    return json.loads(cc.normalize_text(json.dumps(out)))


def hook_texts(api_log):
    """Every text the model was sent that a hook put there, whole (the wake-up's context is
    many lines, some of which start with `- `)."""
    texts = []
    if not os.path.exists(api_log):
        return texts
    for line in open(api_log):
        body = json.loads(line)["body"]
        if not body.get("tools"):
            continue
        for message in body.get("messages", []):
            content = message["content"] if isinstance(message["content"], list) else [{"type": "text", "text": message["content"]}]
            for c in content:
                t = c.get("text") if c.get("type") == "text" else c.get("content") if c.get("type") == "tool_result" else None
                t = t if isinstance(t, str) else json.dumps(t) if t is not None else ""
                if (" hook " in t or "hook feedback" in t.lower()) and t not in texts:
                    texts.append(t)
    return texts


def dispatch_applies(scen):
    """The dispatch variant hides the plugins from Claude Code by not loading the user settings;
    a plugin installed for the project (project or local scope) or enabled by managed settings,
    which Claude Code loads whatever --setting-sources says, would run twice."""
    if any(i.get("scope", "user") != "user" for i in plugin_items(scen)):
        return False
    managed = os.path.join(scen, "managed_settings.json")
    return not (os.path.exists(managed) and json.load(open(managed)).get("enabledPlugins"))


def markers(scen):
    marks = set(dc.scenario_markers(scen))
    script = open(os.path.join(scen, "script.json")).read()
    for dirpath, _, names in os.walk(os.path.join(scen, "marketplace")):
        for name in names:
            if name.endswith(".json"):
                try:
                    marks |= {m for m in dc.markers(json.load(open(os.path.join(dirpath, name)))) if m not in script}
                except (ValueError, AttributeError):
                    pass
    return sorted(marks)


def main():
    action, rest = sys.argv[2], sys.argv[3:]
    if action == "record":
        for scen in rest:
            res = run(scen)
            json.dump(res, open(os.path.join(scen, "native.json"), "w"), indent=1, ensure_ascii=False)
            print(f"recorded {scen}")
        return 0
    if action == "run":
        install = rest[rest.index("--install") + 1] if "--install" in rest else None
        print(json.dumps(run(rest[0], install, "--plugins" in rest), indent=1, ensure_ascii=False))
        return 0
    modes = ["installed", "dispatch"]
    if "--modes" in rest:
        i = rest.index("--modes")
        modes = rest[i + 1].split(",")
        del rest[i:i + 2]
    hookmux, scens = os.path.abspath(rest[0]), rest[1:]
    failed = 0
    totals = {m: [0, 0] for m in modes}
    for scen in scens:
        scen = scen.rstrip("/")
        name = os.path.basename(scen)
        marks = markers(scen)
        native = json.load(open(os.path.join(scen, "native.json")))
        for mode in modes:
            if mode == "dispatch" and not dispatch_applies(scen):
                continue
            res = run(scen, install=hookmux, plugins_flag=mode == "dispatch")
            a, b = dc.summary(native, marks), dc.summary(res, marks)
            same = a == b
            bad_install = [i for i in res.get("install") or [] if i["rc"] != 0]
            same = same and not bad_install
            totals[mode][0] += same
            totals[mode][1] += 1
            failed += not same
            print(f"{'same' if same else 'DIFF'} {mode:9} {name}"
                  + ("" if same else f"\n   native: {json.dumps(a, ensure_ascii=False)}\n   {mode:7}: {json.dumps(b, ensure_ascii=False)}")
                  + (f"\n   install failed: {bad_install}" if bad_install else ""), flush=True)
    for mode, (ok, n) in totals.items():
        print(f"{mode}: {ok}/{n} scenarios equivalent")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
