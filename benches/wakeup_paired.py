#!/usr/bin/env python3
"""Median of paired runs: `hookmux run wakeup` and `/bin/true`, each started as
`sh -c 'cd PROJECT && exec …'`, alternated so that both see the same machine load.

Usage: wakeup_paired.py PROJECT HOOKMUX EVENT_JSON [HYPERFINE_JSON]
Prints the hyperfine medians (when given) and the paired medians and ratio.
"""
import json
import statistics
import subprocess
import sys
import time


def timed(command, stdin):
    with open(stdin, "rb") as event:
        start = time.perf_counter()
        subprocess.run(["sh", "-c", command], stdin=event, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start


def main():
    project, hookmux, event = sys.argv[1:4]
    if len(sys.argv) > 4:
        results = json.load(open(sys.argv[4]))["results"]
        medians = [statistics.median(r["times"]) * 1000 for r in results]
        print(f"hyperfine medians: wakeup {medians[0]:.2f} ms, /bin/true {medians[1]:.2f} ms")
    wakeup_cmd = f"cd {project} && exec {hookmux} run wakeup"
    true_cmd = f"cd {project} && exec /bin/true"
    for _ in range(10):
        timed(wakeup_cmd, event)
    pairs = [(timed(wakeup_cmd, event), timed(true_cmd, event)) for _ in range(200)]
    wakeup = statistics.median(p[0] for p in pairs) * 1000
    true = statistics.median(p[1] for p in pairs) * 1000
    ratio = statistics.median(p[0] / p[1] for p in pairs)
    print(f"paired (200): wakeup {wakeup:.2f} ms, /bin/true {true:.2f} ms, median ratio {ratio:.2f}x")


if __name__ == "__main__":
    main()
