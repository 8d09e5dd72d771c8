"""A sub-agent's tool calls (issue 52, point 5), through the real host process and
socket and the scripted agent: each call marked as Claude Code marks them is stored with
the call it ran under."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_acp import agent_host, messages, new_session, turn


def test_a_sub_agents_calls_are_stored_under_their_task(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "subagent")["state"] == "completed"
        listed = messages(client, sid)
        calls = [(c["id"], c["name"], c["parentId"]) for m in listed for c in m["toolCalls"]]
        assert calls == [
            ("task1", "Task Explore", None),
            ("sub1", "Read a.py", "task1"),
            ("sub2", "Run ls", "task1"),
        ]
        results = [(m["toolCallId"], m["isError"]) for m in listed if m["role"] == "tool"]
        assert results == [("sub1", False), ("sub2", True), ("task1", False)]
