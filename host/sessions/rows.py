"""The stored rows of sessions, turns and messages, and how each is read back."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from host.protocol import models as m
from host.store.db import running_turn

SESSION_COLUMNS = f"""
    s.id, s.title, s.mode, s.origin, s.remote_endpoint, s.remote_session_id, s.parent_id,
    s.created_at, s.updated_at, s.todo_revision, s.todo_updated_at,
    {running_turn("s")}, s.agent, s.cwd,
    (SELECT json_array(w.repo, w.path, w.branch, w.base, w.base_commit, w.state)
     FROM worktrees w WHERE w.id = s.worktree_id), s.attempt_id
"""


def session_of(row: Any) -> m.Session:
    (
        sid,
        title,
        mode,
        origin,
        endpoint,
        remote_id,
        parent,
        created,
        updated,
        rev,
        todo_at,
        run,
        agent,
        cwd,
        tree,
        attempt,
    ) = row
    remote = (
        m.RemoteInfo(endpoint=endpoint, remote_session_id=remote_id) if origin == "remote" else None
    )
    return m.Session(
        id=sid,
        title=title,
        mode=mode,
        origin=origin,
        remote=remote,
        parent_id=parent,
        created_at=created,
        updated_at=updated,
        todo_revision=rev,
        todo_updated_at=todo_at,
        running_turn_id=run,
        agent=agent,
        cwd=cwd,
        worktree=worktree_of(tree),
        attempt_id=attempt,
    )


def worktree_of(column: str | None) -> m.Worktree | None:
    if column is None:
        return None
    repo, path, branch, base, base_commit, state = json.loads(column)
    return m.Worktree(
        repo=repo, path=path, branch=branch, base=base, base_commit=base_commit, state=state
    )


def turn_of(row: Any) -> m.Turn:
    tid, sid, state, error, started, finished = row
    return m.Turn(
        id=tid, session_id=sid, state=state, error=error, started_at=started, finished_at=finished
    )


def message_of(row: Any) -> m.Message:
    mid, sid, turn, seq, role, content, calls, call_id, is_error, created, todo, kind, did = row
    tool_calls = tuple(m.ToolCall(**call) for call in json.loads(calls)) if calls else ()
    commit = m.TodoCommit.model_validate_json(todo) if todo else None
    activity = m.ToolActivity.model_validate_json(did) if did else None
    return m.Message(
        id=mid,
        session_id=sid,
        turn_id=turn,
        seq=seq,
        role=role,
        content=content,
        tool_calls=tool_calls,
        tool_call_id=call_id,
        is_error=bool(is_error),
        created_at=created,
        todo=commit,
        kind=kind,
        activity=activity,
    )


TURN_COLUMNS = "id, session_id, state, error, started_at, finished_at"
PAGE_BYTES = 4 * 1024 * 1024  # a messages.list page, well under the 8 MiB frame
MESSAGE_COLUMNS = (
    "id, session_id, turn_id, seq, role, content, tool_calls, tool_call_id, is_error,"
    " created_at, todo, kind, activity"
)


def within_a_page(rows: Iterable[tuple[Any, ...]]) -> list[m.Message]:
    """The rows, in their order, as messages while they fit about PAGE_BYTES of text (at
    least one), so an answer never nears the frame limit."""
    page: list[m.Message] = []
    size = 0
    for row in rows:
        text = row[5] + (row[6] or "") + (row[12] or "")  # content, calls, activity
        size += len(text.encode("utf-8", "surrogatepass")) + 300
        if page and size > PAGE_BYTES:
            break
        page.append(message_of(row))
    return page
