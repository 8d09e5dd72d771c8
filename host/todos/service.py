"""The checklist's only write path and its reads.

`write` runs one BEGIN IMMEDIATE transaction: authorise the caller, replace the rows, bump
the revision, store the revision in the history (and prune it to the newest
HISTORY_KEPT); commit; then publish `todos.changed`. Any failure rolls everything back
and publishes nothing, so a revision is in the history if and only if it was committed.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

from pydantic import TypeAdapter

from host.clock import now_iso
from host.events import Publisher
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import errors, methods as rpc, models as m
from host.protocol.todo_diff import diff_items
from host.store.db import Database, immediate, running_turn
from host.todos.schema import TodoWriteArgs

HISTORY_KEPT = 1_000  # revisions per session
LATEST_KEPT = 64  # sessions whose newest revision's items are held for the next write's diff
PAGE_BYTES = 4 * 1024 * 1024  # a todos.history page, well under the 8 MiB frame
ITEMS_JSON = TypeAdapter(tuple[m.TodoItem, ...])
DIFF_JSON = TypeAdapter(m.TodoDiff)
# what a write reads first, in its transaction, to authorise its caller
_AUTHORISING = (
    f"SELECT origin, mode, todo_revision, {running_turn('sessions')} FROM sessions WHERE id = ?"
)


class Written(NamedTuple):
    snapshot: m.TodoSnapshot
    diff: m.TodoDiff


class TodoRefused(Exception):
    """The caller may not write this session's checklist; the message names the rule."""


class TodoService:
    def __init__(self, db: Database, publisher: Publisher) -> None:
        self._db = db
        self._publisher = publisher
        # session -> (revision, items) of its newest history row, as this host wrote it:
        # the next write diffs against it without decoding the row again
        self._latest: OrderedDict[str, tuple[int, tuple[m.TodoItem, ...]]] = OrderedDict()

    def snapshot(self, session_id: str) -> m.TodoSnapshot:
        return self._read(session_id, *self._local_session(session_id))

    def write(self, ctx: ExecutionContext, args: TodoWriteArgs) -> Written:
        with immediate(self._db):
            if ctx.path is not ExecutionPath.AGENT:
                raise TodoRefused(
                    f"TodoWrite is only available on the agent path; this call came from the "
                    f"{ctx.path.value} path"
                )
            row = self._db.execute(_AUTHORISING, (ctx.session_id,)).fetchone()
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
            previous = self._latest_items(ctx.session_id, revision)
            self._db.execute("DELETE FROM session_todo WHERE session_id = ?", (ctx.session_id,))
            session_id = ctx.session_id
            self._db.executemany(
                "INSERT INTO session_todo (session_id, position, content, active_form, status)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (session_id, position, item.content, item.active_form, item.status)
                    for position, item in enumerate(args.todos)
                ],
            )
            self._db.execute(
                "UPDATE sessions SET todo_revision = todo_revision + 1, todo_updated_at = ?"
                " WHERE id = ?",
                (now, ctx.session_id),
            )
            items = tuple(args.todos)
            diff = diff_items(previous, items)
            self._db.execute(
                "INSERT INTO todo_revisions"
                " (session_id, revision, turn_id, created_at, items, diff)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    ctx.session_id,
                    revision + 1,
                    ctx.turn_id,
                    now,
                    ITEMS_JSON.dump_json(items).decode(),
                    DIFF_JSON.dump_json(diff, by_alias=True).decode(),
                ),
            )
            self._db.execute(
                "DELETE FROM todo_revisions WHERE session_id = ? AND revision <= ?",
                (ctx.session_id, revision + 1 - HISTORY_KEPT),
            )
        self._latest[ctx.session_id] = (revision + 1, items)
        self._latest.move_to_end(ctx.session_id)
        if len(self._latest) > LATEST_KEPT:
            self._latest.popitem(last=False)
        # The rows are exactly the validated items: no need to read them back.
        snapshot = m.TodoSnapshot(
            session_id=ctx.session_id,
            revision=revision + 1,
            updated_at=now,
            items=items,
        )
        self._publisher.publish(rpc.TODOS_CHANGED, snapshot)
        return Written(snapshot, diff)

    def history(self, params: m.TodoHistoryParams) -> m.TodoHistory:
        """Committed revisions, newest first, each with the diff kept from its write
        (against the revision before it; the oldest kept against what was stored before
        it when it was written)."""
        self._local_session(params.session_id)
        before = params.before_revision if params.before_revision is not None else 2**62
        rows = self._db.execute(
            "SELECT revision, turn_id, created_at, items, diff FROM todo_revisions"
            " WHERE session_id = ? AND revision < ? ORDER BY revision DESC LIMIT ?",
            (params.session_id, before, params.limit + 1),
        ).fetchall()
        revisions: list[m.TodoRevision] = []
        size = 0
        for revision, turn_id, created_at, items, diff in rows[: params.limit]:
            entry = m.TodoRevision(
                session_id=params.session_id,
                revision=revision,
                turn_id=turn_id,
                created_at=created_at,
                items=ITEMS_JSON.validate_json(str(items)),
                diff=DIFF_JSON.validate_json(str(diff)),
            )
            size += len(entry.model_dump_json(by_alias=True).encode())
            if revisions and size > PAGE_BYTES:  # a page ends at about PAGE_BYTES too
                return m.TodoHistory(revisions=tuple(revisions), has_more=True)
            revisions.append(entry)
        return m.TodoHistory(revisions=tuple(revisions), has_more=len(rows) > params.limit)

    def revisions(self, session_id: str) -> list[tuple[int, tuple[m.TodoItem, ...]]]:
        """Every kept revision of the session's checklist with its items, oldest first
        (what the checkpoints match a step against; the history's own rows)."""
        rows = self._db.execute(
            "SELECT revision, items FROM todo_revisions WHERE session_id = ? ORDER BY revision",
            (session_id,),
        ).fetchall()
        return [(int(revision), ITEMS_JSON.validate_json(str(items))) for revision, items in rows]

    def _latest_items(self, session_id: str, revision: int) -> tuple[m.TodoItem, ...]:
        """The items of the session's newest history row (held from the last write when
        it was that revision; read otherwise, e.g. a fork has none)."""
        held = self._latest.get(session_id)
        if held is not None and held[0] == revision:
            return held[1]
        row = self._db.execute(
            "SELECT items FROM todo_revisions WHERE session_id = ? ORDER BY revision DESC LIMIT 1",
            (session_id,),
        ).fetchone()
        return ITEMS_JSON.validate_json(str(row[0])) if row else ()

    def _local_session(self, session_id: str) -> tuple[int, str | None]:
        """The session's revision and its time; -32010 unknown, -32011 remote."""
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
        return row[1], row[2]

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
