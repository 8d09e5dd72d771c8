"""Every end of a turn told in the real window, on a real host: the dock's header and the
transcript say stopped, failed (with the error) or interrupted; nothing reads as running."""

from __future__ import annotations

import os
import signal

from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until

TASK = "1. Add the column\n2. Write the tests\n3. Update the docs"


def transcript_texts(gui: Gui) -> list[str]:
    return [row.text for row in gui.transcript.model.rows()]


async def started(gui: Gui) -> str:
    await gui.start()
    session = await gui.actions.sessions.create_session("agent")
    await gui.actions.sessions.start_turn(TASK)
    await until(lambda: (s := gui.state.snapshot(session.id)) and s.revision >= 1)
    await until(lambda: gui.dock.property("running"), what="running turn")
    await until(lambda: gui.sessions.property("currentRunning"), what="the Stop button")
    await gui.frame()
    return session.id


async def reselect(gui: Gui, session_id: str) -> None:
    """Show another session and come back: the transcript is loaded afresh."""
    other = await gui.actions.sessions.create_session("plan")
    assert gui.sessions.property("currentId") == other.id
    await gui.actions.sessions.select_session(session_id)
    await gui.frame()


def assert_muted_header(gui: Gui) -> None:
    theme = gui.item("theme")
    assert gui.item("headerGlyph").property("color") == theme.property("muted")
    assert gui.visible_items("headerSweep") == [] and gui.visible_items("sweepText") == []


def test_a_stopped_turn_says_so_in_the_dock_and_the_transcript(gui) -> None:
    async def body() -> None:
        sid = await started(gui)
        assert gui.visible_items("headerSweep"), "the collapsed header sweeps while running"
        await gui.click(gui.item("stopButton"))
        await until(lambda: gui.state.turn(sid).state == "cancelled")
        await until(lambda: transcript_texts(gui)[-1] == "■ Turn stopped")
        await gui.frame()
        assert gui.item("currentStep").property("text") == "Stopped at 0 / 3 · Add the column"
        assert_muted_header(gui)
        await reselect(gui, sid)
        await until(lambda: transcript_texts(gui) and transcript_texts(gui)[-1] == "■ Turn stopped")
        assert gui.item("currentStep").property("text") == "Stopped at 0 / 3 · Add the column"

    gui.run(body())


def test_an_interrupted_turn_says_the_host_restarted(gui) -> None:
    async def body() -> None:
        sid = await started(gui)
        os.kill(gui.supervisor.pid, signal.SIGKILL)
        await until(lambda: gui.connection.property("state") == "ready", 15.0)
        await until(lambda: gui.state.turn(sid).state == "interrupted", 15.0)
        expected = "⚠ Turn interrupted: the host restarted"
        await until(lambda: transcript_texts(gui) and transcript_texts(gui)[-1] == expected)
        await gui.frame()
        header = gui.item("currentStep").property("text")
        assert header == "Interrupted at 0 / 3 · Add the column · the host restarted"
        assert_muted_header(gui)
        assert gui.transcript.model.rows()[-1].warning

    gui.run(body())


def test_a_failed_turn_shows_its_error(gui, monkeypatch) -> None:
    # an OpenAI-compatible endpoint on a port nothing listens on
    monkeypatch.setenv("NIB_PROVIDER", "openai")
    monkeypatch.setenv("NIB_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("NIB_OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("NIB_MODEL", "test-model")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("hello")
        await until(lambda: gui.state.turn(session.id).state == "failed", 20.0)
        await until(lambda: transcript_texts(gui)[-1].startswith("✕ Turn failed: "))
        row = gui.transcript.model.rows()[-1]
        assert row.is_error and len(row.text) > len("✕ Turn failed: ") + 5
        # the session's row says so with its own notification, right after the turn's
        await until(lambda: not gui.sessions.property("currentRunning"), 10, "the row")
        assert gui.item("sendButton").property("text") == "Send"

    gui.run(body())


def test_continue_after_a_stop_carries_the_unfinished_list_on(gui, monkeypatch) -> None:
    """Stopped mid-list: the dock offers Continue; Ctrl+Enter in the empty composer starts
    a turn that works through the same list from its first unfinished step (the demo
    agent no longer replaces it), to the end."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "200")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded)
        await gui.actions.sessions.start_turn("1. Add the column\n2. Write the tests\n3. Ship it")
        await until(lambda: (s := gui.state.snapshot(session.id)) and s.revision >= 3)
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        await gui.key(Qt.Key.Key_Escape)  # Stop
        await until(lambda: gui.state.turn(session.id).state == "cancelled")
        await gui.frame()
        stopped = gui.state.snapshot(session.id)
        assert any(i.status != "completed" for i in stopped.items)
        assert gui.dock.property("canContinue")
        assert gui.item("continueButton").isVisible()
        await gui.key(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: gui.state.turn(session.id).state == "running", what="continued")
        await until(lambda: gui.state.turn(session.id).state == "completed", 30)
        done = gui.state.snapshot(session.id)
        assert [i.content for i in done.items] == [i.content for i in stopped.items]
        assert all(i.status == "completed" for i in done.items)
        assert not any("dropped unfinished" in line for line in transcript_texts(gui))
        # what the agent says is true: nothing was compacted
        assert "Picking up from the first unfinished step." in transcript_texts(gui)
        assert not any("compacting" in line for line in transcript_texts(gui))
        await gui.frame()
        assert not gui.dock.property("canContinue")
        assert not gui.item("continueButton").isVisible()

    gui.run(body(), 60)
