"""From the contract's models to the renderer's rows: the one place the Main role turns
host shapes into what the renderer knows."""

from __future__ import annotations

import json
from collections import Counter

from host.protocol import models as m
from host.protocol.text import shorten
from ui.models import SessionRow, TranscriptRow
from ui.snapshots import Item, Snapshot, TurnView


def snapshot(s: m.TodoSnapshot) -> Snapshot:
    return Snapshot(
        session_id=s.session_id,
        revision=s.revision,
        items=tuple(Item(i.content, i.status, i.active_form) for i in s.items),
    )


def turn(t: m.Turn) -> TurnView:
    return TurnView(session_id=t.session_id, state=t.state, error=t.error or "")


def session_row(s: m.Session) -> SessionRow:
    return SessionRow(
        sessionId=s.id,
        title=s.title,
        mode=s.mode,
        remote=s.origin == "remote",
        running=s.running_turn_id is not None,
        parentId=s.parent_id or "",
    )


def _call_line(call: m.ToolCall) -> str:
    """TodoWrite calls read as what they say; other calls show their arguments."""
    if call.name == "TodoWrite":
        try:
            todos = json.loads(call.arguments).get("todos", [])
            counts = Counter(str(item.get("status", "?")) for item in todos)
        except (ValueError, AttributeError):
            return f"→ TodoWrite {shorten(call.arguments, 100)}"
        parts = [f"{n} {status.replace('_', ' ')}" for status, n in sorted(counts.items())]
        return f"→ TodoWrite: {len(todos)} steps" + (f" ({', '.join(parts)})" if parts else "")
    return f"→ {call.name} {shorten(call.arguments, 120)}"


def _result_line(message: m.Message) -> str:
    if message.is_error:
        return "← error: " + shorten(message.content, 200)
    try:
        data = json.loads(message.content)
    except ValueError:
        data = None
    if isinstance(data, dict) and "revision" in data:
        return f"← checklist revision {data['revision']}"
    return "← " + shorten(message.content, 160)


def transcript_rows(message: m.Message) -> list[TranscriptRow]:
    """User and assistant text as it is; tool calls and results as compact lines."""
    if message.role == "tool":
        return [TranscriptRow("tool_result", _result_line(message), message.is_error)]
    rows: list[TranscriptRow] = []
    if message.content:
        rows.append(TranscriptRow(message.role, message.content, False))
    rows.extend(TranscriptRow("tool_call", _call_line(call), False) for call in message.tool_calls)
    return rows
