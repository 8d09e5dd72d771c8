"""The host process as contract section 1 describes it: start, ready line, exit codes."""

from __future__ import annotations

import hashlib
import os
import signal
import stat
from pathlib import Path

import pytest

from harness.host_process import (
    host_env,
    read_ready,
    running_host,
    spawn,
)
from host.protocol import SCHEMA_VERSION
from host.store.db import DB_FILENAME, open_database
from tests.helpers.db_copy import database_copy


def test_ready_line_names_socket_pid_and_versions(host) -> None:
    assert host.ready == {
        "ready": True,
        "socket": host.socket_path,
        "pid": host.proc.pid,
        "protocolVersion": 1,
        "schemaVersion": 30,
    }


def test_socket_is_user_only(host) -> None:
    mode = stat.S_IMODE(os.stat(host.socket_path).st_mode)
    assert stat.S_ISSOCK(os.stat(host.socket_path).st_mode)
    assert mode & 0o077 == 0, oct(mode)


@pytest.mark.parametrize("token", [None, "", "   "])
def test_refuses_to_start_without_token(tmp_path, socket_path, token) -> None:
    env = host_env()
    del env["NIB_HOST_TOKEN"]
    if token is not None:
        env["NIB_HOST_TOKEN"] = token
    proc = spawn(tmp_path, socket_path, env)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 2
    assert out == b""
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and "NIB_HOST_TOKEN" in lines[0]
    assert "Traceback" not in err.decode()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_newer_schema_is_refused_untouched(tmp_path, socket_path) -> None:
    db = open_database(tmp_path)
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    path = tmp_path / DB_FILENAME
    before, mtime = _digest(path), path.stat().st_mtime_ns
    proc = spawn(tmp_path, socket_path)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 3
    assert str(SCHEMA_VERSION) in err.decode() and len(err.decode().strip().splitlines()) == 1
    assert _digest(path) == before and path.stat().st_mtime_ns == mtime
    assert not (tmp_path / (DB_FILENAME + "-wal")).exists()


def test_not_a_database_is_reported(tmp_path, socket_path) -> None:
    (tmp_path / DB_FILENAME).write_bytes(b"this is not sqlite" * 100)
    proc = spawn(tmp_path, socket_path)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 4
    assert "is not an SQLite database" in err.decode()
    assert (tmp_path / DB_FILENAME).read_bytes() == b"this is not sqlite" * 100


def test_uncreatable_data_dir_is_reported(socket_path) -> None:
    # /proc refuses new folders to everyone, root included
    proc = spawn(Path("/proc/nib-test/data"), socket_path)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 4
    assert "cannot create data directory" in err.decode()
    assert len(err.decode().strip().splitlines()) == 1


def test_data_dir_that_is_a_file_is_reported(tmp_path, socket_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = spawn(blocker, socket_path)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 4
    assert "data directory" in err.decode()


def test_exits_cleanly_on_sigterm(tmp_path, socket_path) -> None:
    """Sent as soon as the ready line is read: the host may not have loaded its event
    loop yet (the line comes once the socket listens), and still stops cleanly."""
    with running_host(tmp_path, socket_path) as host:
        host.proc.send_signal(signal.SIGTERM)
        assert host.wait() == 0
        assert not os.path.lexists(socket_path)  # its socket file went with it


def test_a_request_sent_at_the_ready_line_is_answered(tmp_path, socket_path) -> None:
    """The ready line comes once the socket listens, before the event loop runs: the
    kernel keeps what a client sends until the host reads it."""
    with running_host(tmp_path, socket_path) as host:
        client = host.connect()  # connects and sends host.hello at once
        assert client.call("sessions.list") == {"sessions": []}


def test_exits_cleanly_when_stdin_closes(tmp_path, socket_path) -> None:
    with running_host(tmp_path, socket_path) as host:
        assert host.proc.stdin is not None
        host.proc.stdin.close()
        assert host.wait() == 0


def test_exits_cleanly_on_shutdown_request(tmp_path, socket_path) -> None:
    with running_host(tmp_path, socket_path) as host:
        client = host.connect()
        assert client.call("host.shutdown") == {"ok": True}
        assert host.wait() == 0
        assert client.is_closed()


def test_logs_go_to_stderr_and_a_file_never_stdout(tmp_path, socket_path) -> None:
    proc = spawn(tmp_path, socket_path)
    ready = read_ready(proc)
    assert ready["ready"] is True
    proc.terminate()
    out, err = proc.communicate(timeout=20)
    assert out == b""
    assert b"listening on" in err
    assert "listening on" in (tmp_path / "host.log").read_text()


def test_host_log_is_rotated_at_its_size(tmp_path, socket_path) -> None:
    """host.log stays within three files of 1 MB: a full one is moved aside at the next
    line written after the ready line (lines before it go to the plain file)."""
    (tmp_path / "host.log").write_text("an old line\n" * 90_000)  # 1.08 MB
    with running_host(tmp_path, socket_path) as host:
        client = host.connect()
        client.call("sessions.create", {"title": "logged"})  # a line past the ready line
        host.proc.send_signal(signal.SIGTERM)
        assert host.wait() == 0
    old = (tmp_path / "host.log.1").read_text()
    assert old.startswith("an old line\n") and "listening on" in old
    assert "stopping" in (tmp_path / "host.log").read_text()
    assert (tmp_path / "host.log").stat().st_size < 100_000


def test_restart_after_sigkill_keeps_snapshot(tmp_path, socket_path) -> None:
    with running_host(tmp_path, socket_path) as host:
        client = host.connect()
        session = client.call("sessions.create", {"title": "durable"})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "a. b. c."})
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
        before = client.call("todos.get", {"sessionId": session["id"]})
        host.proc.send_signal(signal.SIGKILL)
        host.wait()
    assert before["revision"] == 7
    with running_host(tmp_path, socket_path) as host:
        client = host.connect()
        after = client.call("todos.get", {"sessionId": session["id"]})
    assert after == before


def test_restart_ends_running_turns_as_failed(tmp_path, socket_path) -> None:
    slow = host_env(NIB_DEMO_STEP_DELAY_MS="60000")
    with running_host(tmp_path, socket_path, slow) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "one. two. three."})
        client.wait_notification(lambda n: n["method"] == "todos.changed")
        host.proc.send_signal(signal.SIGKILL)
        host.wait()
    with running_host(tmp_path, socket_path) as host:
        client = host.connect()
        again = client.call("sessions.get", {"sessionId": session["id"]})
        assert again["runningTurnId"] is None
        with database_copy(tmp_path) as db:
            sql = "SELECT state, error FROM turns WHERE id = ?"
            row = db.execute(sql, (turn["id"],)).fetchone()
        assert row == ("failed", "host restarted")
        # and a new turn may start in that session
        new = client.call("turns.start", {"sessionId": session["id"], "text": "x. y. z."})
        assert new["state"] == "running"


def test_one_host_per_data_folder(tmp_path, socket_path) -> None:
    """A second host on the same folder exits 6 with one line; the first serves on."""
    with running_host(tmp_path, socket_path) as first:
        other_socket = socket_path + "2"
        proc = spawn(tmp_path, other_socket)
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == 6 and out == b""
        lines = err.decode().strip().splitlines()
        assert len(lines) == 1 and f"pid {first.proc.pid}" in lines[0], lines
        assert first.connect().call("sessions.list", {}) == {"sessions": []}
    # the lock goes with the process: the next host starts
    with running_host(tmp_path, socket_path) as again:
        assert again.connect().call("sessions.list", {}) == {"sessions": []}


def test_the_data_folder_and_files_are_private(tmp_path, socket_path) -> None:
    folder = tmp_path / "fresh"
    with running_host(folder, socket_path) as host:
        host.connect().call("sessions.create", {})
        names = [p.name for p in folder.iterdir()]
        assert DB_FILENAME in names and "host.log" in names
        for path in folder.iterdir():
            mode = stat.S_IMODE(path.stat().st_mode)
            assert mode & 0o077 == 0, (path.name, oct(mode))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    # files an older version left open to others are made private, its rotated logs too;
    # a file of the user's that is none of the host's is left as it is
    (folder / "host.log.1").write_text("older\n")
    (folder / "notes.txt").write_text("mine\n")
    for name in ("host.log", "host.log.1", "notes.txt"):
        (folder / name).chmod(0o644)
    with running_host(folder, socket_path):
        assert stat.S_IMODE((folder / "host.log").stat().st_mode) == 0o600
        assert stat.S_IMODE((folder / "host.log.1").stat().st_mode) == 0o600
        assert stat.S_IMODE((folder / "notes.txt").stat().st_mode) == 0o644


@pytest.mark.parametrize("damage", ["truncated", "garbled"])
def test_a_damaged_database_is_refused_in_one_line(tmp_path, socket_path, damage) -> None:
    with running_host(tmp_path, socket_path) as host:
        client = host.connect()
        for i in range(200):
            client.call("sessions.create", {"title": f"session {i} " + "x" * 300})
    path = tmp_path / DB_FILENAME
    data = path.read_bytes()
    assert len(data) > 8 * 4096
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:  # every page after the first garbled, the header intact
        path.write_bytes(data[:4096] + bytes((b * 7 + 3) % 256 for b in data[4096:]))
    before = path.read_bytes()
    proc = spawn(tmp_path, socket_path)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 4, err.decode()
    text = err.decode().strip()
    assert len(text.splitlines()) == 1 and "Traceback" not in text
    assert "damaged" in text or "not an SQLite database" in text, text
    assert path.read_bytes() == before  # nothing written to it


def test_a_socket_path_naming_a_file_is_refused_untouched(tmp_path) -> None:
    victim = tmp_path / "notes.txt"
    victim.write_text("precious")
    proc = spawn(tmp_path / "d", str(victim))
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 5 and "is not a socket" in err.decode()
    assert victim.read_text() == "precious"


def test_stdio_serves_one_client_without_qt(tmp_path) -> None:
    """`nib-host --stdio`: the same framing and handshake over standard input and output
    (ssh has authenticated the user, so no token is needed), and no Qt loaded."""
    import json
    import subprocess
    import sys

    from host.protocol.framing import FrameDecoder, encode_message

    env = host_env()
    del env["NIB_HOST_TOKEN"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "host", "--stdio", "--data-dir", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "host.hello",
            "params": {"token": "", "protocolVersion": 1, "client": "ssh"},
        },
        {"jsonrpc": "2.0", "id": 2, "method": "sessions.create", "params": {"title": "far"}},
        {"jsonrpc": "2.0", "id": 3, "method": "sessions.list", "params": {}},
    ]
    out, err = proc.communicate(b"".join(encode_message(r) for r in requests), timeout=30)
    assert proc.returncode == 0, err.decode()
    answers = [json.loads(f) for f in FrameDecoder().feed(out)]
    by_id = {a["id"]: a for a in answers if "id" in a}
    assert by_id[1]["result"]["protocolVersion"] == 1
    assert [s["title"] for s in by_id[3]["result"]["sessions"]] == ["far"]
    modules = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, host.process, host.core, host.server\n"
            "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken'))))",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert modules.stdout.strip() == "[]", modules.stdout + modules.stderr


def test_the_listener_survives_running_out_of_descriptors(tmp_path, socket_path) -> None:
    """With few descriptors, idle connections exhaust them; once they close, a client is
    served at once, from the same socket file."""
    import resource
    import socket
    import subprocess
    import sys
    import time

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (40, 40))

    proc = subprocess.Popen(
        [sys.executable, "-m", "host", "--socket", socket_path, "--data-dir", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=host_env(),
        preexec_fn=low_limit,
    )
    from harness.host_process import HostProcess, RpcClient

    host = HostProcess(proc, socket_path, tmp_path, {})
    try:
        host.ready = read_ready(proc)
        host.drain_stderr()
        idle = []
        for _ in range(60):
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(2)
            try:
                s.connect(socket_path)
            except OSError:
                s.close()
                break
            idle.append(s)
        for s in idle:
            s.close()
        deadline = time.monotonic() + 10  # a bound on the wait, not a speed to meet
        while True:
            client = None
            try:
                client = RpcClient(socket_path, timeout=3)
                client.hello()
                break
            except (OSError, AssertionError, TimeoutError):
                if client is not None:
                    client.close()
                if time.monotonic() > deadline:
                    raise TimeoutError("no client served after descriptors were freed") from None
                time.sleep(0.1)
        assert client.call("sessions.list", {}) == {"sessions": []}
        assert os.path.exists(socket_path)
        client.close()
    finally:
        host.stop()


def test_a_running_host_maps_no_shared_memory_file(tmp_path, socket_path) -> None:
    """SQLite's mapped `-shm` file was a way to kill a running host: made immutable (or
    truncated) under it, the next write died of SIGBUS. The host holds its file
    exclusively and keeps the WAL index in its memory: it makes no `-shm` file, and one
    planted and made immutable while it runs changes nothing."""
    import shutil
    import subprocess

    with running_host(tmp_path, socket_path) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "a. b. c."})
        client.wait_turn_end(turn["id"])
        shm = tmp_path / (DB_FILENAME + "-shm")
        assert not shm.exists()
        shm.write_bytes(b"\0" * 32768)
        immutable = shutil.which("chattr") is not None and (
            subprocess.run(["chattr", "+i", str(shm)], capture_output=True).returncode == 0
        )
        try:
            for _ in range(3):
                turn = client.call("turns.start", {"sessionId": session["id"], "text": "x. y."})
                assert client.wait_turn_end(turn["id"])["state"] == "completed"
            assert host.proc.poll() is None
        finally:
            if immutable:
                subprocess.run(["chattr", "-i", str(shm)], capture_output=True)
    # and a host starting beside such a file uses its database as before
    if immutable:
        subprocess.run(["chattr", "+i", str(shm)], capture_output=True)
    try:
        with running_host(tmp_path, socket_path) as host:
            assert len(host.connect().call("sessions.list", {})["sessions"]) == 1
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(shm)], capture_output=True)


def test_a_clean_stop_with_clients_connected_logs_no_error(tmp_path, socket_path) -> None:
    with running_host(tmp_path / "data", socket_path) as host:
        clients = [host.connect() for _ in range(3)]
        clients[0].call("sessions.create", {})
        host.proc.terminate()
        assert host.wait() == 0
    log = (tmp_path / "data" / "host.log").read_text()
    assert " ERROR " not in log and "Traceback" not in log, log
