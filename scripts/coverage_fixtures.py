#!/usr/bin/env python3
"""Records a kept coverage run (scripts/coverage-check.sh --keep) as a fixture of the tests.

usage: coverage_fixtures.py HOST RUN_DIR OUT_DIR

Copies the host's own transcript files from RUN_DIR's home and hookmux's trace into OUT_DIR
(`home/…` as under the run's HOME, `trace.jsonl`), with the run's folders moved to the recorded
machine's (`<run>/proj` and Codex's `<home>/acme` become /home/dev/acme, `<run>/home` becomes
/home/dev, Claude Code's and Qwen Code's project key and Gemini CLI's project folder follow) and every JSON string
longer than 2000 characters cut (the hosts' system prompts and instructions: the readers do not
read them). OpenCode's database is copied with its write-ahead log folded in, the same paths
moved, and nothing else changed.
"""
import json, os, shutil, sqlite3, sys

HOME, PROJECT = "/home/dev", "/home/dev/acme"
FILES = {
    "claude": [".claude/projects"],
    "codex": [".codex/sessions"],
    "gemini": [".gemini/tmp"],
    "copilot": [".copilot/session-state"],
    "opencode": [".local/share/opencode/opencode.db"],
    "cline": [".cline/data/sessions"],
    "qwen": [".qwen/projects"],
}


def movers(run):
    home = os.path.join(run, "home")
    project = os.path.join(run, "proj")
    key = project.replace("/", "-").replace("_", "-").replace(".", "-")
    return [(os.path.join(home, "acme"), PROJECT), (project, PROJECT), (home, HOME), (key, "-home-dev-acme"),
            ("gemini/tmp/proj", "gemini/tmp/acme"), (run, HOME + "/.work")]


def copy_document(src, dst, moves):
    """A whole-file JSON document (Cline's conversations), cut and moved as the lines are."""
    value = cut(json.load(open(src, encoding="utf-8")))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(move(json.dumps(value, ensure_ascii=False, separators=(",", ":")), moves) + "\n")


def move(text, moves):
    for old, new in moves:
        text = text.replace(old, new)
    return text


def cut(value):
    if isinstance(value, str):
        return value if len(value) <= 2000 else value[:2000] + "… [cut]"
    if isinstance(value, list):
        return [cut(v) for v in value]
    if isinstance(value, dict):
        return {k: cut(v) for k, v in value.items()}
    return value


def copy_lines(src, dst, moves):
    out = []
    for line in open(src, encoding="utf-8"):
        if not line.strip():
            continue
        try:
            value = cut(json.loads(line))
        except ValueError:
            out.append(move(line.rstrip("\n"), moves))
            continue
        out.append(move(json.dumps(value, ensure_ascii=False, separators=(",", ":")), moves))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def copy_db(src, dst, moves):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with sqlite3.connect(src) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(src, dst)
    with sqlite3.connect(dst) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
            columns = [c[1] for c in conn.execute(f'PRAGMA table_info("{table}")')]
            for column in columns:
                for old, new in moves:
                    conn.execute(f'UPDATE "{table}" SET "{column}" = replace("{column}", ?, ?) '
                                 f'WHERE typeof("{column}") = \'text\'', (old, new))
    with sqlite3.connect(dst) as conn:
        conn.execute("VACUUM")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    host, run, out = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    moves = movers(run)
    home = os.path.join(run, "home")
    for rel in FILES[host]:
        src = os.path.join(home, rel)
        if os.path.isfile(src):
            copy_db(src, os.path.join(out, "home", rel), moves)
            continue
        for dirpath, _, names in os.walk(src):
            for name in names:
                path = os.path.join(dirpath, name)
                # The transcripts, and Claude Code's note of which call started a subagent.
                document = host == "cline" and name.endswith(".messages.json")
                if not (name.endswith(".jsonl") or document or (host == "claude" and name.endswith(".meta.json"))):
                    continue
                dst = os.path.join(out, "home", move(os.path.relpath(path, home), moves))
                if document:
                    copy_document(path, dst, moves)
                elif name.endswith(".jsonl"):
                    copy_lines(path, dst, moves)
                else:
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    with open(dst, "w") as f:
                        f.write(move(open(path).read(), moves))
    copy_lines(os.path.join(home, ".local/state/hookmux/trace/trace.jsonl"), os.path.join(out, "trace.jsonl"), moves)


if __name__ == "__main__":
    main()
