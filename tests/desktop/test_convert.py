"""Host shapes to the renderer's rows: the transcript's one line per TodoWrite."""

from __future__ import annotations

import json

from host.protocol import models as m
from nib_desktop.convert import TranscriptLines

N = 0


def message(
    role: str, content: str = "", calls: tuple[m.ToolCall, ...] = (), **extra: object
) -> m.Message:
    global N
    N += 1
    return m.Message(id=f"m{N}", session_id="s", turn_id="t", seq=N, role=role,  # type: ignore[arg-type]
                     content=content, tool_calls=calls, created_at="2026-01-01T00:00:00.000Z",
                     **extra)  # fmt: skip


def todo_write(call_id: str, *items: tuple[str, str]) -> list[m.Message]:
    todos = [{"content": c, "status": s} for c, s in items]
    call = m.ToolCall(id=call_id, name="TodoWrite", arguments=json.dumps({"todos": todos}))
    result = message("tool", "Checklist saved as revision 1.", tool_call_id=call_id)
    return [message("assistant", calls=(call,)), result]


def test_one_line_per_todo_write_telling_what_changed() -> None:
    lines = TranscriptLines()
    messages = [
        message("user", "do it"),
        *todo_write("a", ("Write", "pending"), ("Test", "pending"), ("Ship", "pending")),
        *todo_write("b", ("Write", "completed"), ("Test", "in_progress"), ("Ship", "pending")),
        *todo_write("c", ("Write", "completed"), ("Test", "completed"), ("Docs", "pending")),
    ]
    rows = [row for msg in messages for row in lines.rows(msg)]
    assert [(r.kind, r.text, r.warning) for r in rows] == [
        ("user", "do it", False),
        ("todo", "Checklist: 3 steps", False),
        ("todo", "✓ Write · ◐ Test", False),
        ("todo", "✓ Test · +1 step · dropped unfinished: “Ship”", True),
    ]


def test_a_refused_write_shows_its_error() -> None:
    lines = TranscriptLines()
    call = m.ToolCall(id="x", name="TodoWrite", arguments='{"todos": "nope"}')
    rows = lines.rows(message("assistant", calls=(call,)))
    rows += lines.rows(message("tool", "invalid arguments", tool_call_id="x", is_error=True))
    assert [(r.kind, r.isError) for r in rows] == [("tool_call", False), ("tool_result", True)]
    assert rows[1].text == "← error: invalid arguments"
