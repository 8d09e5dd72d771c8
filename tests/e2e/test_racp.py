"""RACP for real (contract section 14): a local host process as the client of a remote
host process over `unix:`, both real, each with its own data folder and token."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.host_process import (
    HostProcess,
    RpcClient,
    RpcErrorReply,
    host_env,
    running_host,
)
from harness.relay import Relay
from host.protocol.framing import encode_message
from tests.helpers.db_copy import database_copy

REMOTE_TOKEN = "remote-token-5678"
PLAN = "Do these: 1. Read the code 2. Write the tests 3. Fix the bug 4. Update the docs"


@pytest.fixture
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short folder: Unix socket paths are limited to about 100 bytes."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="racp-", dir="/tmp"))
    yield folder
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def remote_host(short: Path, delay_ms: int = 0, **env: str) -> Iterator[HostProcess]:
    extra = {"NIB_HOST_TOKEN": REMOTE_TOKEN, "NIB_DEMO_STEP_DELAY_MS": str(delay_ms), **env}
    with running_host(short / "remote-data", str(short / "remote.sock"), host_env(**extra)) as h:
        yield h


@contextlib.contextmanager
def local_host(short: Path) -> Iterator[HostProcess]:
    env = host_env(NIB_RACP_TOKEN=REMOTE_TOKEN)
    with running_host(short / "local-data", str(short / "local.sock"), env) as h:
        yield h


ALL = ["todos", "agents", "checkpoints", "worktrees", "sessions"]  # section 19


def remote_hello(remote: HostProcess) -> RpcClient:
    client = remote.connect(hello=False)
    client.hello(REMOTE_TOKEN)
    return client


def notes(client: RpcClient, method: str, session_id: str) -> list[dict[str, Any]]:
    return [
        n["params"]
        for n in client.notifications
        if n["method"] == method
        and (n["params"].get("sessionId") or n["params"].get("id")) == session_id
    ]


def wait_state(client: RpcClient, session_id: str, state: str, timeout: float = 40.0) -> dict:
    """The next sessions.changed saying `state` (those already received are old news)."""
    client.notifications = [n for n in client.notifications if n["method"] != "sessions.changed"]
    note = client.wait_notification(
        lambda n: (
            n["method"] == "sessions.changed"
            and n["params"]["id"] == session_id
            and n["params"]["remote"]["state"] == state
        ),
        timeout,
    )
    return note["params"]


def local_todo_rows(data_dir: Path, session_id: str) -> tuple[int, int]:
    """The local database's checklist rows and revision for a session."""
    with database_copy(data_dir) as db:
        rows = db.execute(
            "SELECT COUNT(*) FROM session_todo WHERE session_id = ?", (session_id,)
        ).fetchone()
        rev = db.execute(
            "SELECT todo_revision FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        return int(rows[0]), int(rev[0])


def test_a_turn_on_a_new_remote_session_streams_to_the_local_client(short: Path) -> None:
    with remote_host(short) as remote, local_host(short) as local:
        client = local.connect()
        endpoint = f"unix:{short / 'remote.sock'}"
        session = client.call("sessions.create", {"title": "far", "remote": {"endpoint": endpoint}})
        assert session["origin"] == "remote"
        info = session["remote"]
        assert info["state"] == "connected" and info["capabilities"] == ALL
        remote_id = info["remoteSessionId"]
        direct = remote_hello(remote)
        assert direct.call("sessions.get", {"sessionId": remote_id})["mode"] == "agent"

        turn = client.call("turns.start", {"sessionId": session["id"], "text": PLAN})
        assert turn["sessionId"] == session["id"] and turn["state"] == "running"
        ended = client.wait_turn_end(turn["id"])
        assert ended["state"] == "completed" and ended["sessionId"] == session["id"]

        # the checklist, under the local id with the remote's revision
        remote_snapshot = direct.call("todos.get", {"sessionId": remote_id})
        assert remote_snapshot["revision"] >= 5
        local_snapshot = client.call("todos.get", {"sessionId": session["id"]})
        assert local_snapshot == {**remote_snapshot, "sessionId": session["id"]}
        client.wait_notification(
            lambda n: (
                n["method"] == "todos.changed"
                and n["params"]["revision"] == remote_snapshot["revision"]
            )
        )
        revisions = [s["revision"] for s in notes(client, "todos.changed", session["id"])]
        assert revisions == sorted(set(revisions))
        # the transcript, in order, once each
        listing = client.call("messages.list", {"sessionId": session["id"]})
        remote_listing = direct.call("messages.list", {"sessionId": remote_id})
        assert [m["id"] for m in listing["messages"]] == [
            m["id"] for m in remote_listing["messages"]
        ]
        assert {m["sessionId"] for m in listing["messages"]} == {session["id"]}
        history = client.call("todos.history", {"sessionId": session["id"]})
        assert history["revisions"][0]["revision"] == remote_snapshot["revision"]
        assert (
            client.call("sessions.get", {"sessionId": session["id"]})["todoRevision"]
            == (remote_snapshot["revision"])
        )
        # nothing of it was written to (or answered from) the local database
        assert local_todo_rows(local.data_dir, session["id"]) == (0, 0)


def test_attach_an_existing_session_and_refuse_an_unknown_one(short: Path) -> None:
    with remote_host(short) as remote, local_host(short) as local:
        direct = remote_hello(remote)
        there = direct.call("sessions.create", {"title": "Made there"})
        turn = direct.call("turns.start", {"sessionId": there["id"], "text": PLAN})
        direct.wait_turn_end(turn["id"])
        client = local.connect()
        endpoint = f"unix:{short / 'remote.sock'}"
        listed = client.call("remote.sessions", {"endpoint": endpoint})
        assert [s["id"] for s in listed["sessions"]] == [there["id"]]

        attached = client.call(
            "sessions.create", {"remote": {"endpoint": endpoint, "remoteSessionId": there["id"]}}
        )
        assert attached["title"] == f"Do these: 1. Read the code on {short / 'remote.sock'}"[
            :60
        ] or (attached["title"].endswith(f" on {short / 'remote.sock'}"))
        page = client.call("messages.list", {"sessionId": attached["id"]})
        assert page["total"] == direct.call("messages.list", {"sessionId": there["id"]})["total"]
        turns = client.call("turns.list", {"sessionId": attached["id"]})["turns"]
        assert turns[0]["id"] == turn["id"] and turns[0]["sessionId"] == attached["id"]

        before = client.call("sessions.list", {})["sessions"]
        with pytest.raises(RpcErrorReply) as info:
            client.call(
                "sessions.create", {"remote": {"endpoint": endpoint, "remoteSessionId": "nope"}}
            )
        assert info.value.code == -32010 and "nope" in info.value.error["message"]
        assert client.call("sessions.list", {})["sessions"] == before
        # a fork is made on the remote host and linked here as a session of its own,
        # the local parent named (section 19)
        fork = client.call("sessions.fork", {"sessionId": attached["id"]})
        assert fork["origin"] == "remote" and fork["parentId"] == attached["id"]
        forked_there = direct.call("sessions.get", {"sessionId": fork["remote"]["remoteSessionId"]})
        assert forked_there["parentId"] == there["id"]
        assert client.call("messages.list", {"sessionId": fork["id"]})["total"] == page["total"]
        # deleting the local row leaves the remote session
        client.call("sessions.delete", {"sessionId": attached["id"]})
        assert direct.call("sessions.get", {"sessionId": there["id"]})["id"] == there["id"]


def test_a_v1_remote_runs_turns_but_its_checklist_is_not_available(short: Path) -> None:
    with remote_host(short, NIB_RACP_V1="1") as remote, local_host(short) as local:
        client = local.connect()
        endpoint = f"unix:{short / 'remote.sock'}"
        session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
        assert session["remote"]["capabilities"] == []
        turn = client.call("turns.start", {"sessionId": session["id"], "text": PLAN})
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
        for method in ("todos.get", "todos.history"):
            with pytest.raises(RpcErrorReply) as info:
                client.call(method, {"sessionId": session["id"]})
            assert info.value.code == -32011, method
        assert notes(client, "todos.changed", session["id"]) == []
        assert client.call("sessions.get", {"sessionId": session["id"]})["todoRevision"] == 0
        remote_id = session["remote"]["remoteSessionId"]
        assert remote_hello(remote).call("todos.get", {"sessionId": remote_id})["revision"] >= 5


def test_a_dropped_link_catches_up_and_the_remote_turn_keeps_running(short: Path) -> None:
    """The link drops mid-turn: the session says unreachable, Stop is refused in words,
    the turn finishes on its host, and after the reconnect the transcript, the turn's end
    and the checklist arrive once each, in order."""
    relay = Relay(str(short / "relay.sock"), str(short / "remote.sock"))
    with remote_host(short, delay_ms=150) as remote, local_host(short) as local:
        relay.start()
        client = local.connect()
        endpoint = f"unix:{short / 'relay.sock'}"
        session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
        sid, remote_id = session["id"], session["remote"]["remoteSessionId"]
        turn = client.call("turns.start", {"sessionId": sid, "text": PLAN})
        client.wait_notification(lambda n: n["method"] == "todos.changed")
        relay.cut()
        gone = wait_state(client, sid, "unreachable")
        assert gone["remote"]["error"]
        with pytest.raises(RpcErrorReply) as info:
            client.call("turns.cancel", {"sessionId": sid, "turnId": turn["id"]})
        assert info.value.code == -32012 and "unreachable" in info.value.error["message"]

        direct = remote_hello(remote)
        assert direct.wait_turn_end(turn["id"], timeout=30)["state"] == "completed"
        final = direct.call("todos.get", {"sessionId": remote_id})
        remote_messages = direct.call("messages.list", {"sessionId": remote_id})["messages"]

        relay.start()
        back = wait_state(client, sid, "connected")
        assert back["runningTurnId"] is None and back["todoRevision"] == final["revision"]
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
        appended = [n["message"]["id"] for n in notes(client, "messages.appended", sid)]
        assert appended == [m["id"] for m in remote_messages]  # once each, in order
        snapshots = notes(client, "todos.changed", sid)
        assert snapshots[-1] == {**final, "sessionId": sid}
        assert [s["revision"] for s in snapshots] == sorted({s["revision"] for s in snapshots})
        assert client.call("todos.get", {"sessionId": sid}) == {**final, "sessionId": sid}
        relay.cut()


def test_a_remote_killed_mid_turn_is_unreachable_then_its_end_arrives(short: Path) -> None:
    with local_host(short) as local:
        client = local.connect()
        endpoint = f"unix:{short / 'remote.sock'}"
        with remote_host(short, delay_ms=300) as remote:
            session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
            sid = session["id"]
            turn = client.call("turns.start", {"sessionId": sid, "text": PLAN})
            client.wait_notification(lambda n: n["method"] == "todos.changed")
            os.kill(remote.proc.pid, signal.SIGKILL)
            remote.proc.wait(10)
            wait_state(client, sid, "unreachable")
            # local sessions are not affected
            here = client.call("sessions.create", {"title": "here"})
            local_turn = client.call("turns.start", {"sessionId": here["id"], "text": "1. one"})
            assert client.wait_turn_end(local_turn["id"])["state"] == "completed"
        with remote_host(short):
            wait_state(client, sid, "connected")
            ended = client.wait_turn_end(turn["id"])
            assert ended["state"] == "failed" and ended["error"] == "host restarted"
            assert ended["sessionId"] == sid


def serve_once(path: str, behaviour: str) -> threading.Thread:
    """A peer that is not a well-behaved host, answering each connection its way."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)
    listener.settimeout(0.2)

    def run() -> None:
        while getattr(thread, "running", True):
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                with contextlib.suppress(OSError):
                    conn.recv(65536)  # the hello
                    if behaviour == "version":
                        error = {"code": -32002, "message": "protocol version 1 is not supported"}
                        conn.sendall(encode_message({"jsonrpc": "2.0", "id": 1, "error": error}))
                    elif behaviour == "garbage":
                        conn.sendall(b"Content-Length: 5\r\n\r\nhello")
                    elif behaviour == "oversized":
                        conn.sendall(b"Content-Length: 99999999\r\n\r\n")
                    # "close": nothing at all
        listener.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(
    ("behaviour", "words"),
    [
        ("version", "another protocol version"),
        ("close", "closed the connection during the handshake"),
        ("garbage", "not JSON-RPC"),
        ("oversized", "byte limit"),
    ],
)
def test_a_remote_that_misbehaves_is_reported_and_local_sessions_go_on(
    short: Path, behaviour: str, words: str
) -> None:
    path = str(short / "bad.sock")
    peer = serve_once(path, behaviour)
    try:
        with local_host(short) as local:
            client = local.connect()
            endpoint = f"unix:{path}"
            with pytest.raises(RpcErrorReply) as info:
                client.call("sessions.create", {"remote": {"endpoint": endpoint}})
            assert info.value.code == -32012 and words in info.value.error["message"]
            attached = client.call(
                "sessions.create", {"remote": {"endpoint": endpoint, "remoteSessionId": "r1"}}
            )
            assert attached["remote"]["state"] == "unreachable"
            assert words in attached["remote"]["error"]
            with pytest.raises(RpcErrorReply) as info:
                client.call("turns.start", {"sessionId": attached["id"], "text": "hi"})
            assert info.value.code == -32012
            here = client.call("sessions.create", {"title": "here"})
            turn = client.call("turns.start", {"sessionId": here["id"], "text": "1. one"})
            assert client.wait_turn_end(turn["id"])["state"] == "completed"
    finally:
        peer.running = False  # type: ignore[attr-defined]
        peer.join(5)


def test_a_remote_turn_over_ssh_end_to_end(short: Path) -> None:
    """Through a real sshd on 127.0.0.1: the system's ssh client runs `nib-host --stdio`
    on the "remote" side, which trusts ssh's authentication alone."""
    from harness.sshd import remote_command, running_sshd

    with running_sshd(short / "ssh") as server:
        env = host_env(
            NIB_SSH_COMMAND=server.ssh_command(),
            NIB_REMOTE_HOST_COMMAND=remote_command(short / "far-data", NIB_DEMO_STEP_DELAY_MS="0"),
        )
        with running_host(short / "local-data", str(short / "local.sock"), env) as local:
            client = local.connect()
            session = client.call("sessions.create", {"remote": {"endpoint": server.endpoint()}})
            assert session["remote"]["state"] == "connected"
            assert session["remote"]["capabilities"] == ALL
            sid = session["id"]
            turn = client.call("turns.start", {"sessionId": sid, "text": PLAN})
            assert client.wait_turn_end(turn["id"])["state"] == "completed"
            snapshot = client.call("todos.get", {"sessionId": sid})
            assert snapshot["sessionId"] == sid and len(snapshot["items"]) == 4
            assert {i["status"] for i in snapshot["items"]} == {"completed"}
            changed = notes(client, "todos.changed", sid)
            assert changed[-1] == snapshot
            assert local_todo_rows(local.data_dir, sid) == (0, 0)
            assert (short / "far-data" / "nib.sqlite3").exists()  # it ran over there


def test_an_ssh_remote_that_refuses_the_key_says_so(short: Path) -> None:
    from harness.sshd import _keygen, remote_command, running_sshd

    with running_sshd(short / "ssh") as server:
        stranger = short / "ssh" / "stranger_key"
        _keygen(stranger)
        env = host_env(
            NIB_SSH_COMMAND=server.ssh_command(stranger),
            NIB_REMOTE_HOST_COMMAND=remote_command(short / "far-data"),
        )
        with running_host(short / "local-data", str(short / "local.sock"), env) as local:
            client = local.connect()
            with pytest.raises(RpcErrorReply) as info:
                client.call("sessions.create", {"remote": {"endpoint": server.endpoint()}})
            assert info.value.code == -32012
            assert "Permission denied" in info.value.error["message"]
            assert not (short / "far-data").exists()


def test_an_ssh_link_that_drops_mid_turn_lets_the_turn_finish_there(short: Path) -> None:
    """The ssh client dies mid-turn: `nib-host --stdio` over there runs on; the link
    comes back while the turn still runs (the second `nib-host --stdio` joins the first:
    one host, one data folder), and the turn's end and checklist arrive as they come."""
    from harness.sshd import remote_command, running_sshd

    with running_sshd(short / "ssh") as server:
        env = host_env(
            NIB_SSH_COMMAND=server.ssh_command(),
            NIB_REMOTE_HOST_COMMAND=remote_command(
                short / "far-data", NIB_DEMO_STEP_DELAY_MS="2500"
            ),
        )
        with running_host(short / "local-data", str(short / "local.sock"), env) as local:
            client = local.connect()
            session = client.call("sessions.create", {"remote": {"endpoint": server.endpoint()}})
            sid = session["id"]
            turn = client.call("turns.start", {"sessionId": sid, "text": PLAN})
            client.wait_notification(lambda n: n["method"] == "todos.changed")
            ssh = [
                int(pid)
                for pid in Path(f"/proc/{local.proc.pid}/task/{local.proc.pid}/children")
                .read_text()
                .split()
                if Path(f"/proc/{pid}/comm").read_text().strip() == "ssh"
            ]
            assert len(ssh) == 1
            far_host = (short / "far-data" / "host.lock").read_text()
            os.kill(ssh[0], signal.SIGKILL)
            wait_state(client, sid, "unreachable")
            back = wait_state(client, sid, "connected", timeout=60)
            assert back["runningTurnId"] == turn["id"]  # joined mid-turn, not refused
            assert (short / "far-data" / "host.lock").read_text() == far_host
            ended = client.wait_turn_end(turn["id"], timeout=60)
            assert ended["state"] == "completed"  # it ran on to its end over there
            snapshot = client.call("todos.get", {"sessionId": sid})
            assert {i["status"] for i in snapshot["items"]} == {"completed"}
            assert notes(client, "todos.changed", sid)[-1] == snapshot


def test_a_remote_turns_approval_is_asked_and_answered_here(short: Path) -> None:
    """An MCP call on the remote host waits for the user at this end."""
    import json
    import sys

    root = Path(__file__).resolve().parents[2]
    server = {
        "command": sys.executable,
        "args": ["-m", "harness.mcp_test_server"],
        "env": {"PYTHONPATH": str(root)},
    }
    (short / "remote-data").mkdir(parents=True)
    (short / "remote-data" / "settings.json").write_text(
        json.dumps({"mcpServers": {"test": server}})
    )
    with remote_host(short) as remote, local_host(short) as local:
        direct = remote_hello(remote)
        while direct.call("tools.list", {})["servers"][0]["state"] != "ready":
            direct.wait_notification(lambda n: n["method"] == "tools.changed", 30)
        client = local.connect()
        endpoint = f"unix:{short / 'remote.sock'}"
        session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "Please echo this"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested")["params"]
        assert asked["sessionId"] == session["id"] and asked["tool"] == "mcp__test__echo"
        client.call(
            "approvals.respond", {"approvalId": asked["approvalId"], "decision": "allow_once"}
        )
        resolved = client.wait_notification(lambda n: n["method"] == "approvals.resolved")
        assert resolved["params"]["decision"] == "allow_once"
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
        messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
        assert [m["content"] for m in messages if m["role"] == "tool"] == ["echo: Please echo this"]


def test_stop_on_a_linked_remote_session_stops_the_turn_there(short: Path) -> None:
    with remote_host(short, delay_ms=60000) as remote, local_host(short) as local:
        client = local.connect()
        endpoint = f"unix:{short / 'remote.sock'}"
        session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": PLAN})
        client.wait_notification(lambda n: n["method"] == "todos.changed")
        with pytest.raises(RpcErrorReply) as info:  # one turn at a time, as locally
            client.call("turns.start", {"sessionId": session["id"], "text": "more"})
        assert info.value.code == -32020
        ended = client.call("turns.cancel", {"sessionId": session["id"], "turnId": turn["id"]})
        assert ended == {**ended, "state": "cancelled", "sessionId": session["id"]}
        remote_id = session["remote"]["remoteSessionId"]
        there = remote_hello(remote).call("turns.list", {"sessionId": remote_id})["turns"][0]
        assert there["id"] == turn["id"] and there["state"] == "cancelled"
        assert client.call("sessions.get", {"sessionId": session["id"]})["runningTurnId"] is None


LISTENER = """
import os, socket, sys
path, out = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX)
server.bind(path)
os.chmod(path, 0o777)
server.listen(1)
print("listening", flush=True)
conn, _ = server.accept()
conn.settimeout(5)
got = b""
try:
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        got += chunk
except OSError:
    pass
open(out, "wb").write(got)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a listener as another user")
def test_the_racp_token_is_never_given_to_another_users_socket(short: Path) -> None:
    import subprocess

    os.chmod(short, 0o711)  # the other user may pass through to its own folder
    folder = short / "strangers"
    folder.mkdir()
    os.chmod(folder, 0o777)
    path, out = folder / "h.sock", folder / "got"
    python = "/usr/bin/python3"  # one another user may run (not a venv under /root)
    if not os.access(python, os.X_OK):
        pytest.skip("no system python3 to run the other user's listener")
    listener = subprocess.Popen(
        [python, "-c", LISTENER, str(path), str(out)],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.setuid(65534),
    )
    try:
        assert listener.stdout is not None and listener.stdout.readline() == "listening\n"
        with local_host(short) as local:
            client = local.connect()
            with pytest.raises(RpcErrorReply) as refused:
                client.call("sessions.create", {"remote": {"endpoint": f"unix:{path}"}})
            assert "runs as another user (uid 65534)" in refused.value.error["message"]
        listener.wait(10)
        assert REMOTE_TOKEN.encode() not in out.read_bytes()
    finally:
        listener.kill()
        listener.wait(10)
        if listener.stdout is not None:
            listener.stdout.close()
