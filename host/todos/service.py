"""The checklist's only write path and its reads.

`write` runs one BEGIN IMMEDIATE transaction: authorise the caller, replace the rows, bump
the revision; commit; then publish `todos.changed`. Any failure rolls everything back and
publishes nothing.
"""

from __future__ import annotations

import apsw

from host.clock import now_iso
from host.events import Publisher
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from host.store.db import immediate, running_turn
from host.todos.schema import TodoWriteArgs


class TodoRefused(Exception):
    """The caller may not write this session's checklist; the message names the rule."""


class TodoService:
    def __init__(self, db: apsw.Connection, publisher: Publisher) -> None:
        self._db = db
        self._publisher = publisher

    def snapshot(self, session_id: str) -> m.TodoSnapshot:
        row = self._db.execute(
            "SELECT origin, todo_revision, todo_updated_at FROM sessions WHERE id = ?",
            (session_id,),
        ).fetchone()
        if row is None:
            raise errors.SessionNotFound(f"no session {session_id!r}")
        if row[0] == "remote":
            raise errors.RemoteSession(
                "remote sessions have no checklist on this host (RACP v1 has no Todo snapshot)"
            )
        return self._read(session_id, row[1], row[2])

    def write(self, ctx: ExecutionContext, args: TodoWriteArgs) -> m.TodoSnapshot:
        with immediate(self._db):
            if ctx.path is not ExecutionPath.AGENT:
                raise TodoRefused(
                    f"TodoWrite is only available on the agent path; this call came from the "
                    f"{ctx.path.value} path"
                )
            row = self._db.execute(
                f"SELECT origin, mode, todo_revision, {running_turn('sessions')}"
                " FROM sessions WHERE id = ?",
                (ctx.session_id,),
            ).fetchone()
            if row is None:
                raise TodoRefused(f"session {ctx.session_id} does not exist")
            origin, mode, revision, running = row
            if origin != "local":
                raise TodoRefused("the checklist of a remote session cannot be written here")
            if mode != "agent":
                raise TodoRefused(f"TodoWrite is only available in agent sessions, not {mode}")
            if running is None or running != ctx.turn_id:
                raise TodoRefused("the calling turn is not this session's running turn")
            now = now_iso()
            self._db.execute("DELETE FROM session_todo WHERE session_id = ?", (ctx.session_id,))
            self._db.executemany(
                "INSERT INTO session_todo (session_id, position, content, active_form, status)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (ctx.session_id, position, item.content, item.active_form, item.status)
                    for position, item in enumerate(args.todos)
                ],
            )
            self._db.execute(
                "UPDATE sessions SET todo_revision = todo_revision + 1, todo_updated_at = ?"
                " WHERE id = ?",
                (now, ctx.session_id),
            )
        # The rows are exactly the validated items: no need to read them back.
        snapshot = m.TodoSnapshot(
            session_id=ctx.session_id,
            revision=revision + 1,
            updated_at=now,
            items=tuple(args.todos),
        )
        self._publisher.publish(rpc.TODOS_CHANGED, snapshot)
        return snapshot

    def _read(self, session_id: str, revision: int, updated_at: str | None) -> m.TodoSnapshot:
        rows = self._db.execute(
            "SELECT content, status, active_form FROM session_todo WHERE session_id = ?"
            " ORDER BY position",
            (session_id,),
        ).fetchall()
        return m.TodoSnapshot(
            session_id=session_id,
            revision=revision,
            updated_at=updated_at,
            items=tuple(m.TodoItem(content=c, status=s, active_form=a) for c, s, a in rows),
        )
