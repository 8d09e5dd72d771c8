"""Storage errors are classified once: the environment gets a readable sentence, a bug
gets its traceback in the log and an internal error on the wire."""

from __future__ import annotations

import logging

import apsw
import pytest

from harness.waiting import until
from host.core import HostCore
from host.protocol import errors, methods as rpc, models as m
from host.rpc import as_rpc_error
from host.store.errors import StorageFailure, environment_problem


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        (apsw.FullError, "the disk is full"),
        (apsw.ReadOnlyError, "read-only"),
        (apsw.BusyError, "locked by another program"),
        (apsw.NotADBError, "not an SQLite database"),
        (apsw.CorruptError, "damaged"),
        (apsw.IOError, "input/output error"),
    ],
)
def test_environment_errors_have_readable_reasons(kind, words) -> None:
    reason = environment_problem(kind("low-level text"))
    assert reason is not None and words in reason


@pytest.mark.parametrize("kind", [apsw.SQLError, apsw.ConstraintError, apsw.MismatchError])
def test_other_sqlite_errors_are_bugs(kind) -> None:
    assert environment_problem(kind("x")) is None


def test_a_full_disk_during_a_request_reads_as_such(core: HostCore) -> None:
    pages = core.db.execute("PRAGMA page_count").fetchone()[0]
    core.db.execute(f"PRAGMA max_page_count = {int(pages)}")
    with pytest.raises(StorageFailure) as caught:
        for _ in range(200):  # fill the last free pages
            core.sessions.create(m.CreateSessionParams(title="x" * 400))
    assert caught.value.kind == "FullError" and isinstance(caught.value.__cause__, apsw.FullError)
    error = as_rpc_error(rpc.SESSIONS_CREATE, caught.value)
    assert error.message == "sessions.create failed: the disk is full; nothing was written"
    assert not core.db.in_transaction


def test_a_storage_bug_is_logged_with_its_traceback(core: HostCore, caplog) -> None:
    core.db.execute(
        "CREATE TEMP TRIGGER boom BEFORE INSERT ON sessions"
        " BEGIN SELECT RAISE(ABORT, 'a bug in a statement'); END"
    )
    with pytest.raises(StorageFailure) as caught:
        core.sessions.create(m.CreateSessionParams())
    assert caught.value.reason is None  # a bug, not the environment
    with caplog.at_level(logging.ERROR, logger="host.rpc"):
        error = as_rpc_error(rpc.SESSIONS_CREATE, caught.value)
    assert isinstance(error, errors.InternalError)
    assert error.message == "sessions.create failed: ConstraintError"
    assert "a bug in a statement" not in error.message
    assert any("a bug in a statement" in (r.exc_text or "") for r in caplog.records)


def test_a_full_disk_mid_turn_ends_the_turn_and_leaves_the_session_usable(
    core: HostCore, notes, monkeypatch
) -> None:
    """The turn's own writes and then the write of its end fail: the turn still ends
    (failed, the reason in words) for every client, and once space returns the next turn
    runs and the first turn's end is written."""
    import asyncio

    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "30")
    session = core.sessions.create(m.CreateSessionParams())

    def turn_notes() -> list[m.Turn]:
        return [p for name, p in notes if name == rpc.TURNS_CHANGED.name]  # type: ignore[misc]

    async def scenario() -> None:
        first = core.runtime.start(m.StartTurnParams(session_id=session.id, text="a. b. c."))
        await until(lambda: any(name == rpc.TODOS_CHANGED.name for name, _ in notes))
        core.db.execute("CREATE TABLE filler (x BLOB)")
        pages = core.db.execute("PRAGMA page_count").fetchone()[0]
        core.db.execute(f"PRAGMA max_page_count = {int(pages)}")  # the disk is now full
        try:  # and not a free byte is left in it
            for _ in range(100_000):
                core.db.execute("INSERT INTO filler VALUES (randomblob(200))")
        except StorageFailure as full:
            assert full.reason == "the disk is full"
        await until(lambda: any(t.id == first.id and t.state != "running" for t in turn_notes()))
        ended = next(t for t in turn_notes() if t.id == first.id and t.state != "running")
        assert ended.state == "failed" and "the disk is full" in (ended.error or "")
        assert core.sessions.get(session.id).running_turn_id is None
        assert core.sessions.turns.get(session.id, first.id).state == "failed"
        core.db.execute("PRAGMA max_page_count = 1073741823")  # space again
        second = core.runtime.start(m.StartTurnParams(session_id=session.id, text="d. e. f."))
        await until(lambda: core.sessions.turns.get(session.id, second.id).state != "running")
        assert core.sessions.turns.get(session.id, second.id).state == "completed"

    asyncio.run(scenario())
    row = core.db.execute("SELECT state FROM turns ORDER BY started_at").fetchall()
    assert [r[0] for r in row] == ["failed", "completed"]  # the end was written later


def test_a_turn_whose_end_cannot_be_written_still_ends(core: HostCore, notes) -> None:
    """The write of a turn's end fails: every client still learns that the turn ended,
    the session is not left running, and the end is written with the next write."""
    import asyncio

    session = core.sessions.create(m.CreateSessionParams())
    turn, _ = core.sessions.turns.begin(session.id, "hello")
    core.db.execute(
        "CREATE TEMP TRIGGER no_end BEFORE UPDATE OF state ON turns"
        " BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
    )
    ended = core.sessions.turns.end(session.id, turn.id, "completed", None)
    assert ended.state == "failed" and "could not be saved" in (ended.error or "")
    turns = [p for name, p in notes if name == rpc.TURNS_CHANGED.name]
    assert turns[-1] == ended
    sessions = [p for name, p in notes if name == rpc.SESSIONS_CHANGED.name]
    assert sessions[-1].running_turn_id is None
    assert core.sessions.get(session.id).running_turn_id is None
    assert core.sessions.turns.newest(session.id, 5)[0].state == "failed"
    core.db.execute("DROP TRIGGER no_end")

    async def next_turn() -> None:
        second, _ = core.sessions.turns.begin(session.id, "again")
        assert second.state == "running"

    asyncio.run(next_turn())
    stored = core.db.execute("SELECT state FROM turns WHERE id = ?", (turn.id,)).fetchone()
    assert stored[0] == "failed"


def test_a_turn_started_while_the_disk_is_still_full_does_not_wedge_the_session(
    core: HostCore,
) -> None:
    """A turn's end could not be written; a turns.start fails while the disk is still
    full; once space returns the old turn is still ended and a new one starts."""
    import asyncio

    session = core.sessions.create(m.CreateSessionParams())
    turn, _ = core.sessions.turns.begin(session.id, "hello")
    core.db.execute(
        "CREATE TEMP TRIGGER no_end BEFORE UPDATE OF state ON turns"
        " BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
    )
    core.sessions.turns.end(session.id, turn.id, "completed", None)
    core.db.execute("DROP TRIGGER no_end")  # the end can be written now, the new turn not
    core.db.execute(
        "CREATE TEMP TRIGGER full BEFORE INSERT ON turns"
        " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
    with pytest.raises(StorageFailure):
        core.sessions.turns.begin(session.id, "while full")
    core.db.execute("DROP TRIGGER full")
    assert core.sessions.get(session.id).running_turn_id is None  # still ended

    async def next_turn() -> None:
        second, _ = core.sessions.turns.begin(session.id, "again")
        assert second.state == "running"

    asyncio.run(next_turn())
    stored = core.db.execute("SELECT state FROM turns WHERE id = ?", (turn.id,)).fetchone()
    assert stored[0] == "failed"
