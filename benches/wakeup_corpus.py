#!/usr/bin/env python3
"""Writes a realistic memory corpus for the wake-up benchmark as hookmux's JSON import format.

Usage: wakeup_corpus.py N OUT.json [SEED]

Vocabulary: ~30,000 invented words drawn with a Zipf-like skew (a few very common, a long
tail of rare ones), mixed with common English words, so FTS5 sees realistic posting-list
lengths. Titles are 5-12 words, synopses 8-20, bodies 40-160; creation times spread over the
last 400 days; a digest and 40 facts come with it.
"""
import json
import random
import sys
from datetime import datetime, timedelta, timezone

ENGLISH = ("the a to of and in is for on with that this it be as by from at or we our use uses "
           "when should must not after before into over new old fix bug test build deploy run "
           "cache config server client api error retry timeout queue worker job user session").split()
SYLLABLES = ["ka", "lo", "mi", "ren", "tas", "vo", "qui", "zel", "dar", "fen", "gol", "hu", "jin",
             "kor", "lum", "nav", "ori", "pax", "rul", "sen", "tor", "ulm", "vex", "wyn", "xa", "yor",
             "zu", "bra", "cli", "dro"]


def vocabulary(rng, size):
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    words = sorted(words)
    rng.shuffle(words)
    return words


def sampler(rng, words):
    weights = [1.0 / (rank + 1) ** 0.9 for rank in range(len(words))]
    cumulative = []
    total = 0.0
    for w in weights:
        total += w
        cumulative.append(total)
    import bisect

    def draw(n):
        out = []
        for _ in range(n):
            if rng.random() < 0.3:
                out.append(rng.choice(ENGLISH))
            else:
                out.append(words[bisect.bisect_left(cumulative, rng.random() * total)])
        return " ".join(out)

    return draw


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    rng = random.Random(seed)
    draw = sampler(rng, vocabulary(rng, 30000))
    now = datetime.now(timezone.utc)
    kinds = ["note", "decision", "incident", "runbook", "policy"]
    memories = []
    for i in range(n):
        created = now - timedelta(minutes=rng.randint(60, 400 * 24 * 60))
        memories.append({
            "id": f"bench-{i}",
            "title": draw(rng.randint(5, 12)).capitalize(),
            "synopsis": draw(rng.randint(8, 20)),
            "body": draw(rng.randint(40, 160)),
            "kind": rng.choice(kinds),
            "source": rng.choice(["conversation", "manual", "file"]),
            "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
        })
    facts = [{"id": f"fact-{i}", "subject": draw(1), "predicate": rng.choice(["uses", "depends_on", "owns"]),
              "object": draw(2)} for i in range(40)]
    digests = [{"id": "digest-1", "title": "Weekly digest", "body": draw(120),
                "created_at": (now - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")}]
    with open(out, "w") as f:
        json.dump({"memories": memories, "facts": facts, "digests": digests}, f)
    # A prompt of a few dozen words from the same distribution, for the ranked path.
    with open(out + ".prompt", "w") as f:
        f.write("Can you help me " + draw(rng.randint(30, 45)) + " and make sure the tests pass?")


if __name__ == "__main__":
    main()
