"""Storage errors are classified once: the environment gets a readable sentence, a bug
gets its traceback in the log and an internal error on the wire."""

from __future__ import annotations

import logging

import apsw
import pytest

from host.core import HostCore
from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from host.rpc import _as_rpc_error
from host.store.errors import environment_problem


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
    with pytest.raises(apsw.FullError) as caught:
        for _ in range(200):  # fill the last free pages
            core.sessions.create(m.CreateSessionParams(title="x" * 400))
    error = _as_rpc_error(rpc.SESSIONS_CREATE, caught.value)
    assert error.message == "sessions.create failed: the disk is full; nothing was written"
    assert not core.db.in_transaction


def test_a_storage_bug_is_logged_with_its_traceback(core: HostCore, caplog) -> None:
    core.db.execute(
        "CREATE TEMP TRIGGER boom BEFORE INSERT ON sessions"
        " BEGIN SELECT RAISE(ABORT, 'a bug in a statement'); END"
    )
    with pytest.raises(apsw.ConstraintError) as caught:
        core.sessions.create(m.CreateSessionParams())
    with caplog.at_level(logging.ERROR, logger="host.rpc"):
        error = _as_rpc_error(rpc.SESSIONS_CREATE, caught.value)
    assert isinstance(error, errors.InternalError)
    assert error.message == "sessions.create failed: ConstraintError"
    assert "a bug in a statement" not in error.message
    assert any("a bug in a statement" in (r.exc_text or "") for r in caplog.records)
