"""Progress outside the window, on a real session bus (`dbus-daemon --session`) with a
test notification service and launcher listener on it: the real window, the real host,
demo turns and the in-repo MCP server for approvals."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QWindow

from harness.gui import Gui
from harness.waiting import until
from tests.helpers.session_bus import NotificationServer, session_bus
from tests.ui.test_approvals import configure as configure_mcp, tools_ready

FIVE = "1. Plan\n2. Write\n3. Test\n4. Review\n5. Ship"


@pytest.fixture
def bus(tmp_path: Path) -> Iterator[str]:
    with session_bus(tmp_path) as address:
        yield address


@pytest.fixture
def elsewhere() -> Iterator[QWindow]:
    """Another window: activating it makes the app's window inactive, as when the user
    switches to other work."""
    other = QWindow()
    other.resize(200, 200)
    yield other
    other.destroy()


async def look_away(gui: Gui, other: QWindow) -> None:
    other.show()
    other.requestActivate()
    await until(lambda: not gui.state.window_active, 5, "the window inactive")


async def look_back(gui: Gui, other: QWindow) -> None:
    other.hide()
    gui.window.requestActivate()
    await until(lambda: gui.state.window_active, 5, "the window active")


async def run_turn(gui: Gui, text: str) -> None:
    await gui.actions.sessions.start_turn(text)
    await until(lambda: not gui.sessions.property("currentRunning"), 30, "the turn's end")


def test_progress_on_the_launcher_and_one_notification_updated_in_place(
    gui: Gui, bus: str, elsewhere: QWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "250")  # steps apart by more than 100 ms
    gui.bus_address = bus
    server = NotificationServer()

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await look_away(gui, elsewhere)
        await run_turn(gui, FIVE)
        await until(lambda: server.notified, 15, "the notification")
        await until(lambda: server.launcher[-1]["progress-visible"] is False, 5, "the bar hidden")
        shown = [(p["progress"], p["progress-visible"]) for p in server.launcher]
        progress = [round(value, 2) for value, visible in shown if visible]
        assert [v for v in progress if v > 0] == [0.2, 0.4, 0.6, 0.8, 1.0], shown
        first = server.notified[0]
        assert (first.summary, first.body) == ("Plan", "All 5 steps completed")
        assert first.actions == ["default", "Show"]
        assert server.launcher[-1]["count"] == 1  # one session waits: its end unseen
        await run_turn(gui, "1. Again")
        await until(lambda: len(server.notified) == 2, 15, "the update")
        again = server.notified[1]
        assert (again.id, again.replaces) == (first.id, first.id)
        assert again.body.endswith("completed")
        assert server.closed == []
        await look_back(gui, elsewhere)  # the user looks at the session: withdrawn
        await until(lambda: server.closed == [first.id], 15, "the withdrawal")
        await until(lambda: server.launcher[-1]["count"] == 0, 15, "the badge cleared")

    with server.serve(bus):
        gui.run(body(), timeout=60)


def forge(bus: str, notification: int, key: str) -> None:
    """`ActionInvoked` as the notification service's, from another client of the bus; back
    once the bus has routed it (its answer to a later call of the same client)."""
    from jeepney import DBusAddress, new_method_call, new_signal
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection

    from tests.helpers.session_bus import NAME, PATH

    with open_dbus_connection(bus) as forger:
        forger.send(
            new_signal(
                DBusAddress(PATH, interface=NAME), "ActionInvoked", "us", (notification, key)
            )
        )
        forger.send_and_get_reply(new_method_call(message_bus, "GetId"), timeout=5)


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # offscreen has no stacking
def test_an_approvals_allow_once_action_answers_it(gui: Gui, bus: str, elsewhere: QWindow) -> None:
    configure_mcp(gui)
    gui.bus_address = bus
    server = NotificationServer()
    alerts: list[int] = []

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        gui.window.alert = alerts.append  # type: ignore[method-assign]
        await gui.actions.sessions.create_session("agent")
        await look_away(gui, elsewhere)
        await gui.actions.sessions.start_turn("Please echo <b>this</b> " + "x" * 300)
        await until(lambda: server.notified, 15, "the approval's notification")
        note = server.notified[0]
        assert note.summary.startswith("Please echo")
        assert note.body.startswith("echo (test) waits for your approval: ")
        assert len(note.body) < len("echo (test) waits for your approval: ") + 102
        assert "<b>this</b>" in note.body  # plain text: the server reads no markup
        assert note.actions == ["default", "Show", "allow_once", "Allow once", "deny", "Deny"]
        await until(lambda: server.launcher[-1]["urgent"] is True, 5, "the urgent mark")
        assert alerts == [0]
        # another client of the bus emits the service's signal for the same id: ignored
        # (were it taken, the call would be denied before the service's own answer)
        forge(bus, note.id, "deny")
        server.invoke(note.id, "allow_once")
        await until(lambda: not gui.sessions.property("currentRunning"), 30, "the turn's end")
        lines = [row.text for row in gui.transcript.model.rows()]
        assert any(
            line.startswith("✓ echo (test) ") and "· echo: Please echo" in line for line in lines
        ), lines
        await until(lambda: server.notified[-1].body.startswith("Finished"), 15, "the end")
        assert server.notified[-1].id == note.id  # the same notification, updated
        server.invoke(note.id, "default")  # the window comes forward on that session
        await until(lambda: gui.state.window_active, 5, "the window forward")

    with server.serve(bus):
        gui.run(body(), timeout=60)


@pytest.mark.parametrize("service", ["none", "hangs", "no actions"])
def test_without_a_working_service_the_app_goes_on(
    gui: Gui, bus: str, elsewhere: QWindow, monkeypatch: pytest.MonkeyPatch, service: str
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    gui.bus_address = bus
    server = NotificationServer(hang=service == "hangs", capabilities=("body",))

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await look_away(gui, elsewhere)
        for _ in range(2):
            await run_turn(gui, "1. One\n2. Two")
        assert [row.text for row in gui.transcript.model.rows()][-1].startswith("Done")
        if service == "no actions":
            await until(lambda: len(server.notified) == 2, 15, "the notifications")
            assert server.notified[-1].actions == []

    if service == "none":
        gui.run(body(), timeout=60)
    else:
        with server.serve(bus):
            gui.run(body(), timeout=60)


def test_no_session_bus_at_all(gui: Gui, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        assert gui.outside.bus is None
        await gui.actions.sessions.create_session("agent")
        await run_turn(gui, "1. One")
        assert gui.window.title() == "One — Nib"

    gui.run(body(), timeout=60)


def test_the_title_tells_progress_and_a_waiting_approval(gui: Gui) -> None:
    configure_mcp(gui)

    async def body() -> None:
        await gui.start()
        await until(lambda: tools_ready(gui), 30, "the MCP server")
        await gui.actions.sessions.create_session("agent")
        assert gui.window.title() == "New session — Nib"
        await gui.actions.sessions.start_turn("1. Plan\n2. Write\n3. Test")  # paced at 60 s a step
        await until(lambda: gui.window.title() == "(0/3) Plan — Nib", 10, "the progress")
        gui.push(
            gui.state.current or "",
            99,
            [("Plan", "completed"), ("Write", "in_progress"), ("Test", "pending")],
        )
        await until(lambda: gui.window.title() == "(1/3) Plan — Nib", 10, "the next step")
        await gui.actions.sessions.cancel_turn()
        await until(lambda: gui.window.title() == "Plan — Nib", 10, "the plain title")
        await gui.actions.sessions.start_turn("Please echo this")
        await until(lambda: gui.window.title() == "● Plan — Nib", 20, "the approval mark")
        gui.actions.ask(
            __import__("nib_desktop.state.intents").state.intents.SetDesktopPref(
                "title_progress", False
            )
        )
        await until(lambda: gui.window.title() == "Plan — Nib", 10, "the setting")
        kept = json.loads((gui.data_dir / "settings.json").read_text())
        assert kept["desktop"]["titleProgress"] is False and "mcpServers" in kept

    gui.run(body(), timeout=60)
