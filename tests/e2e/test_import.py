"""An agent's own earlier sessions (contract section 20): listed as the agent pages them
and imported as Nib sessions bound to them, through the real host process and socket and
the scripted ACP agent: its replay kept as the transcript, its last plan the checklist's
first revision, the same session imported once; an agent that only resumes says the
history was not replayed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.host_process import RpcErrorReply
from tests.e2e.test_acp import agent_host, messages, turn


def test_earlier_sessions_are_listed_paged_and_imported_once(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    with agent_host(tmp_path, "--sessions") as (_host, client):
        first = client.call("agents.sessions", {"agent": "scripted", "cwd": str(work)})
        assert [s["agentSessionId"] for s in first["sessions"]] == ["old-3", "old-2"]
        assert first["sessions"][0] == {
            "agentSessionId": "old-3",
            "title": "Earlier task 3",
            "cwd": str(work),
            "updatedAt": "2026-11-03T10:00:00Z",
            "imported": None,
        }
        rest = client.call(
            "agents.sessions",
            {"agent": "scripted", "cwd": str(work), "cursor": first["nextCursor"]},
        )
        assert [s["agentSessionId"] for s in rest["sessions"]] == ["old-1"]
        assert rest["nextCursor"] is None

        imported = client.call(
            "sessions.import", {"agent": "scripted", "agentSessionId": "old-2", "cwd": str(work)}
        )
        sid = imported["id"]
        assert (imported["agent"], imported["cwd"], imported["mode"]) == (
            "scripted",
            str(work),
            "agent",
        )
        assert imported["title"] == "Fix the parser" and imported["runningTurnId"] is None
        said = [(x["role"], x["content"]) for x in messages(client, sid)]
        assert ("user", "Fix the parser") in said and ("assistant", "Looking at it.") in said
        assert ("user", "Thanks") in said and ("assistant", "Done.") in said
        assert any(role == "tool" and "40 lines" in text for role, text in said)
        todos = client.call("todos.get", {"sessionId": sid})
        assert todos["revision"] == 1 and len(todos["items"]) == 3
        assert all(i["status"] == "completed" for i in todos["items"])
        turns = client.call("turns.list", {"sessionId": sid})["turns"]
        assert [t["state"] for t in turns] == ["completed"]
        assert client.call("checkpoints.list", {"sessionId": sid})["checkpoints"] == []
        # told once whole: the session's news came with the rest, after it was stored
        told = [
            n["method"]
            for n in client.notifications
            if n["params"].get("sessionId", n["params"].get("id")) == sid
        ]
        assert told[0] == "sessions.changed"
        # its transcript is read whole, not told message by message
        assert "messages.delta" not in told and "messages.appended" not in told
        assert "turns.changed" in told and "todos.changed" in told

        again = client.call(
            "sessions.import", {"agent": "scripted", "agentSessionId": "old-2", "cwd": str(work)}
        )
        assert again["id"] == sid
        assert [s["id"] for s in client.call("sessions.list", {})["sessions"]] == [sid]
        listed = client.call("agents.sessions", {"agent": "scripted", "cwd": str(work)})
        assert [s["imported"] for s in listed["sessions"]] == [None, sid]

        assert turn(client, sid, "hello")["state"] == "completed"  # the same agent session
        assert messages(client, sid)[-1]["content"] == "echo: hello"


def test_resume_only_agents_and_refusals(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    with agent_host(tmp_path, "--resume-only") as (_host, client):
        imported = client.call(
            "sessions.import", {"agent": "scripted", "agentSessionId": "old-1", "cwd": str(work)}
        )
        said = [x["content"] for x in messages(client, imported["id"])]
        assert len(said) == 1 and "does not replay its history" in said[0]
        cases: list[tuple[str, dict[str, Any], str]] = [
            ("agents.sessions", {"agent": "nib"}, "sessions.list"),
            ("agents.sessions", {"agent": "ghost"}, "ghost"),
            (
                "sessions.import",
                {"agent": "nib", "agentSessionId": "x", "cwd": str(work)},
                "already here",
            ),
            (
                "sessions.import",
                {"agent": "scripted", "agentSessionId": "x", "cwd": str(work / "missing")},
                "not an existing folder",
            ),
        ]
        for method, params, words in cases:
            with pytest.raises(RpcErrorReply) as error:
                client.call(method, params)
            assert error.value.code == -32602 and words in str(error.value), (method, params)


def test_an_agent_without_a_list_says_so(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    with agent_host(tmp_path) as (_host, client):
        with pytest.raises(RpcErrorReply) as error:
            client.call("agents.sessions", {"agent": "scripted", "cwd": str(work)})
        assert error.value.code == -32602 and "no session/list" in str(error.value)
        with pytest.raises(RpcErrorReply) as error:  # a load that fails leaves nothing
            client.call(
                "sessions.import",
                {"agent": "scripted", "agentSessionId": "old-9", "cwd": str(work)},
            )
        assert "could not open" in str(error.value)
        assert client.call("sessions.list", {})["sessions"] == []
