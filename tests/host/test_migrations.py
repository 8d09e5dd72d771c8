from __future__ import annotations

import hashlib
from pathlib import Path

import apsw
import pytest

from host.protocol import SCHEMA_VERSION
from host.store import db as store
from host.store.errors import StorageFailure
from host.store.migrations import MIGRATIONS, Migration, migrate, read_user_version


def _v20_file(folder: Path) -> Path:
    path = folder / store.DB_FILENAME
    connection = apsw.Connection(str(path))
    migrate(connection, MIGRATIONS, target=20)
    connection.execute(
        "INSERT INTO sessions (id, title, mode, origin, created_at, updated_at)"
        " VALUES ('s1', 'old', 'agent', 'local', '2026-01-01T00:00:00.000Z',"
        " '2026-01-01T00:00:00.000Z')"
    )
    connection.execute(
        "INSERT INTO messages (id, session_id, seq, role, content, created_at)"
        " VALUES ('m1', 's1', 1, 'user', 'hello', '2026-01-01T00:00:00.000Z')"
    )
    connection.close()
    return path


def test_v20_file_becomes_current_with_data_intact(tmp_path) -> None:
    _v20_file(tmp_path)
    connection = store.open_database(tmp_path)
    assert read_user_version(connection) == SCHEMA_VERSION
    assert connection.execute(
        "SELECT id, title, todo_revision, todo_updated_at FROM sessions"
    ).fetchall() == [("s1", "old", 0, None)]
    assert connection.execute("SELECT content FROM messages").fetchall() == [("hello",)]
    columns = [row[1] for row in connection.execute("PRAGMA table_info(session_todo)")]
    assert columns == ["session_id", "position", "content", "active_form", "status"]
    pk = [row[1] for row in connection.execute("PRAGMA table_info(session_todo)") if row[5]]
    assert pk == ["session_id", "position"]
    fks = connection.execute("PRAGMA foreign_key_list(session_todo)").fetchall()
    assert fks[0][2] == "sessions" and fks[0][6] == "CASCADE"
    assert connection.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert connection.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


def test_newer_file_is_refused_and_not_modified(tmp_path) -> None:
    path = tmp_path / store.DB_FILENAME
    connection = apsw.Connection(str(path))
    connection.execute(f"CREATE TABLE x(a); PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(store.SchemaTooNew, match=str(SCHEMA_VERSION + 1)):
        store.open_database(tmp_path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_failing_step_leaves_the_file_as_it_was(tmp_path) -> None:
    path = _v20_file(tmp_path)

    def broken(connection: apsw.Connection) -> None:
        connection.execute("ALTER TABLE sessions ADD COLUMN half_done TEXT")
        connection.execute("DELETE FROM messages")
        raise RuntimeError("step failed half way")

    steps = (*MIGRATIONS[:1], Migration(21, "broken", broken))
    with pytest.raises(RuntimeError):
        store.open_database(tmp_path, migrations=steps)
    connection = apsw.Connection(str(path))
    assert read_user_version(connection) == 20
    columns = [row[1] for row in connection.execute("PRAGMA table_info(sessions)")]
    assert "half_done" not in columns and "todo_revision" not in columns
    assert connection.execute("SELECT count(*) FROM messages").fetchone() == (1,)


def test_v24_to_v25_sessions_are_on_the_hosts_own_agent(tmp_path) -> None:
    path = _v20_file(tmp_path)
    connection = apsw.Connection(str(path))
    migrate(connection, MIGRATIONS, 24)
    connection.close()
    db = store.open_database(tmp_path)
    row = db.execute("SELECT agent, cwd, agent_session_id FROM sessions WHERE id = 's1'")
    assert row.fetchone() == ("nib", None, None)
    kinds = db.execute("SELECT kind FROM messages").fetchall()
    assert kinds == [(None,)]


def test_new_file_is_created_at_22(tmp_path) -> None:
    connection = store.open_database(tmp_path / "fresh")
    assert read_user_version(connection) == SCHEMA_VERSION


def test_not_a_database(tmp_path) -> None:
    (tmp_path / store.DB_FILENAME).write_bytes(b"garbage" * 1000)
    with pytest.raises(store.StorageError, match="not an SQLite database"):
        store.open_database(tmp_path)


def _v21_file_with_checklists(folder: Path) -> Path:
    path = _v20_file(folder)
    connection = apsw.Connection(str(path))
    migrate(connection, MIGRATIONS, target=21)
    connection.execute(
        "INSERT INTO sessions (id, title, mode, origin, created_at, updated_at)"
        " VALUES ('s2', 'never written', 'agent', 'local', '2026-01-02T00:00:00.000Z',"
        " '2026-01-02T00:00:00.000Z');"
        "UPDATE sessions SET todo_revision = 7, todo_updated_at = '2026-01-03T00:00:00.000Z'"
        " WHERE id = 's1';"
        "INSERT INTO session_todo VALUES ('s1', 0, 'Write', 'Writing', 'in_progress');"
        "INSERT INTO session_todo VALUES ('s1', 1, 'Test', NULL, 'pending');"
    )
    connection.close()
    return path


def test_v21_to_v22_keeps_checklists_and_starts_history_at_the_current_snapshot(
    tmp_path,
) -> None:
    import json

    _v21_file_with_checklists(tmp_path)
    connection = store.open_database(tmp_path)
    assert read_user_version(connection) == SCHEMA_VERSION
    assert connection.execute("SELECT id, todo_revision FROM sessions ORDER BY id").fetchall() == [
        ("s1", 7),
        ("s2", 0),
    ]
    assert connection.execute("SELECT count(*) FROM session_todo").fetchone() == (2,)
    rows = connection.execute(
        "SELECT session_id, revision, turn_id, created_at, items FROM todo_revisions"
    ).fetchall()
    assert len(rows) == 1  # s2 was never written: no history
    session, revision, turn, created, items = rows[0]
    assert (session, revision, turn, created) == ("s1", 7, None, "2026-01-03T00:00:00.000Z")
    assert json.loads(items) == [
        {"content": "Write", "status": "in_progress", "activeForm": "Writing"},
        {"content": "Test", "status": "pending", "activeForm": None},
    ]
    fks = connection.execute("PRAGMA foreign_key_list(todo_revisions)").fetchall()
    assert fks[0][2] == "sessions" and fks[0][6] == "CASCADE"


def test_v22_to_v23_keeps_every_message_and_allows_summaries(tmp_path) -> None:
    connection = store.open_database(tmp_path, migrations=MIGRATIONS[:3], target=22)
    connection.execute(
        "INSERT INTO sessions (id, title, mode, origin, created_at, updated_at)"
        " VALUES ('s', 't', 'agent', 'local', 'x', 'x')"
    )
    for seq in (1, 2):
        connection.execute(
            "INSERT INTO messages (id, session_id, seq, role, content, created_at)"
            " VALUES (?, 's', ?, 'user', ?, 'x')",
            (f"m{seq}", seq, f"hello {seq}"),
        )
    with pytest.raises(StorageFailure, match="ConstraintError"):
        connection.execute(
            "INSERT INTO messages (id, session_id, seq, role, content, created_at)"
            " VALUES ('m3', 's', 3, 'summary', 'x', 'x')"
        )
    connection.close()
    connection = store.open_database(tmp_path)
    assert read_user_version(connection) == SCHEMA_VERSION
    rows = connection.execute("SELECT seq, content FROM messages ORDER BY seq").fetchall()
    assert rows == [(1, "hello 1"), (2, "hello 2")]
    connection.execute(
        "INSERT INTO messages (id, session_id, seq, role, content, created_at)"
        " VALUES ('m3', 's', 3, 'summary', 'what happened', 'x')"
    )
    connection.execute("DELETE FROM sessions WHERE id = 's'")  # the cascade still holds
    assert connection.execute("SELECT count(*) FROM messages").fetchone() == (0,)


def test_v25_to_v26_messages_are_kept_and_carry_no_activity(tmp_path) -> None:
    """Schema 26: a tool result may carry what the call did; every earlier message reads
    back as it was, with none."""
    from host.events import Publisher
    from host.sessions.service import SessionService

    path = _v20_file(tmp_path)
    connection = apsw.Connection(str(path))
    migrate(connection, MIGRATIONS, 25)
    connection.close()
    db = store.open_database(tmp_path)
    assert read_user_version(db) == SCHEMA_VERSION
    [message] = SessionService(db, Publisher()).transcript.all("s1")
    assert (message.content, message.activity) == ("hello", None)


def test_v27_to_v28_revisions_keep_the_diffs_the_history_gave_them(tmp_path) -> None:
    """Schema 28: a revision keeps the diff of its write. A v27 file's revisions get the
    diff the history computed for them (against the stored one before; the oldest
    against the empty list), and the next write diffs against the newest stored one."""
    import json

    from host.events import Publisher
    from host.execution_path import ExecutionContext, ExecutionPath
    from host.protocol import models as m
    from host.todos.schema import TodoWriteArgs
    from host.todos.service import TodoService

    path = _v20_file(tmp_path)
    connection = apsw.Connection(str(path))
    migrate(connection, MIGRATIONS, 27)
    lists = [
        [{"content": "Read", "status": "in_progress", "activeForm": "Reading"}],
        [
            {"content": "Read", "status": "completed", "activeForm": "Reading"},
            {"content": "Write", "status": "pending", "activeForm": None},
        ],
        [{"content": "Write", "status": "in_progress", "activeForm": None}],
    ]
    for revision, items in enumerate(lists, start=4):  # 1..3 were pruned
        connection.execute(
            "INSERT INTO todo_revisions (session_id, revision, turn_id, created_at, items)"
            " VALUES ('s1', ?, 't1', '2026-01-01T00:00:00.000Z', ?)",
            (revision, json.dumps(items)),
        )
    connection.execute(
        "UPDATE sessions SET todo_revision = 6; INSERT INTO turns (id, session_id, state,"
        " started_at) VALUES ('t2', 's1', 'running', '2026-01-01T00:00:01.000Z')"
    )
    connection.close()

    db = store.open_database(tmp_path)
    assert read_user_version(db) == SCHEMA_VERSION
    todos = TodoService(db, Publisher())
    page = todos.history(m.TodoHistoryParams(session_id="s1"))
    diffs = {r.revision: r.diff for r in page.revisions}
    assert diffs[4].added == ("Read",)  # the oldest kept: against the empty list
    assert diffs[5].added == ("Write",)
    assert [(c.content, c.from_, c.to) for c in diffs[5].status_changed] == [
        ("Read", "in_progress", "completed")
    ]
    assert diffs[6].completed_removed == ("Read",) and diffs[6].added == ()

    ctx = ExecutionContext("s1", "t2", ExecutionPath.AGENT)
    written = todos.write(
        ctx, TodoWriteArgs.model_validate({"todos": [{"content": "Write", "status": "completed"}]})
    )
    assert written.snapshot.revision == 7
    assert [(c.content, c.from_, c.to) for c in written.diff.status_changed] == [
        ("Write", "in_progress", "completed")
    ]
    newest = todos.history(m.TodoHistoryParams(session_id="s1", limit=1)).revisions[0]
    assert newest.diff == written.diff
