"""The search across sessions over 100,000 stored messages (schema 29's FTS5 index, in
the host's own code and database file): the one message that says a word is found, a
common word gives the newest page, and a deleted session's messages leave the index."""

from __future__ import annotations

from pathlib import Path

from host.events import Publisher
from host.protocol import models as m
from host.sessions.library import Library
from host.sessions.service import SessionService
from host.store.db import immediate, open_database
from host.todos.service import TodoService

MESSAGES = 100_000
SESSIONS = 100


def test_search_over_100k_messages(tmp_path: Path) -> None:
    db = open_database(tmp_path)
    sessions = SessionService(db, Publisher())
    todos = TodoService(db, Publisher())
    library = Library(db, Publisher(), sessions, todos.snapshot, todos.history)
    sids = [
        sessions.create(m.CreateSessionParams(title=f"Session {n}")).id for n in range(SESSIONS)
    ]
    rows = [
        (
            f"m{n}",
            sids[n % SESSIONS],
            n // SESSIONS + 1,
            "user" if n % 2 else "assistant",
            f"message {n} about the parser and topic {n % 977}",
            "2026-01-01T00:00:00.000Z",
        )
        for n in range(MESSAGES)
    ]
    rows[31_337] = (*rows[31_337][:4], "the flaky websocket reconnect", rows[31_337][5])
    with immediate(db):
        db.executemany(
            "INSERT INTO messages (id, session_id, seq, role, content, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
    found = library.search(m.SearchParams(query="websocket reconn")).hits
    assert [(h.message_id, h.session_id) for h in found] == [("m31337", sids[31_337 % SESSIONS])]
    assert found[0].snippet == "the flaky websocket reconnect"
    page = library.search(m.SearchParams(query="parser", limit=50)).hits
    assert [h.message_id for h in page] == [f"m{n}" for n in range(MESSAGES - 1, MESSAGES - 51, -1)]
    assert len(library.search(m.SearchParams(query="topic 976", limit=200)).hits) == 200
    sessions.delete(sids[31_337 % SESSIONS])
    assert library.search(m.SearchParams(query="websocket")).hits == ()
    db.close()
