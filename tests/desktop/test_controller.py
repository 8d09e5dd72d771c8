"""The Main role with the real host process: supervision, reconnects, the bridge."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness.waiting import until
from nib_desktop.link.supervisor import HostSupervisor, host_command
from nib_desktop.state import events as ev, intents as it
from tests.helpers.launches import assert_a_second_launch_brings_the_first_forward


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purposes
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "State:\tZ" not in status.read_text()


def test_notifications_reach_the_store_in_commit_order(gui, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    seen: list[int] = []

    def heard(event: object, _change: object) -> None:
        if isinstance(event, ev.SnapshotArrived):
            seen.append(event.snapshot.revision)

    gui.state.subscribe(heard)

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("1. one\n2. two\n3. three\n4. four")

        def finished() -> bool:
            snapshot = gui.state.snapshot(session.id)
            return snapshot is not None and snapshot.revision == 9

        await until(finished, 20, "the demo turn")

    gui.run(body())
    notified = [r for r in seen if r > 0]
    assert notified == list(range(1, 10))
    final = gui.state.snapshot(gui.sessions.property("currentId"))
    assert final is not None and all(i.status == "completed" for i in final.items)


def test_reconnect_after_sigkill_recovers_the_checklist(gui) -> None:
    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("a. b. c.")
        await until(lambda: (s := gui.state.snapshot(session.id)) and s.revision >= 1)
        await until(lambda: gui.state.transcript.loaded, what="the session shown")
        gets = gui.calls["todos.get"]
        old_pid = gui.supervisor.pid
        os.kill(old_pid, signal.SIGKILL)
        await until(lambda: gui.connection.property("state") == "reconnecting", 5)
        await gui.frame()
        assert gui.item("connectionText").property("text") == "Reconnecting…"
        await until(lambda: gui.connection.property("state") == "ready", 15, "reconnect")
        await until(lambda: gui.calls["todos.get"] == gets + 1, 15, "the checklist fetched again")
        await gui.frame()
        assert gui.items("connectionText") == []  # the bar made only while it shows
        assert gui.supervisor.pid != old_pid and not alive(old_pid)
        snapshot = gui.state.snapshot(session.id)
        assert snapshot is not None and snapshot.revision >= 1 and len(snapshot.items) == 3
        # the turn that was running when the host died was ended by the new host
        assert gui.sessions.property("currentRunning") is False

    gui.run(body())


def test_remote_session_never_sends_todos_get(gui) -> None:
    async def body() -> None:
        await gui.start()
        await gui.actions.remote.attach_remote(it.AttachRemote("unix:/nonexistent/nib.sock", "r1"))
        assert gui.sessions.property("currentRemote") is True
        os.kill(gui.supervisor.pid, signal.SIGKILL)
        await until(lambda: gui.connection.property("state") == "reconnecting", 15)
        await until(lambda: gui.connection.property("state") == "ready", 15)
        await gui.frame()

    gui.run(body())
    assert gui.calls["todos.get"] == 0


def test_host_that_never_becomes_ready_is_reported(gui) -> None:
    script = (
        "import sys, time; print('warming up forever', file=sys.stderr, flush=True); time.sleep(60)"
    )
    gui.supervisor.command = (sys.executable, ["-c", script])
    gui.supervisor.ready_timeout = 1.0

    async def body() -> None:
        assert await gui.open() is False
        await gui.frame()

    gui.run(body(), timeout=15)
    assert gui.connection.property("state") == "failed"
    error = gui.connection.property("error")
    assert "did not become ready within 1 s" in error and "warming up forever" in error
    assert "warming up forever" in gui.item("connectionText").property("text")
    assert gui.supervisor.pid == 0 or not alive(gui.supervisor.pid)


def test_host_that_exits_early_is_reported_with_its_reason(gui, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    gui.supervisor.data_dir = blocker

    async def body() -> None:
        assert await gui.open() is False

    gui.run(body(), timeout=15)
    error = gui.connection.property("error")
    assert "exited with code 4" in error and "data directory" in error


def test_quitting_leaves_no_host(aio_loop, tmp_path) -> None:
    from harness.gui import Gui

    app = Gui(aio_loop, tmp_path)
    app.run(app.start())
    pid = app.supervisor.pid
    assert alive(pid)
    app.close()
    assert not alive(pid)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_quit_quits_as_closing_the_window_does(tmp_path, signum) -> None:
    """A logout's SIGTERM (or Ctrl+C's SIGINT where it was started) quits the app as
    closing its window does: exit 0, its host stopped, its private socket folder gone,
    the window's place kept."""
    scratch, config = tmp_path / "tmp", tmp_path / "config"
    scratch.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    env.update(QT_QPA_PLATFORM="offscreen", TMPDIR=str(scratch), XDG_CONFIG_HOME=str(config))
    command = [sys.executable, "-m", "nib_desktop", "--data-dir", str(tmp_path / "d")]
    app = subprocess.Popen(
        [*command, "--log-level", "DEBUG"], stderr=subprocess.PIPE, text=True, env=env
    )
    lines: queue.Queue[str] = queue.Queue()
    assert app.stderr is not None
    reader = threading.Thread(target=lambda: [lines.put(line) for line in app.stderr])
    reader.start()
    try:
        while (line := lines.get(timeout=60)) and "ready at monotonic" not in line:
            assert "Traceback" not in line, line
        host = int(line.split("host ", 1)[1].split()[0])
        folders = [p.name[:4] for p in scratch.iterdir() if p.is_dir()]
        assert folders == ["nib-"]  # the host's socket's (beside the single-instance socket)
        app.send_signal(signum)
        assert app.wait(30) == 0
        reader.join(10)
        said = []
        while not lines.empty():
            said.append(lines.get())
        # set once the sessions were shown, not on the way to them
        assert any("the window's icon set, in" in line for line in said), said[-5:]
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
        reader.join(10)  # (its pipe ended with the app)
        app.stderr.close()
    assert not alive(host)
    assert list(scratch.iterdir()) == []
    kept = "".join(p.read_text() for p in config.rglob("*.conf"))
    assert "geometry" in kept


def test_supervisor_passes_a_fresh_token_and_private_socket(tmp_path) -> None:
    a, b = HostSupervisor(tmp_path), HostSupervisor(tmp_path)
    assert a.token != b.token and len(a.token) >= 32
    folder = Path(a.socket_path).parent
    assert folder.stat().st_mode & 0o077 == 0
    a.cleanup()
    b.cleanup()
    assert not folder.exists()


@pytest.mark.timeout(120)
def test_smoke_test_mode_exits_zero(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    proc = subprocess.run(
        [sys.executable, "-m", "nib_desktop", "--smoke-test"],
        capture_output=True,
        text=True,
        timeout=110,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "smoke test passed: revision 11, dock shows 5 / 5" in proc.stdout


def test_version_and_no_display(tmp_path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    version = subprocess.run(
        [sys.executable, "-m", "nib_desktop", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert version.returncode == 0 and version.stdout.startswith("nib-desktop ")
    proc = subprocess.run(
        [sys.executable, "-m", "nib_desktop", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 6
    assert "QT_QPA_PLATFORM=offscreen" in proc.stderr and "Traceback" not in proc.stderr


def test_unwritable_data_dir_is_refused_untouched(tmp_path) -> None:
    existing = tmp_path / "nib.sqlite3"
    existing.write_bytes(b"keep me")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = subprocess.run(
        [sys.executable, "-m", "nib_desktop", "--data-dir", str(blocker / "sub")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert proc.returncode == 4
    assert "cannot create the data folder" in proc.stderr and "nothing was changed" in proc.stderr
    assert existing.read_bytes() == b"keep me"


def test_slow_handling_on_the_gui_thread_is_logged(gui, caplog) -> None:
    import time

    def slow_slot(_name, _params) -> None:
        end = time.perf_counter() + 0.15  # a handler that keeps the GUI thread busy
        while time.perf_counter() < end:
            pass

    async def body() -> None:
        await gui.start()
        gui.main.link.notification.connect(slow_slot)
        with caplog.at_level("WARNING", logger="nib_desktop.link.rpc_client"):
            await gui.actions.sessions.create_session("agent")
            await until(lambda: any("kept the GUI busy" in r.message for r in caplog.records))

    gui.run(body())
    record = next(r for r in caplog.records if "kept the GUI busy" in r.message)
    assert int(record.message.split("busy ")[1].split(" ms")[0]) >= 100


def test_a_host_that_keeps_failing_ends_in_failed_with_retry(gui) -> None:
    gui.main.link.max_reconnects = 2

    async def body() -> None:
        await gui.start()
        pid = gui.supervisor.pid
        script = "import sys; print('schema too new', file=sys.stderr); sys.exit(3)"
        gui.supervisor.command = (sys.executable, ["-c", script])
        os.kill(pid, signal.SIGKILL)
        await until(lambda: gui.connection.property("state") == "failed", 10)
        await gui.frame()
        assert "exited with code 3" in gui.connection.property("error")
        # the last attempt's own lines, each said once (two attempts failed alike)
        assert gui.item("connectionText").property("text").count("schema too new") == 1
        # the host is fixed; Retry brings the window back
        gui.supervisor.command = host_command()
        await gui.click(gui.item("retryButton"))
        await until(lambda: gui.connection.property("state") == "ready", 10)

    gui.run(body())


@pytest.mark.timeout(90)
def test_a_second_launch_brings_the_first_window_forward(tmp_path) -> None:
    """The app run twice on one data folder: the second exits at once, the first window
    comes forward, and only one host runs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    command = [
        sys.executable,
        "-m",
        "nib_desktop",
        "--data-dir",
        str(tmp_path / "d"),
        "--log-level",
        "DEBUG",
    ]
    assert_a_second_launch_brings_the_first_forward(command, env)
