#!/usr/bin/env python3
"""Many hooks at once: `hookmux dispatch` over N matching hooks against the same N spawns run one
after another by a shell loop, in paired rounds.

usage: many.py HOOKMUX [--sizes 1,5,20,100,1000] [--rounds R] [--budget SECONDS]

Each hook is `true I` through `/bin/sh -c` (the I keeps the hooks distinct, so none is
deduplicated) with the event on its stdin; the loop runs `sh -c 'true I' < event.json` for I = 1
to N. Both sides are started the same way and timed with wait4(): wall time, CPU time (user +
system, the hooks included, since each side reaps them) and peak RSS of the largest process (for
dispatch, dispatch itself). Each round runs both sides in turn, alternating which goes first, so
slow phases of a shared machine hit both alike; the figures are medians over all runs, and the
ratios medians of the per-round ratios.
"""
import json, os, statistics, sys, tempfile, time


def run(argv, stdin_path, env):
    with open(stdin_path, "rb") as stdin, open(os.devnull, "wb") as null:
        started = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, stdin.fileno(), 0),
            (os.POSIX_SPAWN_DUP2, null.fileno(), 1),
        ])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv} exited with {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    hookmux = os.path.abspath(args.pop(0))
    sizes, rounds, budget = [1, 5, 20, 100, 1000], 5, 20.0
    while args:
        flag, value = args.pop(0), args.pop(0)
        if flag == "--sizes":
            sizes = [int(size) for size in value.split(",")]
        elif flag == "--rounds":
            rounds = int(value)
        elif flag == "--budget":
            budget = float(value)
        else:
            sys.exit(__doc__)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as work:
        home = os.path.join(work, "home")
        os.mkdir(home)
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C"}
        with open(os.path.join(repo, "fixtures/events/PreToolUse-Bash.json"), "rb") as source:
            event = json.loads(source.read())
        event["cwd"] = work
        event_path = os.path.join(work, "event.json")
        with open(event_path, "w") as out:
            json.dump(event, out)
        print(f"{'hooks':>6} {'dispatch wall':>14} {'loop wall':>10} {'wall ratio':>10} "
              f"{'dispatch CPU':>13} {'loop CPU':>9} {'CPU ratio':>9} {'peak RSS':>9}")
        for n in sizes:
            settings = os.path.join(work, f"many-{n}.json")
            hooks = [{"type": "command", "command": f"true {i}"} for i in range(1, n + 1)]
            with open(settings, "w") as out:
                json.dump({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}}, out)
            loop = os.path.join(work, f"loop-{n}.sh")
            with open(loop, "w") as out:
                out.write(f"i=1; while [ $i -le {n} ]; do sh -c \"true $i\" < {event_path}; i=$((i+1)); done\n")
            sides = {
                "dispatch": [hookmux, "dispatch", "--settings", settings],
                "loop": ["/bin/sh", loop],
            }
            # As many runs a round as fit the budget, judged from one run of each.
            os.chdir(work)
            probe = sum(run(argv, event_path, env)[0] for argv in sides.values())
            runs = max(1, min(50, int(budget / rounds / max(probe, 1e-3))))
            walls = {side: [] for side in sides}
            cpus = {side: [] for side in sides}
            rss = []
            wall_ratios, cpu_ratios = [], []
            for r in range(rounds):
                order = list(sides) if r % 2 == 0 else list(reversed(sides))
                round_walls = {side: [] for side in sides}
                round_cpus = {side: [] for side in sides}
                for _ in range(runs):
                    for side in order:
                        wall, cpu, maxrss = run(sides[side], event_path, env)
                        round_walls[side].append(wall)
                        round_cpus[side].append(cpu)
                        if side == "dispatch":
                            rss.append(maxrss)
                for side in sides:
                    walls[side] += round_walls[side]
                    cpus[side] += round_cpus[side]
                wall_ratios.append(statistics.median(round_walls["dispatch"]) / statistics.median(round_walls["loop"]))
                cpu_ratios.append(statistics.median(round_cpus["dispatch"]) / statistics.median(round_cpus["loop"]))
            med = statistics.median
            print(f"{n:>6} {med(walls['dispatch']) * 1000:>12.1f}ms {med(walls['loop']) * 1000:>8.1f}ms "
                  f"{med(wall_ratios):>9.2f}x {med(cpus['dispatch']) * 1000:>11.1f}ms "
                  f"{med(cpus['loop']) * 1000:>7.1f}ms {med(cpu_ratios):>8.2f}x {med(rss) / 1024:>7.1f}MiB"
                  f"   ({rounds}x{runs} runs)", flush=True)


if __name__ == "__main__":
    main()
