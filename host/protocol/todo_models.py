"""Contract sections 7 and 11's wire types: the checklist, its items, a revision and its
diff against the one before, and what a write committed. Reached as `models.X`, like
every wire type."""

from typing import Literal

from pydantic import (
    Field,
)

from host.protocol.wire import Wire

TodoStatus = Literal["pending", "in_progress", "completed", "cancelled"]


class TodoItem(Wire):
    content: str
    status: TodoStatus
    active_form: str | None = None


class TodoSnapshot(Wire):
    session_id: str
    revision: int
    updated_at: str | None
    items: tuple[TodoItem, ...]


class StatusChange(Wire):
    content: str
    from_: TodoStatus = Field(alias="from")
    to: TodoStatus


class TodoDiff(Wire):
    """A revision against the one before it (items matched by exact content)."""

    added: tuple[str, ...] = ()
    completed_removed: tuple[str, ...] = ()
    dropped_unfinished: tuple[str, ...] = ()
    status_changed: tuple[StatusChange, ...] = ()
    reordered: bool = False


class TodoRevision(Wire):
    session_id: str
    revision: int
    turn_id: str | None
    created_at: str
    items: tuple[TodoItem, ...]
    diff: TodoDiff


class TodoCommit(Wire):
    """What a checklist write committed, carried on its transcript entry (the TodoWrite
    call's result): the revision, its item count and its diff against the one before.
    A client tells the write from this, never from the call's arguments."""

    revision: int
    items: int
    diff: TodoDiff
