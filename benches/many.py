#!/usr/bin/env python3
"""Many hooks at once: `hookmux dispatch` over N matching hooks against the same N spawns run one
after another by a shell loop, in paired rounds; optionally against another hookmux binary too.

usage: many.py HOOKMUX [--baseline OTHER_HOOKMUX] [--baseline-max N] [--sizes 5,20,...]
                       [--rounds R] [--budget SECONDS]

Each hook is `true I` through `/bin/sh -c` (the I keeps the hooks distinct, so none is
deduplicated) with the event on its stdin; the loop runs `sh -c 'true I' < event.json` for I = 1
to N. Every side is started the same way and timed with wait4(): wall time, CPU time (user +
system, the hooks included, since each side reaps them) and peak RSS of the largest process (for
dispatch, dispatch itself). Each round runs every side in turn, rotating which goes first, so slow
phases of a shared machine hit all alike; the figures are medians over all runs, the ratios
medians of the per-round ratios (dispatch's over the other side's). The `sessions` side is the
floor under dispatch's CPU time: the same commands started at once by this script itself, from one
thread, each in a session of its own as dispatch starts hooks (posix_spawn with setsid), then
waited for (dispatch starts hooks from several threads, so its wall time can be lower). `--baseline` adds OTHER_HOOKMUX (an older build, say) as a third
side for sizes up to `--baseline-max` (default 1000), and its ratio to HOOKMUX.

Needs python3 only. Where os.wait4 is missing (Windows), only wall time is measured.
"""
import json, os, statistics, subprocess, sys, tempfile, time

PEAK_RSS_UNIT = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB elsewhere


def run(argv, stdin_path, env):
    """Wall seconds, CPU seconds (None where unknown) and peak RSS in bytes (None) of one run."""
    if callable(argv):
        return argv()
    with open(stdin_path, "rb") as stdin:
        started = time.perf_counter()
        if hasattr(os, "wait4"):
            child = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, env=env)
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            cpu, rss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss * PEAK_RSS_UNIT
        else:
            child = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, env=env)
            cpu, rss = None, None
        wall = time.perf_counter() - started
    if child.returncode != 0:
        sys.exit(f"{argv} exited with {child.returncode}")
    return wall, cpu, rss


def sessions_side(n, stdin_path, env):
    """The floor under dispatch's CPU time: the same N commands started at once, each in a session of its
    own as hooks are (posix_spawn with setsid), by this process, then waited for; CPU time is
    this process's own spawning and the commands'. None where posix_spawn cannot start a
    session (or Python does not offer it)."""
    if not hasattr(os, "posix_spawn"):
        return None
    import resource

    def side():
        with open(stdin_path, "rb") as stdin, open(os.devnull, "wb") as null:
            actions = [(os.POSIX_SPAWN_DUP2, stdin.fileno(), 0), (os.POSIX_SPAWN_DUP2, null.fileno(), 1)]
            own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            pids = [os.posix_spawn("/bin/sh", ["sh", "-c", f"true {i}"], env, file_actions=actions, setsid=True)
                    for i in range(1, n + 1)]
            for pid in pids:
                os.waitpid(pid, 0)
            wall = time.perf_counter() - started
            own_after, children_after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = sum(after.ru_utime + after.ru_stime - (before.ru_utime + before.ru_stime)
                  for before, after in ((own, own_after), (children, children_after)))
        return wall, cpu, None

    try:
        side()
    except (NotImplementedError, TypeError, OSError):
        return None
    return side


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def ms(seconds):
    return "-" if seconds is None else f"{seconds * 1000:.1f}ms"


def ratio(value):
    return "-" if value is None else f"{value:.2f}x"


def parse(args):
    options = {"hookmux": os.path.abspath(args.pop(0)), "baseline": None, "baseline_max": 1000,
               "sizes": [5, 20, 50, 100, 250, 500, 1000, 2000], "rounds": 5, "budget": 20.0}
    while args:
        flag = args.pop(0)
        if not args:
            sys.exit(__doc__)
        value = args.pop(0)
        if flag == "--sizes":
            options["sizes"] = [int(size) for size in value.split(",")]
        elif flag == "--rounds":
            options["rounds"] = int(value)
        elif flag == "--budget":
            options["budget"] = float(value)
        elif flag == "--baseline":
            options["baseline"] = os.path.abspath(value)
        elif flag == "--baseline-max":
            options["baseline_max"] = int(value)
        else:
            sys.exit(__doc__)
    return options


def bench(n, sides, event_path, env, rounds, budget):
    """Medians per side and per-round ratios of each side to `dispatch`'s."""
    # As many runs a round as fit the budget, judged from one run of each side.
    probe = sum(run(argv, event_path, env)[0] for argv in sides.values())
    runs = max(1, min(50, int(budget / rounds / max(probe, 1e-3))))
    samples = {side: {"wall": [], "cpu": [], "rss": []} for side in sides}
    per_round = {side: {"wall": [], "cpu": []} for side in sides if side != "dispatch"}
    names = list(sides)
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        this_round = {side: {"wall": [], "cpu": []} for side in sides}
        for _ in range(runs):
            for side in order:
                wall, cpu, rss = run(sides[side], event_path, env)
                for key, value in (("wall", wall), ("cpu", cpu), ("rss", rss)):
                    samples[side][key].append(value)
                this_round[side]["wall"].append(wall)
                this_round[side]["cpu"].append(cpu)
        for side in per_round:
            for key in ("wall", "cpu"):
                ours, theirs = median_or_none(this_round["dispatch"][key]), median_or_none(this_round[side][key])
                per_round[side][key].append(ours / theirs if ours is not None and theirs else None)
    medians = {side: {key: median_or_none(values) for key, values in kinds.items()} for side, kinds in samples.items()}
    ratios = {side: {key: median_or_none(values) for key, values in kinds.items()} for side, kinds in per_round.items()}
    return medians, ratios, runs


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        sys.exit(__doc__)
    options = parse(args)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as work:
        home = os.path.join(work, "home")
        os.mkdir(home)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C"}
        with open(os.path.join(repo, "fixtures/events/PreToolUse-Bash.json"), "rb") as source:
            event = json.loads(source.read())
        event["cwd"] = work
        event_path = os.path.join(work, "event.json")
        with open(event_path, "w") as out:
            json.dump(event, out)
        header = (f"{'hooks':>6} {'dispatch wall':>13} {'loop wall':>10} {'ratio':>6} {'dispatch CPU':>12} "
                  f"{'loop CPU':>9} {'ratio':>6} {'peak RSS':>9} | {'sessions wall':>13} {'CPU':>8} "
                  f"{'wall ratio':>10} {'CPU ratio':>9}")
        if options["baseline"]:
            header += f" | {'baseline wall':>13} {'baseline CPU':>12} {'wall ratio':>10} {'CPU ratio':>9}"
        print(header)
        os.chdir(work)
        for n in options["sizes"]:
            settings = os.path.join(work, f"many-{n}.json")
            hooks = [{"type": "command", "command": f"true {i}"} for i in range(1, n + 1)]
            with open(settings, "w") as out:
                json.dump({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}}, out)
            loop = os.path.join(work, f"loop-{n}.sh")
            with open(loop, "w") as out:
                out.write(f"i=1; while [ $i -le {n} ]; do sh -c \"true $i\" < {event_path}; i=$((i+1)); done\n")
            sides = {"dispatch": [options["hookmux"], "dispatch", "--settings", settings], "loop": ["/bin/sh", loop]}
            sessions = sessions_side(n, event_path, env)
            if sessions:
                sides["sessions"] = sessions
            if options["baseline"] and n <= options["baseline_max"]:
                sides["baseline"] = [options["baseline"], "dispatch", "--settings", settings]
            medians, ratios, runs = bench(n, sides, event_path, env, options["rounds"], options["budget"])
            rss = medians["dispatch"]["rss"]
            line = (f"{n:>6} {ms(medians['dispatch']['wall']):>13} {ms(medians['loop']['wall']):>10} "
                    f"{ratio(ratios['loop']['wall']):>6} {ms(medians['dispatch']['cpu']):>12} "
                    f"{ms(medians['loop']['cpu']):>9} {ratio(ratios['loop']['cpu']):>6} "
                    f"{'-' if rss is None else f'{rss / 2**20:.1f}MiB':>9}")
            sessions = sides.get("sessions") and medians["sessions"]
            line += (f" | {ms(sessions and sessions['wall']):>13} {ms(sessions and sessions['cpu']):>8} "
                     f"{ratio(sessions and ratios['sessions']['wall']):>10} "
                     f"{ratio(sessions and ratios['sessions']['cpu']):>9}")
            if "baseline" in sides:
                line += (f" | {ms(medians['baseline']['wall']):>13} {ms(medians['baseline']['cpu']):>12} "
                         f"{ratio(ratios['baseline']['wall']):>10} {ratio(ratios['baseline']['cpu']):>9}")
            print(f"{line}   ({options['rounds']}x{runs} runs)", flush=True)


if __name__ == "__main__":
    main()
