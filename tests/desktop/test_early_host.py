"""The host's process started before the window's process imports Qt (`link/launch.py`),
and read by threads (`link/child.py`): with real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.waiting import until
from tests.helpers.fresh_python import run_python, without_nib_settings

ROOT = Path(__file__).resolve().parents[2]

# every process the app starts, said on stderr with whether Qt was imported by then
SPAWNS = """
import subprocess, sys
started = subprocess.Popen.__init__
def said(self, args, *rest, **kwargs):
    print(f"spawned {' '.join(map(str, args))} qt={'PySide6' in sys.modules}", file=sys.stderr)
    started(self, args, *rest, **kwargs)
subprocess.Popen.__init__ = said
sys.argv = ["nib-desktop", "--smoke-test"]
import runpy
runpy.run_module("nib_desktop", run_name="__main__")
"""


@pytest.mark.timeout(120)
def test_the_host_is_started_before_qt_is_imported() -> None:
    """`python -m nib_desktop`: its first process is the host, started while PySide6 is
    not yet imported; the demo turn then runs on that host."""
    proc = run_python(SPAWNS, without_nib_settings(), timeout=110)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "smoke test passed" in proc.stdout
    spawned = [line for line in proc.stderr.splitlines() if line.startswith("spawned ")]
    assert spawned, proc.stderr[-3000:]
    assert " -m host --socket " in spawned[0] and spawned[0].endswith("qt=False")


def test_a_host_that_cannot_be_started_is_reported_in_words(gui) -> None:
    gui.supervisor.command = (str(gui.data_dir / "no-such-program"), [])

    async def body() -> None:
        assert await gui.open() is False

    gui.run(body(), timeout=15)
    error = gui.connection.property("error")
    assert "cannot start the host: No such file or directory" in error, error


def test_a_hosts_last_words_without_a_line_end_are_kept(gui) -> None:
    """What the host wrote last on stderr, unended, before it exited is in the error."""
    script = "import sys; sys.stderr.write('first line\\nlast words'); sys.exit(5)"
    gui.supervisor.command = (sys.executable, ["-c", script])

    async def body() -> None:
        assert await gui.open() is False

    gui.run(body(), timeout=15)
    error = gui.connection.property("error")
    assert "exited with code 5" in error and "first line" in error and "last words" in error


def test_a_host_killed_by_a_signal_before_it_is_ready_is_said_so(gui) -> None:
    script = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    gui.supervisor.command = (sys.executable, ["-c", script])

    async def body() -> None:
        assert await gui.open() is False

    gui.run(body(), timeout=15)
    assert "exited by signal 9 before it was ready" in gui.connection.property("error")


def test_a_restarted_host_is_read_as_the_first_was(gui) -> None:
    """After a crash the supervisor starts a new process the same way (not the one the
    app started early, which it took once), and the window is ready again on it."""

    async def body() -> None:
        await gui.start()
        first = gui.supervisor.pid
        os.kill(first, 9)
        await until(lambda: gui.supervisor.pid not in (0, first), 15, "a new host")
        await until(lambda: gui.connection.property("state") == "ready", 15, "ready again")

    gui.run(body(), timeout=40)


def test_what_a_process_wrote_before_it_ended_comes_first_in_the_gui_thread(qapp) -> None:
    """A process that writes and ends at once, read by `HostChild`: its output and its
    errors arrive whole, in the GUI thread, and its end after them (signals connected
    after the child was made: nothing is handed over before `read`)."""
    import threading

    from PySide6.QtCore import QEventLoop, QTimer

    from nib_desktop.link.child import HostChild

    script = "import sys; print('ready'); sys.stderr.write('said'); sys.exit(7)"
    popen = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    popen.wait()  # all of it written before anything is read
    child = HostChild(popen)
    output: list[bytes] = []
    errors: list[bytes] = []
    order: list[str] = []
    threads: set[str] = set()
    loop = QEventLoop()

    def heard(kind: str, into: list[bytes], data: bytes) -> None:
        into.append(data)
        order.append(kind)
        threads.add(threading.current_thread().name)

    child.output.connect(lambda data: heard("output", output, data))
    child.errors.connect(lambda data: heard("errors", errors, data))
    child.ended.connect(lambda code: (order.append(f"ended {code}"), loop.quit()))
    child.read()
    QTimer.singleShot(10_000, loop.quit)
    loop.exec()
    assert order[-1] == "ended 7"
    assert (b"".join(output), b"".join(errors)) == (b"ready\n", b"said")
    assert threads == {threading.main_thread().name}
    assert not child.running
