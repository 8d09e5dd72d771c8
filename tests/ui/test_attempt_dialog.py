"""One task tried by several agents, started from the window (issue 50, point 1, in
part): the palette's "Try a task with several agents…", a repository, the task, two
agents (the scripted ACP agent and Nib's own); each run is a session in a worktree of its
own from one base, the first shown, the sidebar naming each one's branch."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from tests.e2e.test_worktrees import repository
from tests.ui.test_agents import NAME, configure
from tests.ui.test_earlier_sessions import palette


def test_a_task_tried_by_two_agents(gui: Gui, tmp_path: Path) -> None:
    configure(gui)
    repo = repository(tmp_path / "repo")

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await palette(gui, "Try a task with several")
        await until(lambda: gui.window.findChild(object, "attemptDialog"), what="the dialog")
        dialog = gui.window.findChild(object, "attemptDialog")
        await until(lambda: dialog.property("opened"), what="the dialog open")
        gui.item("attemptFolder").setProperty("text", str(repo))
        gui.item("attemptTask").setProperty("text", "demo: 1 steps")
        start = gui.item("startAttempt")
        await gui.frame()
        assert not start.property("enabled")  # fewer than two agents
        gui.item(f"attemptAgent_{NAME}").setProperty("checked", True)
        gui.item("attemptAgent_nib").setProperty("checked", True)
        await gui.frame()
        assert start.property("enabled")
        gui.item("attemptCheck").forceActiveFocus()
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: len(gui.state.sessions) == 2, 15, "the two runs")
        runs = sorted(gui.state.sessions, key=lambda s: s.agent)
        assert [s.agent for s in runs] == ["", NAME]  # Nib's own, and the agent
        assert all(s.branch.startswith("nib/") for s in runs)
        await until(lambda: gui.state.notice.startswith("Started 2 runs"), 10, "said")
        assert gui.state.current in {s.session_id for s in runs}

    gui.run(body(), timeout=60)
