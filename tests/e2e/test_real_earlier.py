"""Codex and Claude Code, the real agents, with their own earlier sessions and going back to
a message (contract section 20, issue 52), through the real host process, offline against
`ScriptedModels` on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agent_calls import plan_call
from harness.fake_models import Reply, ScriptedModels
from harness.host_process import RpcClient
from harness.waiting import until_now
from tests.e2e.test_real_agents import agent_host, bin_dir, start

__all__ = ["bin_dir"]  # the module's fixture, used here by name

pytestmark = [pytest.mark.timeout(240), pytest.mark.serial]


def said(client: RpcClient, sid: str) -> list[tuple[str, str]]:
    listed = client.call("messages.list", {"sessionId": sid})["messages"]
    return [(m["role"], m["content"]) for m in listed]


@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_an_agents_own_session_is_listed_imported_and_continued(
    tmp_path: Path, bin_dir: Path, agent: str
) -> None:
    """The agent's own session, its Nib session deleted, listed for the folder and
    imported: the agent's replay kept as the transcript (the user's words and the
    agent's), its plan the checklist; imported twice, one session; its next turn goes on in
    that agent-side session (the model is sent the earlier conversation)."""
    work = tmp_path / "work"
    work.mkdir()
    with ScriptedModels() as models:
        models.script = [
            Reply(calls=(plan_call(agent, "completed", "in_progress"),)),
            Reply("Noted: the word is pelican."),
            Reply("It was pelican."),
        ]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(work)})["id"]
            ended = client.wait_turn_end(start(client, sid, "Remember the word pelican"), 120)
            assert ended["state"] == "completed", ended
            # the agent writes its session to its own files after the turn's answer:
            # listed or loaded at once, it was missing, or replayed without its last message
            until_now(
                lambda: any(
                    "Noted: the word is pelican." in p.read_text("utf-8", "replace")
                    for p in (tmp_path / f"{agent}-home").rglob("*.jsonl")
                ),
                30,
                "the agent's own record of its answer",
            )
            listed = client.call("agents.sessions", {"agent": agent, "cwd": str(work)})
            mine = [s for s in listed["sessions"] if s["imported"] == sid]
            assert len(mine) == 1, listed  # bound to the Nib session that made it
            earlier = mine[0]["agentSessionId"]
            client.call("sessions.delete", {"sessionId": sid})
            listed = client.call("agents.sessions", {"agent": agent, "cwd": str(work)})
            found = [s for s in listed["sessions"] if s["agentSessionId"] == earlier]
            assert [s["imported"] for s in found] == [None]

            asked = {"agent": agent, "agentSessionId": earlier, "cwd": str(work)}
            imported = client.call("sessions.import", asked)
            assert (imported["agent"], imported["cwd"]) == (agent, str(work))
            kept = said(client, imported["id"])
            assert ("user", "Remember the word pelican") in [
                (role, text.strip()) for role, text in kept
            ], kept
            assert ("assistant", "Noted: the word is pelican.") in kept, kept
            todos = client.call("todos.get", {"sessionId": imported["id"]})
            # the checklist is what the replay sent: Claude Code replays its TodoWrite as a
            # plan; codex-acp 0.16 replays no plan on session/load, so none is made up
            plan = [("Step 1", "completed"), ("Step 2", "in_progress")] if agent == "claude" else []
            assert [(i["content"], i["status"]) for i in todos["items"]] == plan
            assert client.call("sessions.import", asked)["id"] == imported["id"]  # one

            before = len(models.requests)
            ended = client.wait_turn_end(start(client, imported["id"], "What was the word?"), 120)
            assert ended["state"] == "completed", ended
            sent = next(json.dumps(r) for r in models.requests[before:] if r.get("tools"))
            assert "Remember the word pelican" in sent and "What was the word?" in sent
            assert said(client, imported["id"])[-1] == ("assistant", "It was pelican.")


@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_an_earlier_message_is_edited_and_resent(tmp_path: Path, bin_dir: Path, agent: str) -> None:
    """Edit and resend three turns back: the fork's transcript and folder as they were
    then, its checklist empty, the model sent the conversation only up to there; the
    parent untouched."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("first\n")
    with ScriptedModels() as models:
        models.script = [
            Reply("The first word is pelican."),
            Reply("The second word is heron."),
            Reply("The third word is stork."),
            Reply("The first word, again, is gannet."),
        ]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(work)})["id"]
            for n, text in enumerate(("Word one: pelican", "Word two: heron", "Word three")):
                if n == 1:
                    (work / "notes.txt").write_text("second\n")  # as the second turn finds it
                ended = client.wait_turn_end(start(client, sid, text), 120)
                assert ended["state"] == "completed", ended
            (work / "notes.txt").write_text("after\n")
            parent = said(client, sid)
            listed = client.call("messages.list", {"sessionId": sid})["messages"]
            back = next(m for m in listed if m["content"] == "Word two: heron")
            before = len(models.requests)
            fork = client.call(
                "sessions.rewind",
                {
                    "sessionId": sid,
                    "messageId": back["id"],
                    "text": "Word two: gannet",
                    "files": True,
                },
            )
            assert fork["parentId"] == sid
            assert (work / "notes.txt").read_text() == "second\n"  # as that turn found it
            turns = client.call("turns.list", {"sessionId": fork["id"]})["turns"]
            ended = client.wait_turn_end(turns[-1]["id"], 120)
            assert ended["state"] == "completed", ended
            sent = next(json.dumps(r) for r in models.requests[before:] if r.get("tools"))
            assert "Word one: pelican" in sent and "Word two: gannet" in sent
            assert "Word two: heron" not in sent and "Word three" not in sent
            kept = said(client, fork["id"])
            assert ("user", "Word one: pelican") in kept and ("user", "Word three") not in kept
            assert client.call("todos.get", {"sessionId": fork["id"]})["revision"] == 0
            assert said(client, sid) == parent  # the parent untouched
