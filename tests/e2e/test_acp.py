"""Sessions on an external ACP agent (contract section 15) through the real host process
and socket, the agent a real process on the official SDK (harness/acp_agent.py),
scripted by each prompt's first word."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import ACP_AGENT
from harness.host_process import (
    HostProcess,
    RpcClient,
    RpcErrorReply,
    host_env,
    running_host,
)

AGENT = ACP_AGENT


def settings(
    data_dir: Path,
    *flags: str,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    **more: Any,
) -> Path:
    """settings.json with the scripted agent as "scripted"; its state file's path."""
    data_dir.mkdir(parents=True, exist_ok=True)
    state = data_dir.parent / f"{data_dir.name}-agent-state.jsonl"
    entry: dict[str, Any] = {
        "command": sys.executable,
        "args": [str(AGENT), "--state", str(state), *flags],
        "env": env or {},
    }
    if timeout is not None:
        entry["timeout"] = timeout
    (data_dir / "settings.json").write_text(json.dumps({"agents": {"scripted": entry}, **more}))
    return state


@contextlib.contextmanager
def agent_host(
    tmp_path: Path, *flags: str, **kwargs: Any
) -> Iterator[tuple[HostProcess, RpcClient]]:
    data = tmp_path / "data"
    if not (data / "settings.json").exists():
        settings(data, *flags, **kwargs)
    home = tmp_path / "home"  # a session's default folder: small, as checkpoints read it
    home.mkdir(exist_ok=True)
    env = host_env(
        NIB_RACP_TOKEN="racp-secret-token", NIB_OPENAI_API_KEY="sk-model-key-123", HOME=str(home)
    )
    with running_host(data, str(tmp_path / "h.sock"), env) as host:
        yield host, host.connect()


def new_session(client: RpcClient, **params: Any) -> dict[str, Any]:
    session: dict[str, Any] = client.call("sessions.create", {"agent": "scripted", **params})
    return session


def turn(client: RpcClient, session_id: str, text: str, timeout: float = 30.0) -> dict[str, Any]:
    started = client.call("turns.start", {"sessionId": session_id, "text": text})
    return client.wait_turn_end(started["id"], timeout)


def messages(client: RpcClient, session_id: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.call("messages.list", {"sessionId": session_id})[
        "messages"
    ]
    return listed


def texts(client: RpcClient, session_id: str) -> list[str]:
    return [m["content"] for m in messages(client, session_id)]


def agent_state(client: RpcClient) -> dict[str, Any]:
    listed: dict[str, Any] = client.call("agents.list", {})["agents"][0]
    return listed


def test_agents_list_and_session_create(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        listed = agent_state(client)
        assert listed == {
            "name": "scripted",
            "command": sys.executable,
            "state": "idle",
            "error": None,
            "agentInfo": None,
        }
        session = new_session(client, cwd=str(tmp_path))
        assert (session["agent"], session["cwd"], session["mode"]) == (
            "scripted",
            str(tmp_path),
            "agent",
        )
        assert new_session(client)["cwd"] == str(tmp_path / "home")
        nib = client.call("sessions.create", {})
        assert (nib["agent"], nib["cwd"]) == ("nib", None)
        for bad, words in [
            ({"agent": "nobody"}, "unknown agent 'nobody'"),
            ({"agent": "scripted", "mode": "plan"}, "must be an agent-mode session"),
            ({"agent": "scripted", "cwd": "relative/dir"}, "absolute path"),
            ({"agent": "scripted", "cwd": str(tmp_path / "missing")}, "not an existing folder"),
        ]:
            with pytest.raises(RpcErrorReply) as error:
                client.call("sessions.create", bad)
            assert error.value.code == -32602 and words in str(error.value), bad
        assert len(client.call("sessions.list", {})["sessions"]) == 3


def test_a_plan_is_the_checklist_with_history(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        session = new_session(client)
        sid = session["id"]
        ended = turn(client, sid, "plan three steps")
        assert ended["state"] == "completed", ended
        changes = [n["params"] for n in client.notifications if n["method"] == "todos.changed"]
        assert [c["revision"] for c in changes] == [1, 2, 3, 4]
        assert [i["status"] for i in changes[1]["items"]] == ["completed", "in_progress", "pending"]
        snapshot = client.call("todos.get", {"sessionId": sid})
        assert snapshot["revision"] == 4
        assert [(i["content"], i["status"], i["activeForm"]) for i in snapshot["items"]] == [
            (f"Step {n}", "completed", None) for n in (1, 2, 3)
        ]
        history = client.call("todos.history", {"sessionId": sid})["revisions"]
        assert [r["revision"] for r in history] == [4, 3, 2, 1]
        assert history[0]["diff"]["statusChanged"] == [
            {"content": "Step 3", "from": "in_progress", "to": "completed"}
        ]
        listed = messages(client, sid)
        plans = [m for m in listed if m["kind"] == "plan"]
        assert [p["todo"]["revision"] for p in plans] == [1, 2, 3, 4]
        assert listed[-1]["role"] == "assistant" and listed[-1]["content"] == "All steps done.\n"
        state = agent_state(client)
        assert state["state"] == "ready"
        assert state["agentInfo"] == {"name": "scripted-agent", "version": "1.2.3"}
        assert any(n["method"] == "agents.changed" for n in client.notifications)


def test_text_thoughts_tool_calls_and_other_plans_in_the_transcript(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        client.notifications.clear()
        started = client.call("turns.start", {"sessionId": sid, "text": "stream"})
        # the first pieces are told while the agent still writes (it pauses after them)
        first = client.wait_notification(lambda n: n["method"] == "messages.delta")
        assert first["params"]["turnId"] == started["id"] and first["params"]["kind"] == "text"
        assert not [
            n
            for n in client.notifications
            if n["method"] == "messages.appended" and n["params"]["message"]["role"] == "assistant"
        ]
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        deltas = [first] + [n for n in client.notifications if n["method"] == "messages.delta"]
        # stored once whole, exactly as its deltas carried it
        assert texts(client, sid)[1:] == ["Hello world\nsecond line"]
        assert "".join(d["params"]["text"] for d in deltas) == "Hello world\nsecond line"
        assert turn(client, sid, "think")["state"] == "completed"
        thought = [m for m in messages(client, sid) if m["kind"] == "thought"]
        assert [t["content"] for t in thought] == ["Let me think."]
        assert turn(client, sid, "tool")["state"] == "completed"
        call, result = messages(client, sid)[-2:]
        assert call["toolCalls"] == [
            {
                "id": "t1",
                "name": "Read notes.txt",
                "arguments": '{"path": "notes.txt"}',
                "parentId": None,  # a call of the agent's own, not a sub-agent's
            }
        ]
        assert (result["role"], result["toolCallId"], result["content"]) == (
            "tool",
            "t1",
            "3 lines",
        )
        client.notifications.clear()
        assert turn(client, sid, "subplan")["state"] == "completed"
        assert turn(client, sid, "badplan")["state"] == "completed"
        assert not [n for n in client.notifications if n["method"] == "todos.changed"]
        sub, bad = [m for m in messages(client, sid) if m["kind"] == "plan"]
        assert "Sub-agent plan 'helper'" in sub["content"] and not sub["isError"]
        assert bad["isError"] and "not stored" in bad["content"]
        assert "at most one item may be in_progress" in bad["content"]
        assert client.call("todos.get", {"sessionId": sid})["revision"] == 0


def test_permissions_are_approvals(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        for decision, option in [
            ("allow_once", "yes"),
            ("deny", "no"),
            ("allow_session", "always"),
        ]:
            started = client.call("turns.start", {"sessionId": sid, "text": "ask"})
            asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")
            params = asked["params"]
            assert (params["tool"], params["turnId"]) == ("Write notes.txt", started["id"])
            assert json.loads(params["arguments"]) == {"path": "notes.txt", "text": "hi"}
            client.call(
                "approvals.respond", {"approvalId": params["approvalId"], "decision": decision}
            )
            assert client.wait_turn_end(started["id"])["state"] == "completed"
            assert texts(client, sid)[-1] == f"permission: {option}"


def test_an_approval_offers_the_agents_own_options_and_answers_the_one_picked(
    tmp_path: Path,
) -> None:
    """The approval carries the agent's options under its own names and kinds; an
    `optionId` reaches the agent exactly; an option that is not offered, or a decision
    the option does not carry, is refused and the call still waits."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "ask"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")
        params = asked["params"]
        assert params["options"] == [
            {"optionId": "yes", "name": "Allow", "kind": "allow_once"},
            {"optionId": "always", "name": "Always", "kind": "allow_always"},
            {"optionId": "no", "name": "Reject", "kind": "reject_once"},
        ]
        approval = params["approvalId"]
        for decision, option, words in [
            ("allow_once", "maybe", "is not one this approval offers"),
            ("allow_once", "always", "its decision is 'allow_session'"),
            ("deny", "yes", "its decision is 'allow_once'"),
        ]:
            with pytest.raises(RpcErrorReply) as refused:
                client.call(
                    "approvals.respond",
                    {"approvalId": approval, "decision": decision, "optionId": option},
                )
            assert refused.value.code == -32602 and words in refused.value.error["message"]
        client.call(
            "approvals.respond",
            {"approvalId": approval, "decision": "allow_session", "optionId": "always"},
        )
        resolved = client.wait_notification(lambda n: n["method"] == "approvals.resolved")
        assert resolved["params"]["decision"] == "allow_session"
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        assert texts(client, sid)[-1] == "permission: always"


def test_an_approval_carries_what_the_agent_asks_to_do(tmp_path: Path) -> None:
    """An edit's approval carries the diff the agent sent with its request (as a finished
    call's result would), before the user answers; a command's carries none (its input
    names it)."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "askedit"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")
        did = asked["params"]["activity"]
        assert did["kind"] == "edit" and did["status"] == "pending"
        asked_edit = {"path": "app.py", "oldText": "print(1)\n", "newText": "print(2)\n"}
        # not made yet: where it will stand is not known ("line", the project's)
        assert did["diffs"] == [{**asked_edit, "truncated": False, "line": None}]
        client.call(
            "approvals.respond", {"approvalId": asked["params"]["approvalId"], "decision": "deny"}
        )
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        assert texts(client, sid)[-1] == "permission: no"
        started = client.call("turns.start", {"sessionId": sid, "text": "askrun"})
        asked = client.wait_notification(
            lambda n: n["method"] == "approvals.requested" and "rm -rf" in n["params"]["arguments"]
        )
        assert asked["params"]["activity"] is None
        client.call(
            "approvals.respond",
            {"approvalId": asked["params"]["approvalId"], "decision": "allow_once"},
        )
        assert client.wait_turn_end(started["id"])["state"] == "completed"


def test_stop_cancels_the_agent_and_its_approval(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "wait"})
        client.wait_notification(lambda n: n["method"] == "todos.changed")
        cancelled = client.call("turns.cancel", {"sessionId": sid, "turnId": started["id"]})
        assert cancelled["state"] == "cancelled"
        assert client.call("todos.get", {"sessionId": sid})["revision"] == 1
        started = client.call("turns.start", {"sessionId": sid, "text": "ask"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")
        client.call("turns.cancel", {"sessionId": sid, "turnId": started["id"]})
        resolved = client.wait_notification(lambda n: n["method"] == "approvals.resolved")
        assert resolved["params"] == {
            "approvalId": asked["params"]["approvalId"],
            "decision": "cancelled",
        }
        with pytest.raises(RpcErrorReply):
            client.call(
                "approvals.respond",
                {"approvalId": asked["params"]["approvalId"], "decision": "allow_once"},
            )
        assert turn(client, sid, "echo still here")["state"] == "completed"


@pytest.mark.parametrize("loads", [True, False], ids=["session-load", "re-injected"])
def test_a_host_restart_hands_the_list_back(tmp_path: Path, loads: bool) -> None:
    flags = () if loads else ("--no-load",)
    with agent_host(tmp_path, *flags) as (_host, client):
        sid = new_session(client)["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "wait"})
        client.wait_notification(lambda n: n["method"] == "todos.changed")
    with agent_host(tmp_path, *flags) as (_host, client):
        turns = client.call("turns.list", {"sessionId": sid})["turns"]
        # the host's stop cancelled the turn; the list stays unfinished
        assert (turns[0]["id"], turns[0]["state"]) == (started["id"], "cancelled")
        assert turn(client, sid, "echo go on")["state"] == "completed"
        answer = texts(client, sid)[-1]
        state = (tmp_path / "data-agent-state.jsonl").read_text().splitlines()
        if loads:  # the agent continues its own session: the list is not repeated
            assert answer == "echo: echo go on" and len(state) == 1
        else:  # a new agent-side session, the unfinished checklist at its head
            assert len(state) == 2
            assert "1. [in_progress] Step 1" in answer and "2. [pending] Step 2" in answer
            assert answer.endswith("\n\necho go on")
        assert not any("replayed history" in text for text in texts(client, sid))


def test_failures_in_words_and_the_agent_started_again(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        ended = turn(client, sid, "exit")
        assert ended["state"] == "failed"
        assert ended["error"] == (
            "scripted: it exited (exit status 3): fatal: the scripted agent gave up"
        )
        client.wait_notification(
            lambda n: (
                n["method"] == "agents.changed" and n["params"]["agents"][0]["state"] == "failed"
            )
        )
        assert turn(client, sid, "echo again")["state"] == "completed"
        assert texts(client, sid)[-1] == "echo: echo again"
        ended = turn(client, sid, "maxtokens")
        assert (ended["state"], ended["error"]) == (
            "failed",
            "scripted: the agent reached its token limit",
        )
        ended = turn(client, sid, "fail")
        assert ended["state"] == "failed" and "it answered an error" in ended["error"]


def test_not_installed_unauthenticated_and_silent_agents(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(
        json.dumps(
            {
                "agents": {
                    "claude": {
                        "command": "claude-agent-acp-not-here",
                        "args": ["@agentclientprotocol/claude-agent-acp"],
                    },
                    "auth": {"command": sys.executable, "args": [str(AGENT), "--auth"]},
                    "silent": {
                        "command": sys.executable,
                        "args": [str(AGENT), "--silent-init"],
                        "timeout": 1,
                    },
                }
            }
        )
    )
    with agent_host(tmp_path) as (_host, client):
        # a command that cannot be found is told before the agent is needed: listed as
        # failed, with how to install it, and no session is made on it
        listed = {a["name"]: a for a in client.call("agents.list", {})["agents"]}
        assert listed["claude"]["state"] == "failed"
        assert listed["claude"]["error"].startswith("'claude-agent-acp-not-here' was not found")
        assert "npm install -g @agentclientprotocol/claude-agent-acp" in listed["claude"]["error"]
        assert listed["auth"]["state"] == listed["silent"]["state"] == "idle"
        with pytest.raises(RpcErrorReply) as refused:
            client.call("sessions.create", {"agent": "claude"})
        assert refused.value.code == -32602 and "was not found" in str(refused.value)
        errors = {}
        for name in ("auth", "silent"):
            sid = client.call("sessions.create", {"agent": name})["id"]
            ended = turn(client, sid, "plan")
            assert ended["state"] == "failed"
            errors[name] = ended["error"]
        assert "authentication required" in errors["auth"]
        assert "“Log in with Scripted”" in errors["auth"]
        assert errors["silent"] == "silent: it did not answer initialize within 1 s"
        states = {a["name"]: a["state"] for a in client.call("agents.list", {})["agents"]}
        assert states == {"claude": "failed", "auth": "ready", "silent": "failed"}
        # installed meanwhile (here: its command now an executable file): usable at once
        fixed = tmp_path / "claude-agent-acp-now-here"
        fixed.write_text(f"#!/bin/sh\nexec {sys.executable} {AGENT}\n")
        fixed.chmod(0o755)
        settings = json.loads((tmp_path / "data" / "settings.json").read_text())
        settings["agents"]["claude"]["command"] = str(fixed)
        (tmp_path / "data" / "settings.json").write_text(json.dumps(settings))
        sid = client.call("sessions.create", {"agent": "claude"})["id"]
        assert turn(client, sid, "plan")["state"] == "completed"


def test_the_agent_gets_a_minimal_environment(tmp_path: Path) -> None:
    with agent_host(tmp_path, env={"AGENT_SETTING": "on"}) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "env")["state"] == "completed"
        names = json.loads(texts(client, sid)[-1].removeprefix("env: "))
        assert "AGENT_SETTING" in names and "PATH" in names
        assert not [n for n in names if n.startswith("NIB_")], names


def test_new_sessions_get_the_folder_and_stdio_mcp_servers(tmp_path: Path) -> None:
    servers = {
        "files": {"command": "some-mcp-server", "args": ["--root", "."]},
        "off": {"command": "x", "disabled": True},
        "web": {"url": "http://127.0.0.1:9/mcp"},
    }
    state = settings(tmp_path / "data", mcpServers=servers)
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client, cwd=str(tmp_path))["id"]
        assert turn(client, sid, "echo hi")["state"] == "completed"
        opened = json.loads(state.read_text().splitlines()[0])
        assert (opened["cwd"], opened["mcp"]) == (str(tmp_path), ["files"])
        fork = client.call("sessions.fork", {"sessionId": sid})
        assert (fork["agent"], fork["cwd"], fork["todoRevision"]) == ("scripted", str(tmp_path), 0)
        assert turn(client, fork["id"], "echo in the fork")["state"] == "completed"
        assert len(state.read_text().splitlines()) == 2  # a new agent-side session
        with pytest.raises(RpcErrorReply) as error:
            client.call("sessions.compact", {"sessionId": sid})
        assert error.value.code == -32602


@pytest.mark.parametrize(
    ("script", "why"),
    [
        ("garbage", "disconnected: it sent a line that is not JSON: 'this is not json'"),
        ("huge", "disconnected: it sent a message over 32 MiB"),
        ("foreign", "disconnected: it sent updates for a session it does not own"),
        ("flood", "disconnected: it sent a plan of 5000 entries"),
    ],
)
def test_a_misbehaving_agent_is_disconnected_and_nothing_stored_changes(
    tmp_path: Path, script: str, why: str
) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "plan")["state"] == "completed"
        other = client.call("sessions.create", {})["id"]
        before = client.call("todos.get", {"sessionId": sid})
        ended = turn(client, sid, script)
        assert (ended["state"], ended["error"]) == ("failed", f"scripted: {why}")
        assert client.call("todos.get", {"sessionId": sid}) == before
        assert agent_state(client)["error"] == why
        assert turn(client, other, "1. One step")["state"] == "completed"
        assert turn(client, sid, "echo back")["state"] == "completed"


def test_updates_sent_before_the_answer_to_session_new_are_kept(tmp_path: Path) -> None:
    """An agent may send a new session's first updates before its answer (or the answer's
    waiter may run after them): they are held until the session is known, then taken in
    their order. Claude's agent did this in about one start in three."""
    with agent_host(tmp_path, "--early-updates") as (_host, client):
        sid = new_session(client)["id"]
        ended = turn(client, sid, "echo after the early ones")
        assert (ended["state"], ended["error"]) == ("completed", None)
        texts = [m["content"] for m in messages(client, sid)]
        assert texts[:2] == ["echo after the early ones", "ready before the answer"]
        assert texts[-1].startswith("echo: ")  # the prompt's own answer after them
        assert [i["content"] for i in client.call("todos.get", {"sessionId": sid})["items"]] == [
            "Step 1"
        ]
        assert agent_state(client)["state"] == "ready"


def test_an_update_for_a_session_nobody_opened_still_disconnects(tmp_path: Path) -> None:
    """Held while a session/new is unanswered, an update for another session id is a
    broken agent once the answer names its session."""
    with agent_host(tmp_path, "--stray-update") as (_host, client):
        sid = new_session(client)["id"]
        ended = turn(client, sid, "echo hi")
        why = "disconnected: it sent updates for a session it does not own"
        assert ended["state"] == "failed" and why in (ended["error"] or "")
        assert agent_state(client)["error"] == why


def test_a_permission_request_after_the_turn_disconnects(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "late")["state"] == "completed"
        note = client.wait_notification(
            lambda n: (
                n["method"] == "agents.changed" and n["params"]["agents"][0]["state"] == "failed"
            )
        )
        assert note["params"]["agents"][0]["error"] == (
            "disconnected: it asked permission when no turn of that session was running"
        )
        assert not [n for n in client.notifications if n["method"] == "approvals.requested"]
        assert turn(client, sid, "latesay")["state"] == "completed"
        client.wait_notification(
            lambda n: (
                n["method"] == "messages.appended" and n["params"]["message"]["kind"] == "plan"
            )
        )
        assert client.call("todos.get", {"sessionId": sid})["revision"] == 0


def children(pid: int) -> list[int]:
    """The host's child processes that are the scripted agent (the host's checkpoints
    run `git` as children too, briefly, at a turn's start and end)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            listed = (task / "children").read_text().split()
        except OSError:  # a worker thread of the host that ended meanwhile
            continue
        for child in listed:
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:  # it ended meanwhile
                continue
            if AGENT.name.encode() in command:
                found.append(int(child))
    return found


def test_stop_while_the_agent_starts_leaves_no_process(tmp_path: Path) -> None:
    with agent_host(tmp_path, "--silent-init") as (host, client):
        sid = new_session(client)["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "plan"})
        client.wait_notification(
            lambda n: (
                n["method"] == "agents.changed" and n["params"]["agents"][0]["state"] == "starting"
            )
        )
        deadline = time.monotonic() + 10  # the agent's process runs, waiting to answer
        while not children(host.proc.pid) and time.monotonic() < deadline:
            select.select([], [], [], 0.01)
        assert children(host.proc.pid)
        stopped = client.call("turns.cancel", {"sessionId": sid, "turnId": started["id"]})
        assert stopped["state"] == "cancelled"
        assert agent_state(client)["state"] == "idle"
        assert children(host.proc.pid) == []


def test_listing_agents_and_creating_a_session_load_no_sdk(tmp_path: Path) -> None:
    """The window lists agents at every connect: that, and creating an agent's session,
    read the settings alone; the SDK (about a second to import) waits for a turn."""
    import subprocess

    settings(tmp_path / "data")
    probe = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "from host.core import HostCore\n"
        "from host.handlers import HostHandlers\n"
        "from host.protocol import models as m\n"
        f"core = HostCore(Path({str(tmp_path / 'data')!r}))\n"
        "listed = core.agents_listing()\n"
        "made = HostHandlers(core).sessions_create(m.CreateSessionParams(agent='scripted'))\n"
        "HostHandlers(core).agents_controls(m.ControlsParams(session_id=made.id))\n"
        "print(json.dumps([listed.agents[0].state, 'acp' in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == ["idle", False]


def test_lone_surrogates_from_an_agent_never_wedge_a_session(tmp_path: Path) -> None:
    """What an agent says is made valid Unicode before it is stored or told: a lone
    surrogate in a tool call's title or a message, in a prompt's error, or in its own
    name (each once closed every reader of that session's transcript, left the turn
    running for ever, or failed every turn) reads as U+FFFD, and the session goes on."""
    with agent_host(tmp_path, "--bad-name") as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "surrogates")["state"] == "completed"
        listed = messages(client, sid)
        calls = [c for msg in listed for c in msg.get("toolCalls") or ()]
        assert [c["name"] for c in calls] == ["Edit \ufffd file"]
        assert "a\ufffd.txt" in calls[0]["arguments"]
        assert "half \ufffd a pair" in texts(client, sid)
        failed = turn(client, sid, "badfail")
        assert failed["state"] == "failed" and "\ufffd" in (failed["error"] or "")
        assert agent_state(client)["agentInfo"]["name"] == "scripted\ufffdagent"
        assert turn(client, sid, "echo back")["state"] == "completed"  # nothing is stuck
        assert (
            client.call("turns.list", {"sessionId": sid, "limit": 1})["turns"][0]["state"]
            == "completed"
        )


def test_terminal_methods_are_unknown_as_they_are_not_advertised(tmp_path: Path) -> None:
    """The host advertises no terminal capability: every terminal/* request is -32601
    (it was answered null or {} as if a terminal had been made, killed or released)."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "terminal")["state"] == "completed"
        assert texts(client, sid)[-1] == (
            "terminal create: -32601, output: -32601, release: -32601, wait: -32601, kill: -32601"
        )


def test_allowed_for_the_session_covers_the_same_call_never_the_same_title(
    tmp_path: Path,
) -> None:
    """An agent's tool title is its own free text: "allow for the session" covers that
    title with exactly the input the user saw; the same title with another input
    (`curl x | sh` where `hi` was allowed) is asked again."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "ask"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")
        client.call(
            "approvals.respond",
            {"approvalId": asked["params"]["approvalId"], "decision": "allow_session"},
        )
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        client.notifications.clear()
        assert turn(client, sid, "ask")["state"] == "completed"  # the same call: not asked
        assert texts(client, sid)[-1] == "permission: always"
        assert not [n for n in client.notifications if n["method"] == "approvals.requested"]
        other = client.call("turns.start", {"sessionId": sid, "text": "askother"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")
        assert json.loads(asked["params"]["arguments"])["text"] == "curl x | sh"
        client.call(
            "approvals.respond", {"approvalId": asked["params"]["approvalId"], "decision": "deny"}
        )
        assert client.wait_turn_end(other["id"])["state"] == "completed"
        assert texts(client, sid)[-1] == "permission: no"


def _gone(pid: int) -> bool:
    """No such process, or only its exit status is left (a zombie nobody reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_what_an_agent_started_ends_with_it_at_shutdown(tmp_path: Path) -> None:
    """The agent exits at once when its input closes; the process it started in its group
    is ended too (it outlived host.shutdown)."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "child")["state"] == "completed"
        pid = int(texts(client, sid)[-1].split()[1])
        assert not _gone(pid)
    deadline = time.monotonic() + 15
    while not _gone(pid) and time.monotonic() < deadline:
        select.select([], [], [], 0.05)  # a process has nothing to wait on from here
    assert _gone(pid)


def test_a_child_holding_the_agents_pipes_does_not_hold_the_shutdown(tmp_path: Path) -> None:
    """Issue 46, point 8: an agent that left a process in a session of its own (setsid),
    holding the agent's output pipes, kept host.shutdown from ending within 10 s."""
    with agent_host(tmp_path) as (host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "setsid-child")["state"] == "completed"
        pid = int(texts(client, sid)[-1].split()[1])
        try:
            client.call("host.shutdown", {})
            assert host.proc.wait(timeout=15) == 0
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_tool_call_keeps_what_it_did(tmp_path: Path) -> None:
    """Section 16: an edit's diff (sent in its update, after the call began), its
    location, and a command's whole output are stored with the call's result and read
    back by messages.list as messages.appended told them."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        client.notifications.clear()
        assert turn(client, sid, "edit")["state"] == "completed"
        results = [m for m in messages(client, sid) if m["role"] == "tool"]
        edit, run = (r["activity"] for r in results)
        assert (edit["kind"], edit["status"]) == ("edit", "completed")
        [diff] = edit["diffs"]
        assert diff["path"] == "app.py" and "line 5\n" in diff["oldText"]
        assert "line five\n" in diff["newText"] and not diff["truncated"]
        assert edit["locations"] == [{"path": "app.py", "line": 5}]
        assert run["kind"] == "execute"
        assert run["output"] == "collected 3 items\n\ntest_app.py ...\n3 passed in 0.01s"
        told = [
            n["params"]["message"]
            for n in client.notifications
            if n["method"] == "messages.appended" and n["params"]["message"]["role"] == "tool"
        ]
        assert told == results


def test_many_calls_at_once_a_huge_diff_an_image_and_a_move(tmp_path: Path) -> None:
    """50 calls, finished in reverse: each result names its own call; a 10 MB diff is
    cut at 256 KiB and says so; an image is named, not stored; a move keeps its place.
    A page read again is the same."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "edges")["state"] == "completed"
        listed = client.call("messages.list", {"sessionId": sid, "limit": 200})["messages"]
        calls = {c["id"]: c["name"] for m in listed for c in m["toolCalls"]}
        results = {m["toolCallId"]: m for m in listed if m["role"] == "tool"}
        for i in range(50):
            assert calls[f"p{i}"] == f"Read f{i}.txt"
            assert results[f"p{i}"]["activity"]["output"] == f"{i} lines"
        [diff] = results["big"]["activity"]["diffs"]
        assert diff["truncated"] and len(diff["newText"]) == 256 * 1024
        assert results["shot"]["activity"]["output"] == "(image file:///s.png)"
        # the PNG signature alone: no size in it to read, so it is named, not kept
        assert results["shot"]["activity"]["images"] == []
        assert results["mv"]["activity"]["locations"] == [{"path": "b.txt", "line": None}]
        again = client.call("messages.list", {"sessionId": sid, "limit": 200})["messages"]
        assert again == listed


def test_plans_in_markdown_or_a_file_are_told_never_the_checklist(tmp_path: Path) -> None:
    """ACP's plan_update in Markdown is told as that plan, rendered (an agent's message);
    a plan in a file names the file; plan_removed is said; none writes the checklist.
    The client advertises the plan capability."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "otherplans")["state"] == "completed"
        listed = messages(client, sid)
        said = [m["content"] for m in listed if m["role"] != "user"]
        assert "**Plan “design”** (not the session's checklist)\n\n## Design\n\n- **one**" in said
        assert "Plan 'spec' is kept in file:///w/PLAN.md (not the session's checklist)" in said
        assert "The agent removed its plan 'main': the checklist stays as it was" in said
        assert client.call("todos.get", {"sessionId": sid})["revision"] == 0
        started = client.call("turns.start", {"sessionId": sid, "text": "capabilities"})
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        assert '"plan"' in messages(client, sid)[-1]["content"]


def test_an_agents_name_and_a_tool_title_of_megabytes_are_bounded(tmp_path: Path) -> None:
    """A name of 4 MiB in the agent's initialize answer, and a permission request titled
    with 4 MiB: kept to 200 characters each, so no view that names them draws megabytes;
    the approval is answered as any other."""
    with agent_host(tmp_path, "--huge-name") as (_host, client):
        sid = new_session(client)["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "hugeask"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")
        assert len(asked["params"]["tool"]) <= 200
        client.call(
            "approvals.respond", {"approvalId": asked["params"]["approvalId"], "decision": "deny"}
        )
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        [agent] = client.call("agents.list", {})["agents"]
        assert len(agent["agentInfo"]["name"]) <= 200


def test_a_message_of_12_mib_is_kept_in_parts_that_each_fit_a_page(tmp_path: Path) -> None:
    """192 chunks of 64 KiB without a newline (issue 36, point 6): stored in parts, so a
    page of messages.list always fits a frame (limit 1 as well), and the parts hold every
    character streamed, in order."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "bigtext")["state"] == "completed"
        newest = client.call("messages.list", {"sessionId": sid, "limit": 1})["messages"]
        assert len(newest) == 1 and len(newest[0]["content"]) <= 256 * 1024
        listed: list[dict[str, Any]] = []
        before: int | None = None
        while True:  # every page, each within a frame (the host bounds a page's bytes)
            asked = {"sessionId": sid} | ({"beforeSeq": before} if before else {})
            page = client.call("messages.list", asked)
            listed[:0] = page["messages"]
            if not page["hasMore"]:
                break
            before = page["messages"][0]["seq"]
        parts = [m["content"] for m in listed if m["role"] == "assistant"]
        whole = "".join(parts)
        assert len(whole) == 192 * 65536 and all(len(p) <= 256 * 1024 for p in parts)
        assert whole[:3] == "aaa" and whole[-65536:] == chr(ord("a") + 191 % 26) * 65536


def test_thousands_of_plans_after_the_turn_are_told_once(tmp_path: Path) -> None:
    """5,000 plans after the turn ended (issue 36, point 10): one transcript line says a
    plan arrived after the turn, not 5,000; none is stored; the agent stays connected."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "lateflood")["state"] == "completed"

        def in_plan_mode(n: dict[str, Any]) -> bool:  # the agent's last word after its flood
            told = n["params"].get("modes") or {}
            return n["method"] == "agents.controlsChanged" and told.get("current") == "plan"

        client.wait_notification(in_plan_mode, 60)
        late = [m for m in messages(client, sid) if "after the turn ended" in m["content"]]
        assert len(late) == 1
        assert client.call("todos.get", {"sessionId": sid})["revision"] == 0
        assert turn(client, sid, "hello")["state"] == "completed"  # still connected


def test_an_agent_removed_or_changed_in_settings_mid_session_says_so(tmp_path: Path) -> None:
    """Issue 36, point 17: an agent removed from settings.json while its turn runs ends
    that turn saying so (not "it exited"); an agent whose settings changed while it ran
    is started again with them at its next turn, which says so."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "hello")["state"] == "completed"
        settings(tmp_path / "data", env={"NIB_TEST_CHANGED": "1"})  # its settings changed
        assert turn(client, sid, "env")["state"] == "completed"
        said = [m["content"] for m in messages(client, sid)]
        assert "scripted's settings changed in settings.json: it is started again with them" in said
        assert "NIB_TEST_CHANGED" in said[-1]  # the new settings' process answered
        started = client.call("turns.start", {"sessionId": sid, "text": "wait"})
        client.wait_notification(lambda n: n["method"] == "todos.changed")  # it is working
        (tmp_path / "data" / "settings.json").write_text("{}")  # removed meanwhile
        client.call("agents.list", {})  # settings are read again
        ended = client.wait_turn_end(started["id"])
        assert ended["state"] == "failed"
        assert ended["error"] == "scripted: it was removed from settings.json", ended


def test_dense_updates_held_before_the_answer_are_taken_whole_in_order(tmp_path: Path) -> None:
    """Issue 46, point 9: updates held while session/new is unanswered are kept as their
    JSON text (what is counted is what is held); six of 600 kB of small objects each
    (3.6 MB, under the 4 MiB bound) are taken whole once the session is known. The
    memory they cost is the peers benchmark's figure."""
    with agent_host(tmp_path, "--early-dense") as (_host, client):
        sid = new_session(client)["id"]
        ended = turn(client, sid, "echo after the dense ones")
        assert (ended["state"], ended["error"]) == ("completed", None)
        texts = [m["content"] for m in messages(client, sid)]
        assert texts == ["echo after the dense ones", "......echo: echo after the dense ones"]
        assert agent_state(client)["state"] == "ready"


def test_updates_flooding_a_session_not_opened_yet_are_bounded_in_bytes(tmp_path: Path) -> None:
    """Issue 36, point 11: 16 updates of 1 MiB for a session whose session/new is never
    answered: held up to 4 MiB only, then the agent is disconnected in words."""
    with agent_host(tmp_path, "--early-flood") as (_host, client):
        sid = new_session(client)["id"]
        ended = turn(client, sid, "hello")
        assert ended["state"] == "failed"
        assert "over 4 MiB of updates for a session not opened yet" in ended["error"], ended


def test_an_agent_that_asks_without_reading_the_answers_is_disconnected(tmp_path: Path) -> None:
    """Issue 36, point 12: 100,000 requests of a method nobody offers, while the agent
    reads nothing: the answers waiting for it are bounded, and it is disconnected in
    words; the host goes on answering."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        ended = turn(client, sid, "unknowns")
        assert ended["state"] == "failed"
        assert "it stopped reading what the host sends" in ended["error"], ended
        assert client.call("sessions.get", {"sessionId": sid})["id"] == sid
