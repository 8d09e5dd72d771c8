"""The contract's sections 2-8 through the real host process and the real socket."""

from __future__ import annotations

import json
import re
from uuid import UUID

import pytest

from harness.host_process import RpcErrorReply
from tests.helpers.db_copy import database_copy

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def error_of(reply: dict) -> int:
    assert "error" in reply, reply
    return int(reply["error"]["code"])


# --- handshake ------------------------------------------------------------------------


def test_hello_answers_versions(host) -> None:
    client = host.connect(hello=False)
    result = client.hello()
    assert result["protocolVersion"] == 1 and result["schemaVersion"] == 30
    assert isinstance(result["hostVersion"], str) and result["hostVersion"]
    assert result["capabilities"] == [  # contract sections 14 and 19
        "todos",
        "agents",
        "checkpoints",
        "worktrees",
        "sessions",
    ]


def test_any_method_before_hello_is_refused_and_closed(host) -> None:
    client = host.connect(hello=False)
    assert error_of(client.request("sessions.list", {})) == -32001
    assert client.is_closed()


def test_wrong_token_is_refused_and_closed(host) -> None:
    client = host.connect(hello=False)
    reply = client.request("host.hello", {"token": "nope", "protocolVersion": 1, "client": "t"})
    assert error_of(reply) == -32001
    assert client.is_closed()


def test_unsupported_protocol_version_is_refused_and_closed(host) -> None:
    client = host.connect(hello=False)
    reply = client.request(
        "host.hello", {"token": "test-token-1234", "protocolVersion": 2, "client": "t"}
    )
    assert error_of(reply) == -32002
    assert client.is_closed()


def test_second_hello_is_invalid_request(host) -> None:
    client = host.connect()
    reply = client.request(
        "host.hello", {"token": "test-token-1234", "protocolVersion": 1, "client": "t"}
    )
    assert error_of(reply) == -32600
    assert client.call("sessions.list") == {"sessions": []}


def test_unauthenticated_connections_get_no_notifications(host) -> None:
    watcher = host.connect(hello=False)
    client = host.connect()
    client.call("sessions.create", {})
    other = host.connect()  # a later authenticated request proves the notification went out
    other.call("sessions.list")
    with pytest.raises(TimeoutError):
        watcher.receive(timeout=0.5)


# --- framing and malformed input ------------------------------------------------------

MALFORMED_CLOSING = [
    ("oversized", b"Content-Length: 8388609\r\n\r\n", -32600),
    ("no length", b"Content-Type: x\r\n\r\n{}", -32700),
    ("bad length", b"Content-Length: ten\r\n\r\n", -32700),
    ("negative length", b"Content-Length: -5\r\n\r\n", -32700),
    ("header without colon", b"Content-Length 5\r\n\r\n", -32700),
    ("endless header", b"X-Pad: " + b"a" * 9000, -32700),
]


@pytest.mark.parametrize(
    ("name", "data", "code"), MALFORMED_CLOSING, ids=[c[0] for c in MALFORMED_CLOSING]
)
def test_bad_frames_get_null_id_error_and_close(host, name, data, code) -> None:
    for hello in (False, True):
        client = host.connect(hello=hello)
        client.send_raw(data)
        reply = client.receive()
        assert reply is not None and reply["id"] is None and error_of(reply) == code
        assert client.is_closed()
    # and the host keeps serving others
    assert host.connect().call("sessions.list") == {"sessions": []}


MALFORMED_STAYING = [
    ("not json", b"{nope", None, -32700),
    ("invalid utf-8", b"\xff\xfe{}", None, -32700),
    ("batch", b'[{"jsonrpc":"2.0","id":1,"method":"sessions.list"}]', None, -32600),
    ("not an object", b"42", None, -32600),
    ("no jsonrpc", b'{"id":7,"method":"sessions.list"}', 7, -32600),
    ("method not string", b'{"jsonrpc":"2.0","id":8,"method":5}', 8, -32600),
    (
        "params not object",
        b'{"jsonrpc":"2.0","id":9,"method":"sessions.list","params":[1]}',
        9,
        -32600,
    ),
    ("unknown method", b'{"jsonrpc":"2.0","id":10,"method":"todos.write","params":{}}', 10, -32601),
    ("todos.set", b'{"jsonrpc":"2.0","id":11,"method":"todos.set","params":{}}', 11, -32601),
    (
        "bad params",
        b'{"jsonrpc":"2.0","id":12,"method":"sessions.get","params":{"x":1}}',
        12,
        -32602,
    ),
    (
        "bad mode",
        b'{"jsonrpc":"2.0","id":13,"method":"sessions.create","params":{"mode":"x"}}',
        13,
        -32602,
    ),
    (
        "blank text",
        b'{"jsonrpc":"2.0","id":14,"method":"turns.start","params":{"sessionId":"s","text":"  "}}',
        14,
        -32602,
    ),
]


@pytest.mark.parametrize(
    ("name", "body", "expected_id", "code"),
    MALFORMED_STAYING,
    ids=[c[0] for c in MALFORMED_STAYING],
)
def test_bad_messages_get_errors_and_connection_stays(host, name, body, expected_id, code) -> None:
    client = host.connect()
    client.send_body(body)
    reply = client.receive()
    assert reply is not None and reply["id"] == expected_id and error_of(reply) == code
    assert client.call("sessions.list") == {"sessions": []}


def test_framing_errors_are_the_same_before_hello(host) -> None:
    client = host.connect(hello=False)
    client.send_body(b"[1, 2]")
    reply = client.receive()
    assert reply is not None and error_of(reply) == -32600
    client.hello()


def test_invalid_params_carry_validation_details(host) -> None:
    client = host.connect()
    reply = client.request("sessions.create", {"mode": "chaos", "extra": 1})
    assert error_of(reply) == -32602
    locs = {tuple(d["loc"]) for d in reply["error"]["data"]}
    assert ("mode",) in locs and ("extra",) in locs


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("todos.history", {"beforeRevision": 2**63}),
        ("messages.list", {"beforeSeq": 2**63}),
        ("todos.history", {"beforeRevision": True}),
        ("messages.list", {"limit": "3"}),
        ("turns.list", {"limit": 3.0}),
    ],
)
def test_integers_are_strict_and_bounded(host, method: str, params: dict) -> None:
    """Out of range or not a JSON integer: -32602, never an internal error."""
    client = host.connect()
    sid = client.call("sessions.create", {})["id"]
    reply = client.request(method, {"sessionId": sid, **params})
    assert error_of(reply) == -32602, reply
    assert client.call("sessions.list", {})["sessions"]  # the connection goes on


def test_headers_in_any_order_and_case(host) -> None:
    client = host.connect()
    body = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "sessions.list"}).encode()
    client.send_raw(
        b"content-type: application/vscode-jsonrpc\r\ncontent-LENGTH: %d\r\n\r\n%s"
        % (len(body), body)
    )
    assert client.receive() == {"jsonrpc": "2.0", "id": 99, "result": {"sessions": []}}


def test_frame_split_across_writes_and_multibyte_length(host) -> None:
    client = host.connect()
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 5, "method": "sessions.create", "params": {"title": "Füße ✓"}},
        ensure_ascii=False,
    ).encode()
    data = b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    for i in range(len(data)):
        client.send_raw(data[i : i + 1])
    replies = [client.receive(), client.receive()]  # the answer and sessions.changed
    answer = next(r for r in replies if r is not None and r.get("id") == 5)
    assert answer["result"]["title"] == "Füße ✓"


# --- sessions -------------------------------------------------------------------------


def test_session_shape_and_new_session_snapshot(host) -> None:
    client = host.connect()
    session = client.call("sessions.create", {"title": "  Hello  "})
    assert set(session) == {
        "id",
        "title",
        "mode",
        "origin",
        "remote",
        "parentId",
        "createdAt",
        "updatedAt",
        "todoRevision",
        "todoUpdatedAt",
        "runningTurnId",
        "agent",
        "cwd",
        "worktree",
        "attemptId",
    }
    assert session["title"] == "Hello" and session["mode"] == "agent"
    assert (session["agent"], session["cwd"]) == ("nib", None)
    assert session["origin"] == "local" and session["remote"] is None
    assert session["todoRevision"] == 0 and session["todoUpdatedAt"] is None
    assert ISO.match(session["createdAt"]) and ISO.match(session["updatedAt"])
    snapshot = client.call("todos.get", {"sessionId": session["id"]})
    assert snapshot == {"sessionId": session["id"], "revision": 0, "updatedAt": None, "items": []}
    assert client.call("sessions.get", {"sessionId": session["id"]}) == session


def test_sessions_list_newest_first(host) -> None:
    client = host.connect()
    ids = [client.call("sessions.create", {"title": str(i)})["id"] for i in range(4)]
    listed = [s["id"] for s in client.call("sessions.list")["sessions"]]
    assert listed == ids[::-1]


def test_unknown_session_is_32010(host) -> None:
    client = host.connect()
    for method in (
        "sessions.get",
        "todos.get",
        "messages.list",
        "sessions.delete",
        "sessions.fork",
    ):
        with pytest.raises(RpcErrorReply) as info:
            client.call(method, {"sessionId": "missing"})
        assert info.value.code == -32010, method
    with pytest.raises(RpcErrorReply) as info:
        client.call("turns.start", {"sessionId": "missing", "text": "hi"})
    assert info.value.code == -32010


def test_a_remote_session_whose_host_is_unreachable_says_why(host, tmp_path) -> None:
    """Attached while its host cannot be reached: stored, shown as unreachable with the
    reason; everything carried out on its host is refused with -32012 and the reason
    (section 19: -32011 only for what a host that answers does not share)."""
    client = host.connect()
    endpoint = f"unix:{tmp_path / 'nobody-listens.sock'}"
    remote = {"endpoint": endpoint, "remoteSessionId": "r-1"}
    session = client.call("sessions.create", {"title": "far", "remote": remote})
    assert session["origin"] == "remote"
    info = session["remote"]
    assert {k: info[k] for k in remote} == remote
    assert info["state"] == "unreachable" and "No such file" in info["error"]
    for method, params, code in (
        ("todos.get", {"sessionId": session["id"]}, -32012),
        ("turns.start", {"sessionId": session["id"], "text": "hi"}, -32012),
        ("messages.list", {"sessionId": session["id"]}, -32012),
        ("sessions.fork", {"sessionId": session["id"]}, -32012),
        ("checkpoints.list", {"sessionId": session["id"]}, -32012),
        ("agents.controls", {"sessionId": session["id"]}, -32012),
    ):
        with pytest.raises(RpcErrorReply) as info_:
            client.call(method, params)
        assert info_.value.code == code, method
        if code == -32012:
            assert "unreachable" in info_.value.error["message"]
    with pytest.raises(RpcErrorReply) as info_:
        client.call("sessions.create", {"remote": {"endpoint": endpoint}})
    assert info_.value.code == -32012
    assert [s["id"] for s in client.call("sessions.list", {})["sessions"]] == [session["id"]]


def test_a_malformed_remote_endpoint_is_refused_and_nothing_stored(host) -> None:
    client = host.connect()
    for endpoint in ("not a url", "racp://far", "ssh://", "ssh://h:0", "unix:relative"):
        remote = {"endpoint": endpoint, "remoteSessionId": "r-1"}
        with pytest.raises(RpcErrorReply) as info:
            client.call("sessions.create", {"remote": remote})
        assert info.value.code == -32602, endpoint
    assert client.call("sessions.list", {})["sessions"] == []


def test_a_transcript_over_the_frame_limit_is_served_in_pages(tmp_path, socket_path) -> None:
    """10 MB of transcript: `messages.list` answers a page with `hasMore`, the connection
    stays up, and the pages together are the whole transcript."""
    from harness.host_process import running_host
    from host.core import HostCore
    from host.protocol import models as m

    core = HostCore(tmp_path / "data")
    session = core.sessions.create(m.CreateSessionParams(title="long"))
    for i in range(25):
        core.sessions.transcript.append(session.id, None, "assistant", f"{i} " + "é" * 200_000)
    core.close()
    with running_host(tmp_path / "data", socket_path) as process:
        client = process.connect()
        first = client.call("messages.list", {"sessionId": session.id})
        assert first["hasMore"] and first["total"] == 25
        seqs = [msg["seq"] for msg in first["messages"]]
        while True:
            page = client.call(
                "messages.list", {"sessionId": session.id, "beforeSeq": seqs[0], "limit": 1000}
            )
            seqs[:0] = [msg["seq"] for msg in page["messages"]]
            if not page["hasMore"]:
                break
        assert seqs == list(range(1, 26))
        assert client.call("sessions.list", {})["sessions"]  # still connected


def test_every_authenticated_connection_gets_every_notification(host) -> None:
    a, b = host.connect(), host.connect()
    session = a.call("sessions.create", {"title": "shared"})
    for client in (a, b):
        note = client.wait_notification(lambda n: n["method"] == "sessions.changed")
        assert note["params"] == session


def test_run_writes_revisions_in_commit_order_to_every_client(host) -> None:
    a, b = host.connect(), host.connect()
    session = a.call("sessions.create", {})
    turn = a.call("turns.start", {"sessionId": session["id"], "text": "one. two. three. four."})
    a.wait_turn_end(turn["id"])
    b.wait_turn_end(turn["id"])
    for client in (a, b):
        revisions = [
            n["params"]["revision"] for n in client.notifications if n["method"] == "todos.changed"
        ]
        assert revisions == list(range(1, 10))
    final = a.call("todos.get", {"sessionId": session["id"]})
    last = [n for n in b.notifications if n["method"] == "todos.changed"][-1]["params"]
    assert final == last
    assert all(item["status"] == "completed" for item in final["items"])
    assert ISO.match(final["updatedAt"])


def test_fork_copies_transcript_and_starts_empty_checklist(host) -> None:
    client = host.connect()
    parent = client.call("sessions.create", {"title": "parent"})
    turn = client.call("turns.start", {"sessionId": parent["id"], "text": "a. b. c."})
    client.wait_turn_end(turn["id"])
    fork = client.call("sessions.fork", {"sessionId": parent["id"]})
    assert fork["parentId"] == parent["id"] and fork["mode"] == parent["mode"]
    assert fork["todoRevision"] == 0
    assert client.call("todos.get", {"sessionId": fork["id"]})["items"] == []
    assert client.call("todos.get", {"sessionId": parent["id"]})["revision"] == 7
    copied = client.call("messages.list", {"sessionId": fork["id"]})["messages"]
    original = client.call("messages.list", {"sessionId": parent["id"]})["messages"]
    assert [(m["role"], m["content"]) for m in copied] == [
        (m["role"], m["content"]) for m in original
    ]
    assert all(UUID(m["id"]) and m["turnId"] is None for m in copied)
    assert not {m["id"] for m in copied} & {m["id"] for m in original}


def test_delete_cascades_in_the_file(host) -> None:
    client = host.connect()
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "a. b. c."})
    client.wait_turn_end(turn["id"])
    assert client.call("sessions.delete", {"sessionId": session["id"]}) == {"deleted": True}
    note = client.wait_notification(lambda n: n["method"] == "sessions.deleted")
    assert note["params"] == {"sessionId": session["id"]}
    with database_copy(host.data_dir) as db:
        for table in ("session_todo", "turns", "messages"):
            sql = f"SELECT count(*) FROM {table} WHERE session_id = ?"
            assert db.execute(sql, (session["id"],)).fetchone()[0] == 0, table


def test_first_message_names_the_session(host) -> None:
    client = host.connect()
    session = client.call("sessions.create", {})
    assert session["title"] == "New session"
    turn = client.call(
        "turns.start", {"sessionId": session["id"], "text": "1. Add the column\n2. x"}
    )
    renamed = client.wait_notification(
        lambda n: n["method"] == "sessions.changed" and n["params"]["runningTurnId"] == turn["id"]
    )
    assert renamed["params"]["title"] == "Add the column"
    client.wait_turn_end(turn["id"])
    titled = client.call("sessions.create", {"title": "Mine"})
    turn = client.call("turns.start", {"sessionId": titled["id"], "text": "something else"})
    client.wait_turn_end(turn["id"])
    assert client.call("sessions.get", {"sessionId": titled["id"]})["title"] == "Mine"


def test_todos_history_over_the_socket(host) -> None:
    client = host.connect()
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "one. two. three."})
    client.wait_turn_end(turn["id"])
    page = client.call("todos.history", {"sessionId": session["id"], "limit": 2})
    assert page["hasMore"] is True
    newest, older = page["revisions"]
    assert [newest["revision"], older["revision"]] == [7, 6]
    assert set(newest) == {"sessionId", "revision", "turnId", "createdAt", "items", "diff"}
    assert newest["turnId"] == turn["id"] and ISO.match(newest["createdAt"])
    assert newest["items"] == client.call("todos.get", {"sessionId": session["id"]})["items"]
    assert newest["diff"] == {
        "added": [],
        "completedRemoved": [],
        "droppedUnfinished": [],
        "reordered": False,
        "statusChanged": [{"content": "Three", "from": "in_progress", "to": "completed"}],
    }
    rest = client.call("todos.history", {"sessionId": session["id"], "beforeRevision": 6})
    assert [r["revision"] for r in rest["revisions"]] == [5, 4, 3, 2, 1]
    assert rest["hasMore"] is False and rest["revisions"][-1]["diff"]["added"] == [
        "One",
        "Two",
        "Three",
    ]
    for params, code in (
        ({"sessionId": "missing"}, -32010),
        ({"sessionId": session["id"], "limit": 0}, -32602),
        ({"sessionId": session["id"], "limit": 101}, -32602),
    ):
        with pytest.raises(RpcErrorReply) as info:
            client.call("todos.history", params)
        assert info.value.code == code
    remote = client.call(
        "sessions.create", {"remote": {"endpoint": "unix:/nowhere", "remoteSessionId": "r"}}
    )
    with pytest.raises(RpcErrorReply) as info:
        client.call("todos.history", {"sessionId": remote["id"]})
    assert info.value.code == -32012  # unreachable; a v1 remote gives -32011 (test_racp)


def test_files_list_offers_a_sessions_folder_and_refuses_without_one(host, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The project's `files.list` ("@" in a remote session, answered by its host): the
    folder's files as git lists them, its ignore rules honoured; a session with no folder
    is refused in words."""
    import subprocess

    folder = tmp_path / "work"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "app.py").write_text("print(1)\n")
    (folder / "build").mkdir()
    (folder / "build" / "out.o").write_text("")
    (folder / ".gitignore").write_text("build/\n")
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    client = host.connect()
    sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
    assert client.call("files.list", {"sessionId": sid}) == {
        "files": [".gitignore", "src/app.py"],
        "truncated": False,
    }
    bare = client.call("sessions.create", {})["id"]
    with pytest.raises(RpcErrorReply) as refused:
        client.call("files.list", {"sessionId": bare})
    assert refused.value.code == -32602 and "no folder" in refused.value.error["message"]
