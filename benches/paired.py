#!/usr/bin/env python3
"""Paired whole-process timing: median of per-round ratios against a baseline.

usage: paired.py [--rounds R] [--runs N] BASELINE_CMD CMD...

Each round runs every command N times under hyperfine (-N, no shell), in a rotating order, and
takes each command's median; the ratio to the baseline is computed per round, so slow phases of
a shared, noisy machine hit both sides of a ratio alike. Prints per-command medians (over all
rounds) and the median of the per-round ratios.
"""
import json, statistics, subprocess, sys, tempfile, os


def main():
    args = sys.argv[1:]
    rounds, runs = 10, 100
    if "--rounds" in args:
        i = args.index("--rounds"); rounds = int(args[i + 1]); del args[i:i + 2]
    if "--runs" in args:
        i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
    commands = args
    medians = {c: [] for c in commands}
    ratios = {c: [] for c in commands[1:]}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "h.json")
        for r in range(rounds):
            order = commands[r % len(commands):] + commands[:r % len(commands)]
            subprocess.run(["hyperfine", "-N", "--warmup", "10", "--runs", str(runs), "--style", "none",
                            "--export-json", out, *order], check=True, stdout=subprocess.DEVNULL)
            res = {b["command"]: statistics.median(b["times"]) for b in json.load(open(out))["results"]}
            for c in commands:
                medians[c].append(res[c])
            for c in commands[1:]:
                ratios[c].append(res[c] / res[commands[0]])
    base = commands[0]
    print(f"{'command':70} {'median':>10} {'ratio':>8}")
    print(f"{base[:70]:70} {statistics.median(medians[base]) * 1000:8.3f}ms {'1.00x':>8}")
    for c in commands[1:]:
        print(f"{c[:70]:70} {statistics.median(medians[c]) * 1000:8.3f}ms {statistics.median(ratios[c]):7.2f}x")


if __name__ == "__main__":
    main()
