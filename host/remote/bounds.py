"""What a remote host may push, bounded as local writes are (a remote is untrusted input),
and what its notifications weigh while a link catches up."""

from __future__ import annotations

from host.protocol import models as m

MAX_REVISION = 2**31 - 1  # a checklist revision (the window's integers)
MAX_ITEMS, MAX_TEXT = 200, 500  # section 7's limits on a forwarded checklist
MAX_ID = 200  # ids and timestamps
MAX_MESSAGE = 1024 * 1024  # characters of one forwarded transcript message
MAX_REMOTE_APPROVALS = 100  # approvals one remote host may have waiting here
MAX_ERROR = 2000  # characters of a remote turn's error
MAX_QUEUED = 2000  # notifications held while a link catches up
MAX_QUEUED_BYTES = 16 * 1024 * 1024  # and what they may weigh together (text, roughly)


def cut(message: m.Message) -> m.Message:
    """A remote's message as it is forwarded: its first MAX_MESSAGE characters."""
    if len(message.content) <= MAX_MESSAGE:
        return message
    whole = len(message.content)
    content = message.content[:MAX_MESSAGE] + f"… ({whole} characters in all)"
    return message.model_copy(update={"content": content})


def weight(params: m.Wire) -> int:
    """Roughly what a notification held in memory weighs: its text, in characters, and
    256 for the rest of it."""
    if isinstance(params, m.MessageAppended):
        message = params.message
        calls = sum(len(c.arguments) + len(c.name) for c in message.tool_calls)
        return 256 + len(message.content) + calls
    if isinstance(params, m.TodoSnapshot):
        return 256 + sum(len(i.content) + len(i.active_form or "") for i in params.items)
    if isinstance(params, m.ApprovalRequested):
        return 256 + len(params.arguments) + len(params.tool)
    if isinstance(params, m.Session):
        return 256 + len(params.title) + len(params.updated_at)
    if isinstance(params, m.Turn):
        return 256 + len(params.error or "")
    return 256


def unbounded(params: m.Wire) -> str | None:
    """What makes a remote's notification unusable here (beyond what a local write may
    be, or the window's integers), in words; None when it is within bounds."""
    if isinstance(params, m.TodoSnapshot):
        if not 0 <= params.revision <= MAX_REVISION:
            return f"with revision {params.revision}, out of range"
        if len(params.items) > MAX_ITEMS:
            return f"with {len(params.items)} items (at most {MAX_ITEMS})"
        for item in params.items:
            if not item.content.strip() or len(item.content) > MAX_TEXT:
                return f"with an item of {len(item.content)} characters (1 to {MAX_TEXT})"
            if item.active_form is not None and len(item.active_form) > MAX_TEXT:
                return f"with an activeForm of {len(item.active_form)} characters"
    elif isinstance(params, m.Session):
        if not 0 <= params.todo_revision <= MAX_REVISION:
            return f"with revision {params.todo_revision}, out of range"
        fields = (
            params.id,
            params.created_at,
            params.updated_at,
            params.todo_updated_at or "",
            params.running_turn_id or "",
            params.parent_id or "",
        )
        if len(params.title) > MAX_TEXT or any(len(f) > MAX_ID for f in fields):
            return "with a field over its size"
    elif isinstance(params, m.Turn):
        if len(params.error or "") > MAX_ERROR or any(
            len(f) > MAX_ID for f in (params.id, params.started_at, params.finished_at or "")
        ):
            return "with a field over its size"
    elif isinstance(params, m.ApprovalRequested) and (
        len(params.arguments) > MAX_MESSAGE or len(params.tool) > MAX_TEXT
    ):
        return "with a field over its size"
    return None
