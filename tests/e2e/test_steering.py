"""Contract section 17 through the real host process and the scripted ACP agent: the
agent's modes, options, commands and usage kept per session and told, and set by the
client; the agent's refusals in its words; sign-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.host_process import RpcErrorReply
from tests.e2e.test_acp import agent_host, messages, new_session, texts, turn


def controls_note(client, session_id: str, predicate=lambda c: True) -> dict:  # type: ignore[no-untyped-def]
    note = client.wait_notification(
        lambda n: (
            n["method"] == "agents.controlsChanged"
            and n["params"]["sessionId"] == session_id
            and predicate(n["params"])
        )
    )
    return note["params"]


def test_the_agents_controls_are_kept_told_and_set(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        before = client.call("agents.controls", {"sessionId": sid})
        assert before == {
            "sessionId": sid,
            "modes": None,
            "options": [],
            "commands": [],
            "prompt": {"image": False, "audio": False, "embeddedContext": False},
            "usage": None,
            "authMethods": [],
        }
        with pytest.raises(RpcErrorReply) as early:  # no agent-side session yet
            client.call("agents.setMode", {"sessionId": sid, "modeId": "plan"})
        assert early.value.code == -32602
        assert turn(client, sid, "hello")["state"] == "completed"
        told = client.call("agents.controls", {"sessionId": sid})
        assert told["modes"]["current"] == "default"
        assert [x["id"] for x in told["modes"]["available"]] == ["default", "plan", "refused"]
        assert told["options"] == [
            {
                "id": "model",
                "name": "Model",
                "category": "model",
                "type": "select",
                "current": "small",
                "choices": [
                    {"value": v, "name": v.title(), "description": ""}
                    for v in ("small", "large", "huge")
                ],
            }
        ]
        assert told["commands"][0] == {
            "name": "review",
            "description": "Review the changes",
            "hint": "what to review",
        }
        assert told["prompt"] == {"image": True, "audio": False, "embeddedContext": True}
        assert told["authMethods"] == [
            {"id": "login", "name": "Log in with Scripted", "description": ""}
        ]
        assert controls_note(client, sid)["commands"]  # told as they came

        # the agent changes its own mode and tells its usage
        assert turn(client, sid, "plan-mode")["state"] == "completed"
        now = controls_note(client, sid, lambda c: c["usage"] is not None)
        assert now["modes"]["current"] == "plan"
        assert now["usage"] == {
            "used": 1290,
            "size": 1_000_000,
            "cost": {"amount": 0.09, "currency": "USD"},
        }

        # the client sets them
        chosen = client.call("agents.setMode", {"sessionId": sid, "modeId": "default"})
        assert chosen["modes"]["current"] == "default"
        model = client.call(
            "agents.setOption", {"sessionId": sid, "optionId": "model", "value": "large"}
        )
        assert model["options"][0]["current"] == "large"

        # refusals are the agent's words, and change nothing
        for method, params, words in (
            ("agents.setMode", {"modeId": "refused"}, "that mode is not for you"),
            ("agents.setOption", {"optionId": "model", "value": "huge"}, "needs a subscription"),
        ):
            with pytest.raises(RpcErrorReply) as refused:
                client.call(method, {"sessionId": sid, **params})
            assert refused.value.code == -32050 and words in str(refused.value)
        kept = client.call("agents.controls", {"sessionId": sid})
        assert kept["modes"]["current"] == "default" and kept["options"][0]["current"] == "large"

        # what the agent does not offer is refused before it is asked
        unoffered = [
            ("agents.setMode", {"modeId": "nope"}),
            ("agents.setOption", {"optionId": "model", "value": "tiny"}),
            ("agents.setOption", {"optionId": "model", "value": True}),
            ("agents.setOption", {"optionId": "colour", "value": "red"}),
        ]
        for method, params in unoffered:
            with pytest.raises(RpcErrorReply) as bad:
                client.call(method, {"sessionId": sid, **params})
            assert bad.value.code == -32602, (method, params)


def test_an_update_over_the_limits_is_dropped_and_said(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "hello")["state"] == "completed"
        assert turn(client, sid, "flood-commands")["state"] == "completed"
        kept = client.call("agents.controls", {"sessionId": sid})
        assert len(kept["commands"]) == 2  # as before the flood
        said = [x["content"] for x in messages(client, sid) if x["role"] == "tool"]
        assert any("commands were not used: 101 commands (at most 100)" in x for x in said), said


def test_a_long_text_is_cut_never_a_reason_to_drop_the_rest(tmp_path: Path) -> None:
    """Issue 47, point 1: a command's description of 690 characters is cut to 500 (marked
    "…"), and the list is kept with it; no error line in the transcript."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "long-commands")["state"] == "completed"
        commands = client.call("agents.controls", {"sessionId": sid})["commands"]
        assert [c["name"] for c in commands] == ["review", "init"]
        assert commands[1]["description"] == "d" * 499 + "…"
        assert not [x for x in messages(client, sid) if x["isError"] or "not used" in x["content"]]


def test_controls_over_a_mebibyte_and_late_unusable_updates_are_said_once(tmp_path: Path) -> None:
    """Issue 46, points 4 and 5: options that would make the controls 2 MiB are dropped
    and said, the controls answered as they were; 3,000 unusable updates after a turn
    ended are one line, not 3,000."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "huge-options")["state"] == "completed"
        kept = client.call("agents.controls", {"sessionId": sid})
        assert [o["id"] for o in kept["options"]] == ["model"]
        said = [x["content"] for x in messages(client, sid) if "not used" in x["content"]]
        assert len(said) == 1 and "MiB (at most 1 MiB)" in said[0], said

        assert turn(client, sid, "late-bad-commands")["state"] == "completed"
        controls_note(client, sid, lambda c: (c.get("modes") or {}).get("current") == "plan")
        said = [x["content"] for x in messages(client, sid) if "not used" in x["content"]]
        assert len(said) == 2, said  # the one above, and one for all 3,000
        assert turn(client, sid, "hello")["state"] == "completed"  # still connected


def test_sign_in_and_nibs_own_sessions(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        assert client.call("agents.authenticate", {"agent": "scripted", "methodId": "login"}) == {
            "ok": True
        }
        with pytest.raises(RpcErrorReply) as unknown:
            client.call("agents.authenticate", {"agent": "scripted", "methodId": "other"})
        assert unknown.value.code == -32602
        for agent in ("nib", "nobody"):
            with pytest.raises(RpcErrorReply) as refused:
                client.call("agents.authenticate", {"agent": agent, "methodId": "login"})
            assert refused.value.code == -32602
        own = client.call("sessions.create", {})
        with pytest.raises(RpcErrorReply) as nib:
            client.call("agents.controls", {"sessionId": own["id"]})
        assert nib.value.code == -32602


def test_files_and_images_go_to_the_agent_as_the_contract_says(tmp_path: Path) -> None:
    import base64

    with agent_host(tmp_path) as (_host, client):
        work = tmp_path / "work"
        (work / "src").mkdir(parents=True)
        (work / "src" / "a.txt").write_text("hello")
        (work / "big.bin").write_bytes(b"\0" * 10)
        (tmp_path / "secret.txt").write_text("outside")
        (work / "link.txt").symlink_to(tmp_path / "secret.txt")
        sid = new_session(client, cwd=str(work))["id"]
        image = {
            "type": "image",
            "mimeType": "image/png",
            "data": base64.b64encode(b"\x89PNG fake").decode(),
        }
        started = client.call(
            "turns.start",
            {
                "sessionId": sid,
                "text": "attached",
                "attachments": [
                    {"type": "file", "path": "src/a.txt"},
                    {"type": "file", "path": str(work / "big.bin")},
                    image,
                ],
            },
        )
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        said = [x["content"] for x in messages(client, sid) if x["content"].startswith("got:")]
        uri = (work / "src" / "a.txt").resolve().as_uri()
        assert said == [
            f"got: text {uri} 'hello'; link big.bin "
            f"{(work / 'big.bin').resolve().as_uri()}; image image/png 12"
        ]
        for bad, words in (
            ({"type": "file", "path": "../secret.txt"}, "outside the session's folder"),
            ({"type": "file", "path": "link.txt"}, "outside the session's folder"),
            ({"type": "file", "path": "missing.txt"}, "is not a file"),
            ({"type": "image", "mimeType": "image/png", "data": "not base64!"}, "base64"),
            ({"type": "image", "mimeType": "text/html", "data": "aGk="}, "mimeType"),
        ):
            with pytest.raises(RpcErrorReply) as refused:
                client.call("turns.start", {"sessionId": sid, "text": "x", "attachments": [bad]})
            assert refused.value.code == -32602 and words in str(refused.value.error), bad
        own = client.call("sessions.create", {})
        with pytest.raises(RpcErrorReply) as nib:
            attached = [{"type": "file", "path": "a"}]
            client.call(
                "turns.start", {"sessionId": own["id"], "text": "x", "attachments": attached}
            )
        assert nib.value.code == -32602


def test_a_sign_in_the_agent_refuses_is_its_words(tmp_path: Path) -> None:
    with agent_host(tmp_path, "--auth-expired") as (_host, client):
        with pytest.raises(RpcErrorReply) as refused:
            client.call("agents.authenticate", {"agent": "scripted", "methodId": "expired"})
        assert refused.value.code == -32050
        assert "the sign-in link has expired" in str(refused.value)
        assert client.call("agents.authenticate", {"agent": "scripted", "methodId": "login"}) == {
            "ok": True
        }


def test_updates_are_read_as_types_once_and_a_malformed_one_is_said_once(tmp_path: Path) -> None:
    """Issue 48, point 4: each update the transcript keeps is validated once into its type.
    Three malformed ones (a tool call's unknown status, a text that is a number, a plan
    that is not a list) are one note; a plan whose entries have no priority is the
    checklist (the SDK's own union would read it as no entries); a part of an unknown
    kind and a place without a path are left out of a call, not the call itself."""
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        assert turn(client, sid, "malformed")["state"] == "completed"
        said = messages(client, sid)
        notes = [x["content"] for x in said if "not used" in x["content"]]
        assert notes == ["The agent's updates were not used: a field is not of its form"]
        todo = client.call("todos.get", {"sessionId": sid})
        assert [(i["content"], i["status"]) for i in todo["items"]] == [
            ("Read it", "completed"),
            ("Fix it", "in_progress"),
        ]
        (result,) = [x for x in said if x.get("toolCallId") == "odd"]
        assert result["content"] == "looked" and result["activity"]["output"] == "looked"
        assert result["activity"]["locations"] == [{"path": "a.txt", "line": None}]
        assert said[-1]["content"] == "Still here."


@pytest.mark.parametrize("loads", [True, False])
def test_a_session_opened_ahead_tells_its_controls_and_its_first_prompt_is_whole(
    tmp_path: Path, loads: bool
) -> None:
    """Issue 47, point 15: `open` (the project's) starts the agent and opens the session
    when the window shows it, so its commands, modes and model are there before the first
    prompt, also after a restart. One agent-side session is opened, not two; a new one
    still gets the unfinished checklist at the head of its first prompt, and a loaded
    one's replay is neither stored nor told as a late plan."""
    flags = () if loads else ("--no-load",)
    with agent_host(tmp_path, *flags) as (_host, client):
        sid = new_session(client)["id"]
        held = client.call("agents.controls", {"sessionId": sid, "open": True})
        assert held["commands"] == []  # as held: what the agent offers follows
        told = controls_note(client, sid, lambda c: bool(c["commands"] and c["modes"]))
        assert told["commands"][0]["name"] == "review" and told["modes"]["current"] == "default"
        client.call("agents.setMode", {"sessionId": sid, "modeId": "plan"})  # no -32602 now
        started = client.call("turns.start", {"sessionId": sid, "text": "wait"})
        client.wait_notification(lambda n: n["method"] == "todos.changed")
    state = tmp_path / "data-agent-state.jsonl"
    assert len(state.read_text().splitlines()) == 1  # opened ahead, then prompted: once
    with agent_host(tmp_path, *flags) as (_host, client):
        assert client.call("turns.list", {"sessionId": sid})["turns"][0]["id"] == started["id"]
        client.call("agents.controls", {"sessionId": sid, "open": True})
        client.wait_notification(  # started by the open alone (its session opens then)
            lambda n: (
                n["method"] == "agents.changed" and n["params"]["agents"][0]["state"] == "ready"
            )
        )
        before = texts(client, sid)
        assert turn(client, sid, "echo go on")["state"] == "completed"
        answer = texts(client, sid)[-1]
        if loads:  # the agent continues its own session: nothing repeated, nothing replayed
            assert answer == "echo: echo go on" and len(state.read_text().splitlines()) == 1
        else:  # opened ahead, empty: its first prompt still carries the unfinished list
            assert len(state.read_text().splitlines()) == 2
            assert "1. [in_progress] Step 1" in answer and answer.endswith("\n\necho go on")
        added = texts(client, sid)[len(before) :]
        assert not any("after the turn" in t or "replayed" in t for t in added), added
