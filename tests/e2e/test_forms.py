"""What an agent asks the user to fill in (ACP's elicitation, issue 52 point 3), through
the real host process and socket, the scripted ACP agent asking: a form told as
`agents.asked`, answered, declined, refused when it is more than Nib shows, cancelled by
its turn's end, and told again to a client that connects."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.host_process import RpcClient, RpcErrorReply
from tests.e2e.test_acp import agent_host, new_session


def asked(client: RpcClient) -> dict[str, Any]:
    params: dict[str, Any] = client.wait_notification(lambda n: n["method"] == "agents.asked", 30)[
        "params"
    ]
    return params


def said(client: RpcClient, sid: str) -> list[str]:
    return [
        m["content"]
        for m in client.call("messages.list", {"sessionId": sid})["messages"]
        if m["role"] == "assistant"
    ]


def test_a_form_is_asked_checked_and_answered(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (host, client):
        sid = new_session(client)["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "form"})
        form = asked(client)
        assert form["sessionId"] == sid and form["message"] == "Some details, please"
        assert [(f["name"], f["kind"], f["required"]) for f in form["fields"]] == [
            ("name", "text", True),
            ("count", "integer", False),
            ("sure", "boolean", False),
            ("colour", "choice", False),
        ]
        assert form["fields"][1]["default"] == "2"
        assert form["fields"][3]["choices"] == ["red", "green"]
        ask = form["askId"]
        for values, words in (
            ({"count": "3"}, "“Your name” is required"),
            ({"name": "Ada", "count": "three"}, "“How many” takes a whole number"),
            ({"name": "Ada", "colour": "blue"}, "“Colour” takes one of its choices"),
            ({"name": "Ada", "other": "x"}, "no field 'other'"),
        ):
            with pytest.raises(RpcErrorReply) as error:
                client.call("agents.answer", {"askId": ask, "action": "accept", "values": values})
            assert error.value.code == -32602 and words in str(error.value), values
        window = host.connect()  # a client that connects is asked too
        told = window.wait_notification(lambda n: n["method"] == "agents.asked")
        assert told["params"]["askId"] == ask
        values = {"name": "Ada", "count": "3", "sure": True, "colour": "green"}
        client.call("agents.answer", {"askId": ask, "action": "accept", "values": values})
        ended = client.wait_notification(lambda n: n["method"] == "agents.answered")
        assert ended["params"] == {"askId": ask, "sessionId": sid, "action": "accept"}
        assert client.wait_turn_end(turn["id"], 30)["state"] == "completed"
        content = {"colour": "green", "count": 3, "name": "Ada", "sure": True}
        assert f"form: accept {json.dumps(content, sort_keys=True)}" in said(client, sid)


def test_declined_refused_and_cancelled_by_the_turns_end(tmp_path: Path) -> None:
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client)["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "url"})
        page = asked(client)
        assert page["url"] == "https://example.org/login?x=1" and page["fields"] == []
        client.call("agents.answer", {"askId": page["askId"], "action": "decline"})
        assert client.wait_turn_end(turn["id"], 30)["state"] == "completed"
        assert "form: decline" in said(client, sid)

        # hostile forms: refused to the agent, in words it says back, never shown in part
        for command, words in (
            ("hugeform", "a form of 40 fields"),
            ("manyform", "a form of 10000 fields"),
            ("longform", "characters"),
        ):
            turn = client.call("turns.start", {"sessionId": sid, "text": command})
            assert client.wait_turn_end(turn["id"], 30)["state"] == "completed"
            refusals = [s for s in said(client, sid) if s.startswith("form refused:")]
            assert words in refusals[-1], (command, refusals)
        assert not [n for n in client.notifications if n["method"] == "agents.asked"][1:]

        turn = client.call("turns.start", {"sessionId": sid, "text": "form"})
        form = asked(client)
        client.call("turns.cancel", {"sessionId": sid, "turnId": turn["id"]})
        ended = client.wait_notification(
            lambda n: n["method"] == "agents.answered" and n["params"]["askId"] == form["askId"],
            30,
        )
        assert ended["params"] == {"askId": form["askId"], "sessionId": sid, "action": "cancel"}
        with pytest.raises(RpcErrorReply) as error:
            client.call("agents.answer", {"askId": form["askId"], "action": "accept"})
        assert error.value.code == -32602 and "nothing waits" in str(error.value)
