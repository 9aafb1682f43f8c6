#!/usr/bin/env python3
"""Start-up cost of hookmux's hook paths: whole processes, paired, with page faults and peak memory.

usage: startup.py [--runs N] [--direct] [--instructions] [--against OLD_HOOKMUX] [--baseline PROGRAM] HOOKMUX

Runs, in rotating order within every round (so a slow moment of a shared machine hits every
command alike), each of:
  baseline                    /bin/true (Linux), /usr/bin/true (macOS), hostname.exe (Windows)
  dispatch, 20 groups         `hookmux dispatch --settings nomatch.json`, a Bash event that none of
                              the 20 groups matches, the trace on
  dispatch, trace off         the same with HOOKMUX_TRACE=0
  run protect-paths           `hookmux run protect-paths` on a Write event
  --version
and, with --against, the same hook commands of another hookmux build, for a head-to-head.

Every command gets its event on stdin from a file. On Linux and macOS each is started as
`sh -c 'exec COMMAND < EVENT'` (the shell a host starts a hook command with; the baseline pays
the same shell), unless --direct. For every command it prints the median wall time, the median
CPU time (user + system), the median of the per-round ratios of both to the baseline (and to
--against), the minor page faults and the peak resident memory. CPU time is wait4's rusage on
Linux and macOS. Page faults and peak memory come from a second pass run directly under
/usr/bin/time (`-f '%R %M'` on Linux, `-l` on macOS): a process started by Python would inherit
Python's own peak at exec, so /usr/bin/time's small one is the floor instead (about 1 MiB: what
the baseline shows). On Windows all of it comes from GetProcessTimes and GetProcessMemoryInfo
(PageFaultCount, which counts soft faults too, and PeakWorkingSetSize), no shell. The trace is
written into a temporary HOME, never the user's.

--instructions adds the instructions each command executes, counted once by valgrind's callgrind
(Linux; the same count whatever else the machine is doing, so builds compare on a busy machine).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

WINDOWS = os.name == "nt"


def default_baseline():
    if WINDOWS:
        return os.path.join(os.environ.get("SystemRoot", r"C:\Windows"), "System32", "hostname.exe")
    for path in ("/bin/true", "/usr/bin/true"):
        if os.path.exists(path):
            return path
    return shutil.which("true")


def write_inputs(work, root):
    """The 20 groups no Bash call matches, and the events, in `work`."""
    groups = [
        {
            "matcher": f"Write|Edit|mcp__srv{i}__.*",
            "hooks": [{"type": "command", "command": f"./hooks/check-{i}.sh", "timeout": 10}],
        }
        for i in range(20)
    ]
    with open(os.path.join(work, "nomatch.json"), "w") as f:
        json.dump({"hooks": {"PreToolUse": groups}}, f)
    for name in ("PreToolUse-Bash.json", "PreToolUse-Write.json"):
        shutil.copy(os.path.join(root, "fixtures", "events", name), os.path.join(work, name))


class Sample:
    def __init__(self, wall, cpu, faults=None, peak_kib=None):
        self.wall, self.cpu, self.faults, self.peak_kib = wall, cpu, faults, peak_kib


def run_unix(argv, stdin_path, env, direct):
    """Wall and CPU time of one run."""
    if direct:
        stdin = open(stdin_path, "rb")
        args = argv
    else:
        stdin = subprocess.DEVNULL
        quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in argv)
        args = ["sh", "-c", f"exec {quoted} < '{stdin_path}'"]
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if direct:
        stdin.close()
    return Sample(wall, usage.ru_utime + usage.ru_stime)


def memory_unix(argv, stdin_path, env):
    """Minor page faults and peak resident KiB of one run, started directly by /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as out, open(stdin_path, "rb") as stdin:
        if sys.platform == "darwin":
            time_argv = ["/usr/bin/time", "-l", "-o", out.name]
        else:
            time_argv = ["/usr/bin/time", "-f", "%R %M", "-o", out.name]
        subprocess.run(time_argv + argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        text = out.read()
    if sys.platform == "darwin":
        fields = {line.strip().split(None, 1)[1]: int(line.split()[0]) for line in text.splitlines()
                  if line.strip() and line.split()[0].isdigit()}
        return fields.get("page reclaims"), fields.get("maximum resident set size", 0) / 1024
    faults, peak = text.split()[-2:]
    return int(faults), int(peak)


def run_windows(argv, stdin_path, env, direct):
    import ctypes
    from ctypes import wintypes

    class Counters(ctypes.Structure):
        _fields_ = [
            ("cb", wintypes.DWORD),
            ("PageFaultCount", wintypes.DWORD),
            ("PeakWorkingSetSize", ctypes.c_size_t),
            ("WorkingSetSize", ctypes.c_size_t),
            ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
            ("QuotaPagedPoolUsage", ctypes.c_size_t),
            ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
            ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
            ("PagefileUsage", ctypes.c_size_t),
            ("PeakPagefileUsage", ctypes.c_size_t),
        ]

    kernel32, psapi = ctypes.windll.kernel32, ctypes.windll.psapi
    kernel32.WaitForSingleObject.argtypes = [wintypes.HANDLE, wintypes.DWORD]
    kernel32.GetProcessTimes.argtypes = [wintypes.HANDLE] + [ctypes.POINTER(wintypes.FILETIME)] * 4
    psapi.GetProcessMemoryInfo.argtypes = [wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD]
    with open(stdin_path, "rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        handle = int(proc._handle)
        kernel32.WaitForSingleObject(handle, 0xFFFFFFFF)
        wall = time.perf_counter() - start
        times = [wintypes.FILETIME() for _ in range(4)]
        kernel32.GetProcessTimes(handle, *[ctypes.byref(t) for t in times])
        ticks = lambda t: (t.dwHighDateTime << 32 | t.dwLowDateTime) / 1e7  # noqa: E731
        counters = Counters()
        counters.cb = ctypes.sizeof(Counters)
        psapi.GetProcessMemoryInfo(handle, ctypes.byref(counters), counters.cb)
        proc.wait()
    return Sample(wall, ticks(times[2]) + ticks(times[3]), counters.PageFaultCount, counters.PeakWorkingSetSize / 1024)


def memory_windows(argv, stdin_path, env):
    sample = run_windows(argv, stdin_path, env, True)
    return sample.faults, sample.peak_kib


def instructions(argv, stdin_path, env):
    """Instructions executed (user space, the dynamic loader included), counted by callgrind."""
    with open(stdin_path, "rb") as stdin:
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv, stdin=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def main():
    args = sys.argv[1:]
    runs, direct, against, baseline, count = 200, False, None, default_baseline(), False
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--runs":
            runs = int(args.pop(0))
        elif flag == "--direct":
            direct = True
        elif flag == "--instructions":
            count = True
        elif flag == "--against":
            against = os.path.abspath(args.pop(0))
        elif flag == "--baseline":
            baseline = args.pop(0)
        else:
            sys.exit(f"startup.py: unknown option {flag} (see the top of this file)")
    if len(args) != 1:
        sys.exit("usage: startup.py [--runs N] [--direct] [--instructions] [--against OLD_HOOKMUX] "
                 "[--baseline PROGRAM] HOOKMUX")
    hookmux = os.path.abspath(args[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    direct = direct or WINDOWS
    run = run_windows if WINDOWS else run_unix
    memory = memory_windows if WINDOWS else memory_unix
    if not WINDOWS and not os.path.exists("/usr/bin/time"):
        memory = None

    with tempfile.TemporaryDirectory() as work:
        write_inputs(work, root)
        home = os.path.join(work, "home")
        os.mkdir(home)
        state = os.path.join(home, "state")
        env = dict(os.environ, HOME=home, USERPROFILE=home, LOCALAPPDATA=home, XDG_STATE_HOME=state)
        env.pop("HOOKMUX_TRACE", None)
        off = dict(env, HOOKMUX_TRACE="0")
        bash, write = os.path.join(work, "PreToolUse-Bash.json"), os.path.join(work, "PreToolUse-Write.json")
        nomatch = os.path.join(work, "nomatch.json")

        def hook_commands(binary, label):
            return [
                (f"{label}dispatch, 20 groups, no match", [binary, "dispatch", "--settings", nomatch], bash, env),
                (f"{label}dispatch, the same, HOOKMUX_TRACE=0", [binary, "dispatch", "--settings", nomatch], bash, off),
                (f"{label}run protect-paths", [binary, "run", "protect-paths"], write, env),
                (f"{label}--version", [binary, "--version"], bash, env),
            ]

        commands = [("baseline " + os.path.basename(baseline), [baseline], bash, env)] + hook_commands(hookmux, "")
        if against:
            commands += hook_commands(against, "against: ")
        os.chdir(work)
        for _, argv, stdin, cmd_env in commands:  # warm the page cache
            for _ in range(3):
                run(argv, stdin, cmd_env, direct)
        samples = {name: [] for name, *_ in commands}
        for r in range(runs):
            shift = r % len(commands)
            for name, argv, stdin, cmd_env in commands[shift:] + commands[:shift]:
                samples[name].append(run(argv, stdin, cmd_env, direct))
        pages = {name: [] for name, *_ in commands}
        for r in range(min(runs, 30) if memory else 0):
            for name, argv, stdin, cmd_env in commands:
                pages[name].append(memory(argv, stdin, cmd_env))
        counted = {name: instructions(argv, stdin, cmd_env) if count else None
                   for name, argv, stdin, cmd_env in commands}

    base = commands[0][0]
    n = len(commands) // 2 if against else None

    def ratios(name, other, field):
        return statistics.median(getattr(a, field) / max(getattr(b, field), 1e-9)
                                 for a, b in zip(samples[name], samples[other]))

    started = "directly" if direct else "through sh"
    print(f"{runs} paired rounds, every command started {started}, the event on stdin")
    if not memory:
        print("no /usr/bin/time: page faults and peak memory not measured")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load:
        print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'command':45} {'wall':>9} {'ratio':>6} {'cpu':>9} {'ratio':>6} {'faults':>7} {'peak KiB':>9}"
          + (f" {'instructions':>12}" if count else ""))
    for i, (name, *_) in enumerate(commands):
        s = samples[name]
        wall = statistics.median(x.wall for x in s) * 1000
        cpu = statistics.median(x.cpu for x in s) * 1000
        faults = statistics.median(f for f, _ in pages[name]) if pages[name] else float("nan")
        peak = max(p for _, p in pages[name]) if pages[name] else float("nan")
        wall_ratio = ratios(name, base, "wall")
        cpu_ratio = ratios(name, base, "cpu")
        print(f"{name[:45]:45} {wall:7.3f}ms {wall_ratio:5.2f}x {cpu:7.3f}ms {cpu_ratio:5.2f}x"
              f" {faults:7.0f} {peak:9.0f}" + (f" {counted[name] or 0:12,}" if count else ""))
    if against:
        print("head to head (this build / --against), medians of per-round ratios:")
        for (name, *_), (other, *_) in zip(commands[1:1 + n], commands[1 + n:]):
            print(f"  {name[:45]:45} wall {ratios(name, other, 'wall'):5.2f}x  cpu {ratios(name, other, 'cpu'):5.2f}x")


if __name__ == "__main__":
    main()
