"""A remote session in the real window: the desktop's host links to a second real host
over `unix:`, and the dock shows that host's checklist live (section 14's todo snapshot)."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.host_process import HostProcess, host_env, running_host
from harness.waiting import until
from nib_desktop.state import intents as it
from tests.helpers.db_copy import database_copy

REMOTE_TOKEN = "remote-token-9"
RUNNING_TEXT = "1. Add the column\n2. Write the tests\n3. Update the docs"


@pytest.fixture
def remote(monkeypatch: pytest.MonkeyPatch) -> Iterator[HostProcess]:
    """A second host, its demo turns paced at 4 s a step (the first step runs 4 s after
    the list is written, for 4 s); the window's host gets its token to present."""
    folder = Path(tempfile.mkdtemp(prefix="nib-remote-", dir="/tmp"))
    monkeypatch.setenv("NIB_RACP_TOKEN", REMOTE_TOKEN)
    env = host_env(NIB_HOST_TOKEN=REMOTE_TOKEN, NIB_DEMO_STEP_DELAY_MS="4000")
    try:
        with running_host(folder / "data", str(folder / "remote.sock"), env) as process:
            yield process
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_remote_session_shows_its_hosts_checklist_live(gui: Gui, remote: HostProcess) -> None:
    async def body() -> None:
        await gui.start()
        session = await gui.actions.remote.attach_remote(
            it.AttachRemote(f"unix:{remote.socket_path}", "")
        )
        assert session.remote is not None and session.remote.state == "connected"
        assert gui.sessions.property("currentReachable")
        assert remote.socket_path in gui.item("remoteNote").property("text")
        await gui.actions.sessions.start_turn(RUNNING_TEXT)

        def written() -> bool:
            snapshot = gui.state.snapshot(session.id)
            return snapshot is not None and snapshot.revision >= 2  # the first step runs

        await until(written, what="the remote checklist")
        await until(
            lambda: gui.sessions.property("currentTitle").startswith("Add the column on "),
            what="the title the remote host gave it",
        )
        await until(lambda: gui.dock.property("running"), what="the running turn")
        await gui.key(Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # open the list
        await until(lambda: len(gui.items("todoRow")) == 3, what="three rows")
        sweeping = [row for row in gui.items("todoRow") if row.property("sweeping")]
        assert [row.property("content") for row in sweeping] == ["Add the column"]
        # nothing of it lives in the window's host's database
        with database_copy(gui.data_dir) as db:
            rows = db.execute(
                "SELECT COUNT(*) FROM session_todo WHERE session_id = ?", (session.id,)
            ).fetchone()
            revision = db.execute(
                "SELECT todo_revision FROM sessions WHERE id = ?", (session.id,)
            ).fetchone()
        assert (rows[0], revision[0]) == (0, 0)

        # the remote host goes away: the window says so, and Stop is refused in words
        os.kill(remote.proc.pid, signal.SIGKILL)
        await until(lambda: not gui.sessions.property("currentReachable"), 20, "unreachable")
        note = gui.item("remoteNote").property("text")
        assert "unreachable" in note and "tried every second (Ctrl+R: now)" in note
        # Ctrl+R asks the window's host to try the remote now: a call forwarded there
        asked = gui.calls["messages.list"]
        await gui.key(Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: gui.calls["messages.list"] == asked + 1, what="Ctrl+R reaching it")
        assert gui.notice.property("text") == ""  # unreachable still: the row says so
        # the turn is not told as running any more: nothing sweeps, the header says why
        await until(lambda: not gui.dock.property("running"), what="the turn no longer running")
        assert not [row for row in gui.items("todoRow") if row.property("sweeping")]
        assert gui.item("currentStep").property("text").startswith("Unreachable at 0 / 3")
        badge = gui.item("remoteBadge")
        assert badge.property("text") == "unreachable"
        assert not gui.item("sendButton").property("enabled")
        gui.composer.stop()
        await until(lambda: gui.notice.property("text") != "", what="the notice")
        notice = gui.notice.property("text")
        assert notice.startswith("Could not stop the turn: ") and "unreachable" in notice

        # it comes back (restarted): linked again, the turn's end caught up and told
        env = host_env(NIB_HOST_TOKEN=REMOTE_TOKEN, NIB_DEMO_STEP_DELAY_MS="4000")
        with running_host(remote.data_dir, remote.socket_path, env):
            await until(lambda: gui.sessions.property("currentReachable"), 40, "linked again")
            await until(
                lambda: "⚠ Turn interrupted: the host restarted" in transcript(gui),
                20,
                "the turn's end",
            )
            lines = transcript(gui)
            assert lines[0] == RUNNING_TEXT and "I'll work through this in 3 steps." in lines
            await until(
                lambda: gui.item("currentStep").property("text").startswith("Interrupted at"),
                what="the header",
            )
            assert gui.item("remoteBadge").property("text") == "remote"
            assert gui.item("sendButton").property("enabled") is False  # nothing typed yet
            await gui.frame()

    gui.run(body(), timeout=90)


def transcript(gui: Gui) -> list[str]:
    return [row.text for row in gui.transcript.model.rows()]


def test_the_dialog_lists_a_hosts_sessions_and_attaches_one_by_keyboard(
    gui: Gui, remote: HostProcess
) -> None:
    """Sessions there… lists what the remote host has; Down and Enter pick one; Attach."""
    from harness.host_process import RpcClient

    direct = RpcClient(remote.socket_path)
    direct.hello(REMOTE_TOKEN)
    made = direct.call("sessions.create", {"title": "Refactor the parser"})
    direct.close()

    async def body() -> None:
        await gui.start()
        await gui.open_remote_dialog()
        gui.item("endpointField").setProperty("text", f"unix:{remote.socket_path}")
        await gui.frame()
        assert gui.item("attachButton").property("text") == "Create there"  # no id yet
        await gui.click(gui.item("listRemoteButton"))
        await until(lambda: gui.remote.model.rows(), what="the sessions there")
        await gui.frame()
        assert gui.item("remoteChoices").hasActiveFocus()  # asked for: focus goes there
        await gui.key(Qt.Key.Key_Return)  # the first (and only) one
        assert gui.item("remoteIdField").property("text") == made["id"]
        assert gui.item("attachButton").property("text") == "Attach"
        await gui.key(Qt.Key.Key_Return)  # in the id field: attach
        title = f"Refactor the parser on {remote.socket_path}"
        await until(lambda: gui.sessions.property("currentTitle") == title, what="attached")
        assert gui.sessions.property("currentReachable")
        assert gui.item("composerInput").hasActiveFocus()

    gui.run(body(), timeout=60)


@pytest.fixture
def agent_remote(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[HostProcess, Path]]:
    """A second host whose own settings.json names the scripted ACP agent, and a git
    repository on its side (the same machine: another data folder, another folder)."""
    from tests.e2e.test_acp import settings
    from tests.e2e.test_checkpoints import repository

    folder = Path(tempfile.mkdtemp(prefix="nib-remote-", dir="/tmp"))
    monkeypatch.setenv("NIB_RACP_TOKEN", REMOTE_TOKEN)
    settings(folder / "data", env={"PACE_S": "0.05"})
    repo = repository(folder / "repo")
    env = host_env(NIB_HOST_TOKEN=REMOTE_TOKEN)
    try:
        with running_host(folder / "data", str(folder / "remote.sock"), env) as process:
            yield process, repo
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def texts(gui: Gui) -> list[str]:
    return [row.text for row in gui.transcript.model.rows()]


def test_a_remote_agent_session_in_a_worktree_works_as_a_local_one(
    gui: Gui, agent_remote: tuple[HostProcess, Path]
) -> None:
    """Section 19 in the window: the dialog lists the host's agents, makes a session on
    one in a worktree of a folder there; its approvals are answered here by key, its
    steps' changes read in the Changes view, and fork and rename are offered."""
    from tests.ui.test_agents import CTRL_SHIFT, send
    from tests.ui.test_changes import allow_three_steps, checkpoints_heard

    remote, repo = agent_remote
    taken = checkpoints_heard(gui)  # the remote host's, told here

    async def body() -> None:
        await gui.start()
        await gui.open_remote_dialog()
        gui.item("endpointField").setProperty("text", f"unix:{remote.socket_path}")
        await gui.click(gui.item("listRemoteButton"))
        box = gui.item("remoteAgentBox")
        await until(lambda: box.property("count") == 2, what="the host's agents")
        box.setProperty("currentIndex", 1)
        assert box.property("currentText") == "scripted"
        # the folder is checked as it is typed, on that host's machine (issue 51, 1)
        folder, said = gui.item("remoteFolderField"), gui.item("remoteFolderProblem")
        folder.setProperty("text", str(repo / "missing"))
        await until(lambda: said.isVisible(), 10, "the missing folder said")
        assert said.property("text") == f"There is no folder {repo / 'missing'}"
        assert not gui.item("attachButton").property("enabled")
        folder.setProperty("text", str(repo / "app.py"))
        await until(lambda: "is a file, not a folder" in said.property("text"), 10, "a file")
        folder.setProperty("text", str(repo))
        await until(lambda: not said.isVisible(), 10, "the repository taken")
        assert gui.item("attachButton").property("enabled")
        worktree = gui.item("remoteWorktreeBox")
        assert worktree.property("enabled")
        worktree.setProperty("checked", True)
        worktree.forceActiveFocus()  # Return on the box just ticked attaches, as from a field
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.state.shown is not None and gui.state.shown.remote, 30, "made")
        shown = gui.state.shown
        assert shown is not None and shown.agent == "scripted"
        assert gui.item("forkButton").property("enabled")  # on its host (section 19)

        await send(gui, "steps")
        await allow_three_steps(gui, taken)  # asked here, answered by key
        assert (repo / "app.py").read_text() == "print(1)\n"  # its worktree, not the checkout

        await gui.key(Qt.Key.Key_G, CTRL_SHIFT)
        scopes = gui.views.changes_view.scope_model
        await until(lambda: len(scopes.rows()) >= 3, 20, "the remote steps' changes")
        titles = [row.title for row in scopes.rows()]
        assert titles[:3] == ["Step: Step 1", "Step: Step 2", "Step: Step 3"]
        assert [row.title for row in gui.views.changes_view.file_model.rows()] == ["app.py"]
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: gui.state.changes.session_id is None, 10, "the Changes view closed")

        # "@": the remote folder's files, listed by its host; the one chosen goes with
        # the message, read there from its worktree
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        input_.setProperty("text", "attached see @ap")
        input_.setProperty("cursorPosition", len("attached see @ap"))
        gui.composer.findFiles("ap")
        await until(lambda: gui.composer.files(), 15, "the remote folder's files")
        assert gui.composer.files()[0]["name"] == "@app.py"
        input_.setProperty("text", "attached see @app.py")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: any(t.startswith("got: ") for t in texts(gui)), 15, "the answer")
        said = next(t for t in texts(gui) if t.startswith("got: "))
        assert (Path(shown.cwd) / "app.py").as_uri() in said, said
        await until(lambda: not gui.state.shown.running, 15, "the turn's end")

    gui.run(body(), timeout=90)


@pytest.mark.parametrize("stop", [True, False])
def test_closing_asks_whether_remote_turns_stop_or_run_on(
    gui: Gui, remote: HostProcess, monkeypatch: pytest.MonkeyPatch, stop: bool
) -> None:
    """Issue 51: "Stop and close" did not stop a remote turn, though the question said
    so. Now it asks: stop them all (each stopped on its host before the window goes), or
    leave the remote ones running there."""
    from PySide6.QtGui import QGuiApplication

    from harness.host_process import RpcClient

    QGuiApplication.setQuitOnLastWindowClosed(False)  # the test's loop goes on after

    monkeypatch.setattr(gui, "close", gui.release)  # the window closed itself: the rest

    async def body() -> str:
        await gui.start()
        there = it.AttachRemote(f"unix:{remote.socket_path}", "")
        session = await gui.actions.remote.attach_remote(there)
        await gui.actions.sessions.start_turn(RUNNING_TEXT)
        await until(lambda: gui.sessions.property("remoteRunningCount") == 1, 20, "running")
        await gui.act(gui.window.close)
        await until(lambda: gui.window.findChild(object, "closeDialog"), what="the question")
        dialog = gui.window.findChild(object, "closeDialog")
        await until(lambda: dialog.property("opened"), what="the question")
        words = gui.window.findChild(object, "closeText").property("text")
        assert "1 of them runs on a remote host: it can go on running there" in words
        assert gui.window.findChild(object, "confirmClose").property("text") == (
            "Stop all and close"
        )
        button = "confirmClose" if stop else "leaveRemoteRunning"
        gui.loop.call_soon(lambda: gui.window.findChild(object, button).clicked.emit())
        await until(lambda: not gui.window.isVisible(), what="the window to close")
        assert session.remote is not None
        return session.remote.remote_session_id

    try:
        remote_id = gui.run(body())
        gui.run(gui.main.close())  # as the app's loop ends once the window closed
    finally:
        QGuiApplication.setQuitOnLastWindowClosed(True)
    direct = RpcClient(remote.socket_path)
    direct.hello(REMOTE_TOKEN)
    try:
        turns = direct.call("turns.list", {"sessionId": remote_id})["turns"]
        assert turns[0]["state"] == ("cancelled" if stop else "running")
    finally:
        direct.close()
