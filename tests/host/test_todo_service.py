"""TodoWrite through the internal tool-execution API, with real running-turn rows."""

from __future__ import annotations

import asyncio

import pytest

from host.core import HostCore
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import errors, models as m
from tests.helpers.db_copy import database_copy


def session_with_turn(core: HostCore, mode: str = "agent") -> tuple[m.Session, m.Turn]:
    session = core.sessions.create(m.CreateSessionParams(mode=mode))  # type: ignore[arg-type]
    turn, _ = core.sessions.turns.begin(session.id, "do things")
    return session, turn


def write(core: HostCore, ctx: ExecutionContext, todos: list[dict]) -> tuple[str, bool]:
    result = asyncio.run(core.runtime.registry.execute(ctx, "TodoWrite", {"todos": todos}))
    return result.content, result.is_error


def todo_notes(notes: list) -> list[m.TodoSnapshot]:
    return [p for name, p in notes if name == "todos.changed"]


ITEMS = [
    {"content": "One", "status": "completed"},
    {"content": " Two ", "status": "in_progress", "activeForm": " Doing two "},
    {"content": "Three", "status": "pending"},
]


def test_write_replaces_rows_bumps_revision_and_notifies_after_commit(core, notes) -> None:
    session, turn = session_with_turn(core)
    ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
    committed: list[int] = []

    def check_committed(name: str, params: m.Wire) -> None:
        if name == "todos.changed":  # the commit is already in the files (read from a copy:
            # the host holds its database exclusively)
            with database_copy(core.data_dir) as other:
                sql = "SELECT todo_revision FROM sessions WHERE id = ?"
                committed.append(other.execute(sql, (session.id,)).fetchone()[0])

    core.publisher.subscribe(check_committed)
    content, is_error = write(core, ctx, ITEMS)
    assert not is_error
    assert content == "Checklist saved as revision 1: 1 of 3 completed; in progress: Two."
    assert committed == [1]
    write(core, ctx, [])
    snapshots = todo_notes(notes)
    assert [s.revision for s in snapshots] == [1, 2]
    assert snapshots[1].items == ()
    assert core.todos.snapshot(session.id) == snapshots[1]
    assert core.sessions.get(session.id).todo_revision == 2


def test_injected_failure_after_delete_rolls_back_everything(core, notes, caplog) -> None:
    session, turn = session_with_turn(core)
    ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
    write(core, ctx, ITEMS)
    before = core.todos.snapshot(session.id)
    # A real failure in the middle of the transaction: after the delete and the first
    # insert, the second insert aborts.
    core.db.execute(
        "CREATE TEMP TRIGGER boom BEFORE INSERT ON session_todo WHEN NEW.content = 'explode'"
        " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )
    notes.clear()
    content, is_error = write(
        core,
        ctx,
        [{"content": "fine", "status": "pending"}, {"content": "explode", "status": "pending"}],
    )
    assert is_error and "nothing was written: an internal error" in content
    assert "injected failure" not in content  # SQL details go to the log, not the model
    assert any("injected failure" in r.exc_text for r in caplog.records if r.exc_text)
    assert core.todos.snapshot(session.id) == before
    assert notes == []
    assert not core.db.in_transaction


@pytest.mark.parametrize(
    "path",
    [
        ExecutionPath.PLAN,
        ExecutionPath.GOAL,
        ExecutionPath.DELEGATED,
        ExecutionPath.PLUGIN,
        ExecutionPath.MCP,
    ],
)
def test_only_the_agent_path_may_write(core, notes, path) -> None:
    session, turn = session_with_turn(core)
    content, is_error = write(core, ExecutionContext(session.id, turn.id, path), ITEMS)
    assert is_error and f"this call came from the {path.value} path" in content
    assert core.todos.snapshot(session.id).revision == 0
    assert todo_notes(notes) == []


@pytest.mark.parametrize("mode", ["plan", "goal"])
def test_only_agent_sessions_may_be_written(core, mode) -> None:
    session, turn = session_with_turn(core, mode)
    content, is_error = write(
        core, ExecutionContext(session.id, turn.id, ExecutionPath.AGENT), ITEMS
    )
    assert is_error and f"not {mode}" in content
    assert core.todos.snapshot(session.id).revision == 0


def test_the_calling_turn_must_be_the_running_turn(core) -> None:
    session, turn = session_with_turn(core)
    core.sessions.turns.end(session.id, turn.id, "completed", None)
    content, is_error = write(
        core, ExecutionContext(session.id, turn.id, ExecutionPath.AGENT), ITEMS
    )
    assert is_error and "not this session's running turn" in content
    newer, _ = core.sessions.turns.begin(session.id, "again")
    content, is_error = write(
        core, ExecutionContext(session.id, turn.id, ExecutionPath.AGENT), ITEMS
    )
    assert is_error
    _content, is_error = write(
        core, ExecutionContext(session.id, newer.id, ExecutionPath.AGENT), ITEMS
    )
    assert not is_error


def test_another_sessions_turn_cannot_write(core) -> None:
    _a, turn_a = session_with_turn(core)
    b, _turn_b = session_with_turn(core)
    _content, is_error = write(core, ExecutionContext(b.id, turn_a.id, ExecutionPath.AGENT), ITEMS)
    assert is_error and core.todos.snapshot(b.id).revision == 0


def test_remote_and_missing_sessions(core) -> None:
    remote = core.sessions.create(
        m.CreateSessionParams(remote=m.RemoteTarget(endpoint="ssh://x", remote_session_id="r"))
    )
    content, is_error = write(core, ExecutionContext(remote.id, "t", ExecutionPath.AGENT), ITEMS)
    assert is_error and "remote" in content
    content, is_error = write(core, ExecutionContext("missing", "t", ExecutionPath.AGENT), ITEMS)
    assert is_error and "does not exist" in content
    with pytest.raises(errors.RemoteSession):
        core.todos.snapshot(remote.id)
    with pytest.raises(errors.SessionNotFound):
        core.todos.snapshot("missing")


def test_validation_error_reaches_the_caller_and_changes_nothing(core, notes) -> None:
    session, turn = session_with_turn(core)
    ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
    content, is_error = write(core, ctx, [{"content": "a", "status": "in_progress"}] * 2)
    assert is_error and "at most one item may be in_progress" in content
    assert todo_notes(notes) == [] and core.todos.snapshot(session.id).revision == 0


def test_fork_isolation(core) -> None:
    session, turn = session_with_turn(core)
    write(core, ExecutionContext(session.id, turn.id, ExecutionPath.AGENT), ITEMS)
    fork = core.sessions.fork(m.ForkParams(session_id=session.id))
    assert fork.todo_revision == 0 and core.todos.snapshot(fork.id).items == ()
    assert fork.parent_id == session.id
    assert [x.content for x in core.sessions.transcript.all(fork.id)] == ["do things"]
    fork_turn, _ = core.sessions.turns.begin(fork.id, "more")
    write(core, ExecutionContext(fork.id, fork_turn.id, ExecutionPath.AGENT), [])
    assert core.todos.snapshot(session.id).revision == 1
    assert len(core.todos.snapshot(session.id).items) == 3


def test_delete_cascades_rows(core) -> None:
    session, turn = session_with_turn(core)
    write(core, ExecutionContext(session.id, turn.id, ExecutionPath.AGENT), ITEMS)
    core.sessions.delete(session.id)
    for table in ("session_todo", "turns", "messages"):
        count = core.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        assert count == 0, table


def test_one_running_turn_per_session(core) -> None:
    session, _turn = session_with_turn(core)
    with pytest.raises(errors.TurnRunning):
        core.sessions.turns.begin(session.id, "second")


def test_the_clients_hear_a_write_before_the_hosts_own_bookkeeping(core) -> None:
    """The window's notification is not queued behind checkpoints, worktrees and
    attempts (all subscribed when the core was made, before any server)."""
    session, turn = session_with_turn(core)
    ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
    order: list[str] = []
    core.publisher.subscribe(
        lambda name, _p: order.append("host") if name == "todos.changed" else None
    )
    core.publisher.subscribe(
        lambda name, _p: order.append("client") if name == "todos.changed" else None, clients=True
    )
    write(core, ctx, ITEMS)
    assert order == ["client", "host"]
