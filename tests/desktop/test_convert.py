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


def test_outside_text_cannot_spoof_the_window() -> None:
    from host.protocol import models as m
    from host.protocol.text import has_visible, shown_text
    from nib_desktop import convert

    assert shown_text("plain .3") == "plain .3"
    assert shown_text("file\u202eexe.txt") == "file⟨U+202E⟩exe.txt"
    assert shown_text("a" + "\u0301" * 500 + "b") == "a" + "\u0301" * 3 + "⟨+497 marks⟩b"
    assert shown_text("café") == "café"  # ordinary accents stay
    assert not has_visible("\u200b") and not has_visible(" \u200b\u2060 ")
    assert has_visible("\u200bx")
    item = m.TodoItem(content="\u202eexe.txt", status="pending")
    snap = m.TodoSnapshot(session_id="s", revision=1, updated_at=None, items=(item,))
    assert convert.snapshot(snap).items[0].content == "⟨U+202E⟩exe.txt"
    message = m.Message(id="1", session_id="s", turn_id=None, seq=1, role="assistant",
                        content="plain \u202e.3", created_at="x")  # fmt: skip
    assert convert.TranscriptLines().rows(message)[0].text == "plain ⟨U+202E⟩.3"


def test_todowrite_refuses_an_item_with_nothing_visible() -> None:
    import pytest
    from pydantic import ValidationError

    from host.todos.schema import TodoWriteArgs

    with pytest.raises(ValidationError, match="no visible character"):
        TodoWriteArgs.model_validate({"todos": [{"content": "\u200b", "status": "pending"}]})
    ok = TodoWriteArgs.model_validate({"todos": [{"content": "Ship ✓", "status": "pending"}]})
    assert ok.todos[0].content == "Ship ✓"


def test_a_compaction_is_one_transcript_line() -> None:
    from host.protocol import models as m
    from nib_desktop import convert

    lines = convert.TranscriptLines()

    def message(seq: int, role: str, content: str) -> m.Message:
        return m.Message(id=str(seq), session_id="s", turn_id=None, seq=seq, role=role,
                         content=content, created_at="x")  # fmt: skip

    rows = []
    for seq, role in enumerate(["user", "assistant", "user", "assistant"], 1):
        rows += lines.rows(message(seq, role, f"text {seq}"))
    rows += lines.rows(message(5, "summary", "what happened"))
    assert rows[-1].kind == "summary"
    assert rows[-1].text == "Context compacted: 4 messages summarised"
