"""The search across sessions (`sessions.search`, schema 29's FTS5 index) on a database
of `--messages` stored messages in 1,000 sessions.

    python -m bench.search [--messages 100000] [--queries 300]

- first results: the time of `sessions.search` through the host's handler code (limit 50,
  the window's page), over queries of one common word, one rare word, a half-typed word
  and two words: p50, p99, max (target p99 <= 50 ms);
- a message's write, as the host stores one (its own write transaction, synchronous FULL,
  WAL): with the index, against the same write without it (the triggers dropped), in the
  same run (target <= 1.3x);
- the database's size with the index against the same messages without it (target
  <= 1.6x).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from bench.stats import percentile
from host.clock import new_id, now_iso
from host.events import Publisher
from host.protocol import models as m
from host.sessions.library import Library
from host.sessions.service import SessionService
from host.store.db import DB_FILENAME, Database, immediate, open_database
from host.todos.service import TodoService

SESSIONS = 1_000
WRITES = 1_000  # single-message transactions timed, each way


def vocabulary(rng: random.Random) -> list[str]:
    """5,000 made-up words, used with a Zipf-like skew as prose is."""
    letters = "etaoinshrdlucmfwypvbgkjqxz"
    words = set()
    while len(words) < 5_000:
        words.add(
            "".join(rng.choice(letters[: rng.randint(8, 26)]) for _ in range(rng.randint(2, 10)))
        )
    return sorted(words, key=lambda w: (len(w), w))


def sentence(rng: random.Random, words: list[str]) -> str:
    n = rng.randint(8, 120)
    return " ".join(words[min(int(rng.paretovariate(0.9)) - 1, len(words) - 1)] for _ in range(n))


def fill(db: Database, rng: random.Random, words: list[str], count: int) -> list[str]:
    """`count` messages over SESSIONS sessions, in batches; the session ids."""
    now = now_iso()
    sids = [new_id() for _ in range(SESSIONS)]
    with immediate(db):
        db.executemany(
            "INSERT INTO sessions (id, title, mode, origin, created_at, updated_at)"
            " VALUES (?, ?, 'agent', 'local', ?, ?)",
            [(sid, sentence(rng, words)[:60], now, now) for sid in sids],
        )
    seq = dict.fromkeys(sids, 0)
    for start in range(0, count, 5_000):
        rows = []
        for _ in range(min(5_000, count - start)):
            sid = rng.choice(sids)
            seq[sid] += 1
            role = "user" if seq[sid] % 2 else "assistant"
            rows.append((new_id(), sid, seq[sid], role, sentence(rng, words), now))
        with immediate(db):
            db.executemany(
                "INSERT INTO messages (id, session_id, seq, role, content, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
    return sids


def writes(db: Database, rng: random.Random, words: list[str], sid: str) -> float:
    """Seconds per message stored as the host stores one (its own transaction)."""
    sessions = SessionService(db, Publisher())
    texts = [sentence(rng, words) for _ in range(WRITES)]
    started = time.perf_counter()
    for text in texts:
        sessions.transcript.append(sid, None, "assistant", text)
    return (time.perf_counter() - started) / WRITES


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(7)
    words = vocabulary(rng)
    with tempfile.TemporaryDirectory() as tmp:
        indexed_dir, plain_dir = Path(tmp, "indexed"), Path(tmp, "plain")
        indexed_dir.mkdir()
        plain_dir.mkdir()
        indexed, plain = open_database(indexed_dir), open_database(plain_dir)
        plain.execute(
            "DROP TRIGGER messages_fts_add; DROP TRIGGER messages_fts_drop;"
            " DROP TRIGGER messages_fts_drop_changed; DROP TRIGGER messages_fts_add_changed;"
            " DROP TABLE messages_fts"
        )
        started = time.perf_counter()
        sids = fill(indexed, random.Random(1), words, args.messages)
        fill_indexed = time.perf_counter() - started
        started = time.perf_counter()
        plain_sids = fill(plain, random.Random(1), words, args.messages)
        fill_plain = time.perf_counter() - started
        # the single writes, alternated in rounds so the disk's moods fall on both
        with_index = without = 0.0
        for _ in range(3):
            with_index += writes(indexed, rng, words, sids[0])
            without += writes(plain, rng, words, plain_sids[0])
        for db in (indexed, plain):
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size_indexed = (indexed_dir / DB_FILENAME).stat().st_size
        size_plain = (plain_dir / DB_FILENAME).stat().st_size

        sessions = SessionService(indexed, Publisher())
        todos = TodoService(indexed, Publisher())
        library = Library(indexed, Publisher(), sessions, todos.snapshot, todos.history)
        common, rare = words[:50], words[2_000:]
        queries = []
        for n in range(args.queries):
            kind = n % 4
            if kind == 0:
                queries.append(rng.choice(common))
            elif kind == 1:
                queries.append(rng.choice(rare))
            elif kind == 2:
                word = rng.choice(words[200:])
                queries.append(word[: max(2, len(word) - 2)])
            else:
                queries.append(f"{rng.choice(common)} {rng.choice(words[50:1000])}")
        times, found = [], []
        for query in queries:
            began = time.perf_counter()
            hits = library.search(m.SearchParams(query=query)).hits
            times.append(time.perf_counter() - began)
            found.append(len(hits))
        p50, p99 = percentile(times, 50) * 1000, percentile(times, 99) * 1000
        print(
            f"{args.messages:,} messages in {SESSIONS:,} sessions (batches: "
            f"{fill_indexed:.1f} s indexed, {fill_plain:.1f} s plain)"
        )
        print(
            f"search, first results (limit 50, {len(queries)} queries, "
            f"{sum(1 for f in found if f) / len(found):.0%} finding something): "
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms (target <= 50), max {max(times) * 1000:.1f} ms"
        )
        print(
            f"a message's write: {with_index / 3 * 1000:.2f} ms with the index, "
            f"{without / 3 * 1000:.2f} ms without: {with_index / without:.2f}x (target <= 1.3x)"
        )
        print(
            f"database size: {size_indexed / 2**20:.1f} MiB with the index, "
            f"{size_plain / 2**20:.1f} MiB without: {size_indexed / size_plain:.2f}x "
            "(target <= 1.6x)"
        )
        indexed.close()
        plain.close()


if __name__ == "__main__":
    main()
