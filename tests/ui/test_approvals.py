"""Approvals and the Tools view in the real window, with the real host and the in-repo MCP
server over stdio; every answer is a real key event or click."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from harness.gui import Gui
from harness.waiting import until

pytestmark = pytest.mark.in_memory  # the host core in this process (tests/helpers/gui.py)

ROOT = Path(__file__).resolve().parents[2]
ALT = Qt.KeyboardModifier.AltModifier


def configure(gui: Gui) -> None:
    gui.data_dir.mkdir(parents=True, exist_ok=True)
    server = {
        "command": sys.executable,
        "args": ["-m", "harness.mcp_test_server"],
        "env": {"PYTHONPATH": str(ROOT)},
    }
    (gui.data_dir / "settings.json").write_text(json.dumps({"mcpServers": {"test": server}}))


def tools_ready(gui: Gui) -> bool:
    rows = gui.tools.model.rows()
    return bool(rows) and rows[0].state == "ready"


def transcript(gui: Gui) -> list[str]:
    return [row.text for row in gui.transcript.model.rows()]


async def ask(gui: Gui, text: str) -> None:
    await gui.actions.sessions.create_session("agent")
    gui.item("composerInput").setProperty("text", text)
    await gui.key(Qt.Key.Key_Return)
    await until(lambda: gui.approvals.property("approvalId") != "", what="the approval")
    await gui.frame()


def test_an_approval_waits_in_the_composer_and_alt_y_allows_it(gui: Gui) -> None:
    from tests.ui.test_accessibility import problems

    configure(gui)
    announced: list[str] = []
    gui.approvals.announced.connect(announced.append)

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        await ask(gui, "Please echo this")
        assert announced == ["echo (test) waits for your approval"]  # said, assertively
        assert problems(gui) == []  # the row's controls have names and roles
        row = gui.item("approvalRow")
        assert row.isVisible()
        assert gui.item("approvalTitle").property("text") == "Allow this call? echo (test)"
        assert "Please echo this" in gui.item("approvalArguments").property("text")
        assert gui.item("composerInput").hasActiveFocus()  # the row took nothing
        await gui.key(Qt.Key.Key_Y, ALT)
        await until(lambda: not gui.sessions.property("currentRunning"), 20, "the turn's end")
        await gui.frame()
        assert gui.items("approvalRow") == []  # gone once answered
        lines = transcript(gui)
        # the call's line, its result in its place
        assert '✓ echo (test) {"text": "Please echo this"} · echo: Please echo this' in lines
        assert lines[-1].startswith("The echo tool says:")
        assert gui.item("composerInput").hasActiveFocus()

    gui.run(body(), timeout=60)


def test_deny_from_the_keyboard_and_stop_cancels_a_waiting_call(gui: Gui) -> None:
    configure(gui)

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        await ask(gui, "Please echo this")
        # Shift+Tab from the input reaches the row's last button
        await gui.key(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        deny = gui.item("denyButton")
        assert deny.hasActiveFocus()
        await gui.key(Qt.Key.Key_Space)
        await until(lambda: not gui.sessions.property("currentRunning"), 20, "the turn's end")
        assert gui.item("composerInput").hasActiveFocus()  # back where the user types
        assert any("denied" in line for line in transcript(gui))

        await ask(gui, "Echo that")
        await gui.key(Qt.Key.Key_Escape)  # Stop
        await until(lambda: gui.approvals.property("approvalId") == "", 10, "no approval")
        await until(lambda: not gui.sessions.property("currentRunning"), 10, "stopped")
        assert "■ Turn stopped" in transcript(gui)

    gui.run(body(), timeout=60)


def test_the_tools_view_lists_the_server_and_its_tools(gui: Gui) -> None:
    configure(gui)

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        await gui.act(
            lambda: QTest.keyClick(
                gui.window,
                Qt.Key.Key_T,
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
            )
        )
        await until(lambda: gui.items("toolSource"), what="the Tools view")
        [source] = gui.items("toolSource")
        name = source.property("accessibleName")
        assert name.startswith("MCP server test, ready, tools: echo, sleep")
        assert gui.item("toolSourceState").property("text") == "ready"
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: gui.item("composerInput").hasActiveFocus(), what="focus back")

    gui.run(body(), timeout=60)


def test_a_failed_server_is_told_in_the_composer(gui: Gui) -> None:
    gui.data_dir.mkdir(parents=True, exist_ok=True)
    missing = {"command": str(gui.data_dir / "no-such-server")}
    (gui.data_dir / "settings.json").write_text(json.dumps({"mcpServers": {"gone": missing}}))

    async def body() -> None:
        await gui.start()
        await until(
            lambda: gui.tools.property("failed") == "A tool server failed", 30, "the failure"
        )
        await gui.frame()
        label = gui.item("toolsFailed")
        assert label.isVisible() and label.property("text").startswith("A tool server failed")
        [row] = gui.tools.model.rows()
        assert row.error.startswith("it did not start: FileNotFoundError")

    gui.run(body(), timeout=60)


def test_the_tools_view_mends_settings_without_a_restart(gui: Gui) -> None:
    """A settings.json broken mid-edit is its own row, first, naming the file, its line
    and the problem (not a server called "settings.json"); mended, the server is back
    without a restart. Disable (a click) writes the file and the host stops the server;
    Enable starts it again; a failed server's Retry starts it at once."""
    configure(gui)

    def sources() -> list[tuple[str, str, str]]:
        return [(r.name, r.kind, r.state) for r in gui.tools.model.rows()]

    def button(name: str) -> object:
        return next(b for b in gui.visible_items(name))

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        good = (gui.data_dir / "settings.json").read_text()
        (gui.data_dir / "settings.json").write_text('{"mcpServers": {\n  "test": {,\n}}')
        await until(
            lambda: sources()[:1] == [("settings.json", "settings file", "failed")],
            30,
            "the settings row",
        )
        [row] = gui.tools.model.rows()
        assert "settings.json is not valid JSON" in row.error and "(line 2, column" in row.error
        assert row.accessible_name.startswith("settings file settings.json, failed: ")
        (gui.data_dir / "settings.json").write_text(good)
        await until(lambda: sources() == [("test", "MCP server", "ready")], 30, "mended")

        await gui.key(
            Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        await until(lambda: gui.visible_items("disableServerButton"), what="the Tools view")
        disable = button("disableServerButton")
        assert disable.property("text") == "Disable"
        await gui.click(disable)
        await until(lambda: sources() == [("test", "MCP server", "disabled")], 30, "disabled")
        kept = json.loads((gui.data_dir / "settings.json").read_text())
        assert kept["mcpServers"]["test"]["disabled"] is True
        await until(lambda: button("disableServerButton").property("text") == "Enable")
        await gui.click(button("disableServerButton"))
        await until(lambda: sources() == [("test", "MCP server", "ready")], 30, "enabled again")
        assert (
            "disabled"
            not in json.loads((gui.data_dir / "settings.json").read_text())["mcpServers"]["test"]
        )

    gui.run(body(), timeout=90)


def test_allow_for_the_session_asks_no_more_in_that_session(gui: Gui) -> None:
    configure(gui)
    asked: list[str] = []
    gui.approvals.announced.connect(asked.append)

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        await ask(gui, "Please echo this")
        await gui.key(Qt.Key.Key_S, ALT)
        await until(lambda: not gui.sessions.property("currentRunning"), 20, "the turn's end")
        gui.item("composerInput").setProperty("text", "Echo it again")
        await gui.key(Qt.Key.Key_Return)
        await until(
            lambda: any(x.endswith("· echo: Echo it again") for x in transcript(gui)),
            20,
            "the second call",
        )
        assert len(asked) == 1  # the second call was never asked about

    gui.run(body(), timeout=60)


def test_a_call_waiting_in_another_session_is_named_marked_and_reached_by_alt_keys(
    gui: Gui,
) -> None:
    """The footer names the session, its sidebar row says it waits, and Alt+S (or Y, N)
    never types into the input: it goes to that session, whose call is then answered."""
    configure(gui)

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        await ask(gui, "Please echo this")
        waiting = gui.state.current
        await gui.actions.sessions.create_session("agent")  # the user moves on to another session
        await until(lambda: gui.approvals.property("elsewhere") == 1)
        await gui.frame()
        title = gui.state.session(waiting).title
        footer = gui.item("approvalsElsewhere")
        assert footer.isVisible()
        assert footer.property("text").startswith(f"A tool call waits for you in “{title}”")
        marked = [row for row in gui.items("sessionRow") if row.property("waiting")]
        assert [row.property("sessionId") for row in marked] == [waiting]
        marks = [p.property("text") for p in gui.items("sessionProgress") if p.isVisible()]
        assert marks == ["waits for you"]
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        await gui.key(Qt.Key.Key_S, ALT)
        assert input_.property("text") == ""  # nothing typed
        await until(lambda: gui.state.current == waiting, what="the waiting session shown")
        await until(lambda: gui.approvals.property("approvalId") != "")
        await gui.key(Qt.Key.Key_N, ALT)  # now it answers: denied
        await until(lambda: not gui.state.approvals, 20, "the call answered")
        assert not gui.item("approvalsElsewhere").isVisible()

    gui.run(body(), timeout=60)
