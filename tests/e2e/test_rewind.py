"""Going back to a message (contract section 20's `sessions.rewind`) through the real host
process and socket, on a session of the host's own agent in a real git repository: a fork
up to before the message, the folder as that turn found it (undoable on the fork), a turn
started there; the parent never changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.host_process import RpcClient, RpcErrorReply, host_env, running_host
from tests.e2e.test_checkpoints import repository


def turn(client: RpcClient, sid: str, text: str) -> dict[str, Any]:
    started = client.call("turns.start", {"sessionId": sid, "text": text})
    ended = client.wait_turn_end(started["id"])
    assert ended["state"] == "completed"
    client.wait_notification(
        lambda n: (
            n["method"] == "checkpoints.changed"
            and n["params"]["checkpoint"]["reason"] == "turn-end"
            and n["params"]["checkpoint"]["turnId"] == started["id"]
        ),
        30,
        keep=True,
    )
    return started


def listed(client: RpcClient, sid: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.call("messages.list", {"sessionId": sid})["messages"]
    return found


def test_a_rewind_forks_at_a_message_with_the_folder_as_it_was(tmp_path: Path) -> None:
    folder = repository(tmp_path / "repo")
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
        turn(client, sid, "demo: 1 steps")
        (folder / "app.py").write_text("print('between')\n")  # as the second turn finds it
        second = turn(client, sid, "demo: 2 steps")
        (folder / "app.py").write_text("print('after')\n")
        (folder / "later.txt").write_text("made after\n")
        before = listed(client, sid)
        asked = next(x for x in before if x["role"] == "user" and x["turnId"] == second["id"])

        fork = client.call(
            "sessions.rewind", {"sessionId": sid, "messageId": asked["id"], "files": True}
        )
        assert fork["parentId"] == sid and fork["cwd"] == str(folder)
        kept = listed(client, fork["id"])
        assert [x["content"] for x in kept] == [
            x["content"] for x in before if x["seq"] < asked["seq"]
        ]
        assert client.call("todos.get", {"sessionId": fork["id"]})["revision"] == 0
        assert (folder / "app.py").read_text() == "print('between')\n"
        assert not (folder / "later.txt").exists()
        assert listed(client, sid) == before  # the parent is never changed

        restore = client.call("checkpoints.list", {"sessionId": fork["id"]})["checkpoints"][0]
        assert restore["reason"] == "restore"  # the fork's own: undone on the fork
        client.call("changes.restore", {"sessionId": fork["id"], "checkpointId": restore["id"]})
        assert (folder / "app.py").read_text() == "print('after')\n"
        assert (folder / "later.txt").read_text() == "made after\n"

        again = client.call(
            "sessions.rewind", {"sessionId": sid, "messageId": asked["id"], "text": "demo: 1 steps"}
        )
        assert (folder / "app.py").read_text() == "print('after')\n"  # no files: untouched
        started = client.wait_notification(
            lambda n: n["method"] == "turns.changed" and n["params"]["sessionId"] == again["id"],
            30,
        )["params"]
        assert client.wait_turn_end(started["id"])["state"] == "completed"


def test_a_rewind_is_refused_in_words(tmp_path: Path) -> None:
    folder = repository(tmp_path / "repo")
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
        plain = client.call("sessions.create", {})["id"]
        turn(client, sid, "demo: 1 steps")
        started = client.call("turns.start", {"sessionId": plain, "text": "demo: 1 steps"})
        client.wait_turn_end(started["id"])
        answer = next(x for x in listed(client, sid) if x["role"] != "user")
        asked = next(x for x in listed(client, plain) if x["role"] == "user")
        cases = [
            ({"sessionId": sid, "messageId": answer["id"]}, "no message of the user's"),
            ({"sessionId": sid, "messageId": "nothing"}, "no message of the user's"),
            ({"sessionId": plain, "messageId": asked["id"], "files": True}, "no folder"),
            ({"sessionId": sid, "messageId": asked["id"]}, "no message of the user's"),
        ]
        for params, words in cases:
            with pytest.raises(RpcErrorReply) as error:
                client.call("sessions.rewind", params)
            assert error.value.code == -32602 and words in str(error.value), params
        with pytest.raises(RpcErrorReply) as error:
            client.call("sessions.rewind", {"sessionId": "nobody", "messageId": "x"})
        assert error.value.code == -32010
