"""The Markdown export reads as a document (issue 47, point 5): an agent's headings below
the export's own, a tool's output in a fence line by line, an edit as its diff, a
command as `$ command`, and Nib's own notes never filed under "You"."""

from __future__ import annotations

import json

from host.protocol import models as m
from host.sessions.export import demoted, markdown_of

NOW = "2026-12-05T06:00:00Z"


def message(seq: int, role: str, content: str, **more: object) -> m.Message:
    return m.Message.model_validate(
        {
            "id": f"m{seq}",
            "sessionId": "s",
            "turnId": "t",
            "seq": seq,
            "role": role,
            "content": content,
            "createdAt": NOW,
            **more,
        }
    )


def session() -> m.Session:
    return m.Session.model_validate(
        {
            "id": "s",
            "title": "Fix the parser",
            "mode": "agent",
            "origin": "local",
            "remote": None,
            "parentId": None,
            "createdAt": NOW,
            "updatedAt": NOW,
            "todoRevision": 0,
            "todoUpdatedAt": None,
            "runningTurnId": None,
            "agent": "claude",
            "cwd": "/work/app",
        }
    )


def test_a_real_agents_turn_exports_as_a_readable_document() -> None:
    edit = {"file_path": "/work/app/app.py", "old_string": "print(1)", "new_string": "print(2)"}
    calls = [
        {"id": "c1", "name": "Edit", "arguments": json.dumps(edit)},
        {"id": "c2", "name": "Bash", "arguments": json.dumps({"command": "pytest -q"})},
    ]
    diff = {"path": "/work/app/app.py", "oldText": "print(1)\n", "newText": "print(2)\n", "line": 4}
    messages = [
        message(1, "user", "Fix it\n# not my heading, my words"),
        message(
            2,
            "assistant",
            "## Summary\n\nDone.\n\n```python\n# a comment, not a heading\n```",
            toolCalls=calls,
        ),
        message(
            3, "tool", "Edit app.py", toolCallId="c1", activity={"kind": "edit", "diffs": [diff]}
        ),
        message(
            4,
            "tool",
            "Run pytest",
            toolCallId="c2",
            activity={"kind": "execute", "output": "```console\n  indented line\n3 passed\n```"},
        ),
        message(5, "tool", "The agent's commands were not used: one was too long", isError=True),
    ]
    snapshot = m.TodoSnapshot(session_id="s", revision=0, updated_at=None, items=())
    text = markdown_of(session(), messages, snapshot, [])
    lines = text.splitlines()

    assert "## Summary" not in lines and "##### Summary" in lines  # below "### Agent"
    assert "# a comment, not a heading" in lines  # inside its code block: untouched
    assert "#### not my heading, my words" in lines
    assert "Calls `Edit` (its change is below)." in text and '"old_string"' not in text
    assert "```diff\n--- app.py\n+++ app.py\n@@ -4 +4 @@\n-print(1)\n+print(2)\n```" in text
    assert "```console\n$ pytest -q\n```" in text
    assert "```\n  indented line\n3 passed\n```" in text  # its lines as printed
    assert "```console\n  indented" not in text  # the agent's own fence taken off
    you = [i for i, line in enumerate(lines) if line == "### You"]
    nib = lines.index("*Nib (error):*")
    assert len(you) == 1 and nib > you[0]  # Nib's note is not the user's


def test_demoting_leaves_code_and_caps_at_six() -> None:
    assert demoted("##### deep") == "###### deep"
    assert demoted("~~~\n# kept\n~~~\n# moved") == "~~~\n# kept\n~~~\n#### moved"
    assert demoted("#hashtag") == "#hashtag"  # not a heading without its space
