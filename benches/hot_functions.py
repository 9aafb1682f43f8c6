#!/usr/bin/env python3
"""Lists the functions of hookmux's own image that its hook paths run, for the release link.

usage: benches/hot_functions.py HOOKMUX [--out FILE | --check]

Runs HOOKMUX under valgrind's callgrind on what a host starts on every tool call: `dispatch` of
20 groups that match nothing, `dispatch` of a group whose command hook runs, `dispatch` of a
Write that protect-paths checks in-process, and `run protect-paths`; each in a temporary HOME
with the trace on. Writes (default: scripts/link/hot-functions.txt) the mangled names of the
functions of HOOKMUX they executed, without the parts that change from one build to the next
(a legacy name's hash, a crate's disambiguator, LLVM's `.llvm.N` suffix): scripts/link/cc-hot
reads them at the release link and lays those functions out first, so that the pages a hook
call touches are few and together. See docs/src/benchmarks.md.

--check writes nothing: it says how many of the functions the profile ran the list names, and
exits 1 when that is under 90 % (the code has moved on since the list was written: run this
without --check on a release build and commit the list).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def key(name):
    name = re.sub(r"\.llvm\.[0-9]+$", "", name)
    name = re.sub(r"'[0-9]+$", "", name)  # callgrind's mark of a recursion level
    name = re.sub(r"17h[0-9a-f]{16}E$", "", name)
    return re.sub(r"Cs[0-9A-Za-z]+_", "Cs_", name)


def executed(profile, image):
    """Names of the functions of `image` that ran, from a callgrind profile (name compression on)."""
    objects, functions, found = {}, {}, []
    current = None
    for line in open(profile, encoding="utf-8", errors="replace"):
        m = re.match(r"^(ob|cob|fn|cfn|fl|fi|fe|cfi|cfl)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, ident, name = m.groups()
        if kind in ("ob", "cob"):
            if name:
                objects[ident] = name
            if kind == "ob":
                current = objects.get(ident)
        elif kind in ("fn", "cfn"):
            if name:
                functions[ident] = name
            if kind == "fn" and current and os.path.realpath(current) == image:
                found.append(functions[ident])
    return found


def main():
    args = sys.argv[1:]
    out = os.path.join(ROOT, "scripts", "link", "hot-functions.txt")
    check = "--check" in args
    if check:
        args.remove("--check")
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1]
        del args[i : i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    hookmux = os.path.realpath(args[0])
    if not shutil.which("valgrind"):
        sys.exit("hot_functions.py: needs valgrind (callgrind)")
    with tempfile.TemporaryDirectory() as work:
        groups = [
            {"matcher": f"Write|Edit|mcp__srv{i}__.*", "hooks": [{"type": "command", "command": f"./hooks/check-{i}.sh"}]}
            for i in range(20)
        ]
        with open(os.path.join(work, "nomatch.json"), "w") as f:
            json.dump({"hooks": {"PreToolUse": groups}}, f)
        with open(os.path.join(work, "match.json"), "w") as f:
            json.dump({"hooks": {"PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 10}]},
                {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "hookmux run protect-paths"}]},
            ]}}, f)
        home = os.path.join(work, "home")
        os.mkdir(home)
        env = dict(os.environ, HOME=home, XDG_STATE_HOME=os.path.join(home, "state"))
        env.pop("HOOKMUX_TRACE", None)
        events = os.path.join(ROOT, "fixtures", "events")
        runs = [
            (["dispatch", "--settings", "nomatch.json"], "PreToolUse-Bash.json"),
            (["dispatch", "--settings", "match.json"], "PreToolUse-Bash.json"),
            (["dispatch", "--settings", "match.json"], "PreToolUse-Write.json"),
            (["run", "protect-paths"], "PreToolUse-Write.json"),
        ]
        names, seen = [], set()
        for n, (argv, event) in enumerate(runs):
            profile = os.path.join(work, f"callgrind.{n}")
            with open(os.path.join(events, event), "rb") as stdin:
                done = subprocess.run(
                    ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}", hookmux] + argv,
                    stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=work, text=True,
                )
            if not os.path.exists(profile):
                sys.exit(f"hot_functions.py: callgrind failed on {' '.join(argv)}: {done.stderr[-2000:]}")
            for name in executed(profile, hookmux):
                k = key(name)
                if k not in seen and not k.startswith("0x"):
                    seen.add(k)
                    names.append(k)
    if check:
        with open(out) as f:
            listed = {key(line.strip()) for line in f if line.strip() and not line.startswith("#")}
        missing = [n for n in names if n not in listed]
        share = 1 - len(missing) / max(len(names), 1)
        print(f"hot_functions.py: {len(names) - len(missing)} of the {len(names)} functions the hook paths ran are in {out} ({share:.0%})")
        for name in missing[:20]:
            print(f"  not listed: {name}")
        sys.exit(0 if share >= 0.9 else 1)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("# Functions hookmux's hook paths run, laid out first at the release link (scripts/link/cc-hot).\n")
        f.write("# Written by benches/hot_functions.py; a name no longer in the build is skipped.\n")
        f.write("\n".join(names) + "\n")
    os.replace(tmp, out)
    print(f"hot_functions.py: {len(names)} functions -> {out}")


if __name__ == "__main__":
    main()
