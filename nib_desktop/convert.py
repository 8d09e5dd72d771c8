"""From the contract's models to the renderer's rows: the one place the Main role turns
host shapes into what the renderer knows."""

from __future__ import annotations

from host.protocol import models as m
from ui.models import SessionRow, TranscriptRow
from ui.snapshots import Item, Snapshot


def snapshot(s: m.TodoSnapshot) -> Snapshot:
    return Snapshot(
        session_id=s.session_id,
        revision=s.revision,
        items=tuple(Item(i.content, i.status, i.active_form) for i in s.items),
    )


def session_row(s: m.Session) -> SessionRow:
    return SessionRow(
        sessionId=s.id,
        title=s.title,
        mode=s.mode,
        remote=s.origin == "remote",
        running=s.running_turn_id is not None,
        parentId=s.parent_id or "",
    )


def transcript_rows(message: m.Message) -> list[TranscriptRow]:
    """User and assistant text as it is; tool calls and results as compact lines."""
    rows: list[TranscriptRow] = []
    if message.role == "tool":
        text = message.content if len(message.content) <= 160 else message.content[:159] + "…"
        prefix = "← error: " if message.is_error else "← "
        return [TranscriptRow("tool_result", prefix + " ".join(text.split()), message.is_error)]
    if message.content:
        rows.append(TranscriptRow(message.role, message.content, False))
    for call in message.tool_calls:
        args = " ".join(call.arguments.split())
        args = args if len(args) <= 120 else args[:119] + "…"
        rows.append(TranscriptRow("tool_call", f"→ {call.name} {args}", False))
    return rows
