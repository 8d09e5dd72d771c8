"""The window driven by keyboard alone, with real key events on the real window and a real
host: focus at launch, a key for every action, drafts per session, failures in words."""

from __future__ import annotations

import os
import signal
from typing import Any

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from harness.gui import Gui
from harness.waiting import until
from nib_desktop.state import events as ev, intents as it
from nib_desktop.state.transcript_lines import Line

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier
NONE = Qt.KeyboardModifier.NoModifier


async def type_text(gui: Gui, text: str) -> None:
    for char in text:
        key = Qt.Key.Key_Space if char == " " else Qt.Key(ord(char.upper()))
        await gui.key(key)


def focused(gui: Gui) -> Any:
    return gui.window.activeFocusItem()


def shown(gui: Gui) -> str:
    return gui.sessions.property("currentId")


def session_ids(gui: Gui) -> list[str]:
    return [row.session_id for row in gui.sessions.model.rows()]


def test_typing_right_after_the_first_frame_lands_in_the_input(gui) -> None:
    async def body() -> None:
        await gui.frame()  # the first frame; nothing clicked, nothing tabbed
        await type_text(gui, "fix the build")
        assert gui.item("composerInput").property("text") == "fix the build"
        await gui.start()
        assert gui.item("composerInput").hasActiveFocus()

    gui.run(body())


def test_every_session_action_has_a_key(gui) -> None:
    async def body() -> None:
        await gui.start()
        assert gui.window.isActive()
        input_ = gui.item("composerInput")
        await gui.key(Qt.Key.Key_N, CTRL)
        await until(lambda: len(session_ids(gui)) == 1, what="Ctrl+N")
        await gui.key(Qt.Key.Key_N, CTRL)
        await until(lambda: len(session_ids(gui)) == 2 and shown(gui) == session_ids(gui)[0])
        assert input_.hasActiveFocus()
        newest, older = session_ids(gui)

        await gui.key(Qt.Key.Key_PageDown, CTRL)
        await until(lambda: shown(gui) == older, what="Ctrl+PgDown")
        await gui.key(Qt.Key.Key_PageUp, CTRL)
        await until(lambda: shown(gui) == newest, what="Ctrl+PgUp")
        await gui.key(Qt.Key.Key_Down, ALT)
        await until(lambda: shown(gui) == older, what="Alt+Down")
        assert input_.hasActiveFocus()

        await gui.key(Qt.Key.Key_D, CTRL | SHIFT)  # fork
        await until(lambda: len(session_ids(gui)) == 3, what="Ctrl+Shift+D")
        await until(lambda: shown(gui) not in (newest, older), what="the fork shown")
        fork = shown(gui)

        # delete: a dialog whose default button says Delete; Return confirms
        await gui.key(Qt.Key.Key_Delete, CTRL | SHIFT)
        await until(lambda: gui.window.findChild(object, "deleteDialog"), what="the dialog")
        dialog = gui.window.findChild(object, "deleteDialog")
        await until(lambda: dialog.property("opened"), what="the delete dialog")
        confirm = gui.window.findChild(object, "confirmDelete")
        assert confirm.property("text") == "Delete"
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: fork not in session_ids(gui), what="the deletion")
        await until(lambda: not dialog.property("visible"))
        assert input_.hasActiveFocus()

        # Escape cancels the dialog and deletes nothing
        await gui.key(Qt.Key.Key_Delete, CTRL | SHIFT)
        await until(lambda: dialog.property("opened"))
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not dialog.property("visible"))
        assert len(session_ids(gui)) == 2 and input_.hasActiveFocus()

        keys = gui.window.property("keys").toVariant()
        assert keys["new"] == "Ctrl+N" and keys["fork"] == "Ctrl+Shift+D"

    gui.run(body())


def test_focus_moves_between_regions_and_the_sidebar_by_arrows(gui) -> None:
    async def body() -> None:
        await gui.start()
        for _ in range(3):
            await gui.actions.sessions.create_session("agent")
        await gui.frame()
        ids = session_ids(gui)
        input_ = gui.item("composerInput")
        sessions = gui.item("sessionList")
        transcript = gui.item("transcriptList")
        input_.forceActiveFocus()

        await gui.key(Qt.Key.Key_F6)
        assert sessions.hasActiveFocus()
        await gui.key(Qt.Key.Key_F6)
        assert transcript.hasActiveFocus()
        await gui.key(Qt.Key.Key_F6)
        assert input_.hasActiveFocus()
        await gui.key(Qt.Key.Key_F6, SHIFT)
        assert transcript.hasActiveFocus()
        # text typed there (past its one-key commands) goes to the input, not lost
        await type_text(gui, "hi")
        assert input_.hasActiveFocus() and input_.property("text") == "hi"
        input_.setProperty("text", "")
        transcript.forceActiveFocus()

        # Tab leaves the input instead of typing a tab; Shift+Tab comes back
        input_.forceActiveFocus()
        await gui.key(Qt.Key.Key_Tab)
        assert not input_.hasActiveFocus() and input_.property("text") == ""
        await gui.key(Qt.Key.Key_Backtab, SHIFT)
        assert input_.hasActiveFocus()

        # in the sidebar, Down and Up switch sessions and focus stays; Return goes back
        sessions.forceActiveFocus()
        assert shown(gui) == ids[0]
        await gui.key(Qt.Key.Key_Down)
        await until(lambda: shown(gui) == ids[1])
        await gui.key(Qt.Key.Key_Down)
        await until(lambda: shown(gui) == ids[2])
        assert sessions.hasActiveFocus()
        await gui.key(Qt.Key.Key_Down)  # stops at the end
        await gui.key(Qt.Key.Key_Up)
        await until(lambda: shown(gui) == ids[1])
        await gui.key(Qt.Key.Key_Return)
        assert input_.hasActiveFocus()

    gui.run(body())


def test_escape_stops_the_running_turn(gui) -> None:
    async def body() -> None:
        await gui.start()
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        await type_text(gui, "one. two. three.")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.sessions.property("currentRunning"), what="the turn")
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not gui.sessions.property("currentRunning"), what="the stop")
        assert gui.state.turn(shown(gui)).state == "cancelled"

    gui.run(body())


def test_drafts_belong_to_their_session(gui) -> None:
    async def body() -> None:
        await gui.start()
        first = await gui.actions.sessions.create_session("agent")
        second = await gui.actions.sessions.create_session("agent")
        input_ = gui.item("composerInput")
        await gui.actions.sessions.select_session(first.id)
        await gui.frame()
        await type_text(gui, "alpha")
        await gui.key(Qt.Key.Key_PageUp, CTRL)
        await until(lambda: shown(gui) == second.id)
        assert input_.property("text") == ""
        await type_text(gui, "beta")
        await gui.key(Qt.Key.Key_PageDown, CTRL)
        await until(lambda: shown(gui) == first.id)
        assert input_.property("text") == "alpha"
        await gui.key(Qt.Key.Key_Return)  # sent to the session it was written for
        await until(lambda: gui.sessions.property("currentRunning"))
        assert input_.property("text") == ""
        await until(lambda: any(r.text == "alpha" for r in gui.transcript.model.rows()))
        # the turn made the first session the newest, but it keeps its place while shown:
        # Ctrl+PgUp goes where the user sees the other one (issue 47, point 13)
        assert session_ids(gui) == [second.id, first.id]
        await gui.key(Qt.Key.Key_PageUp, CTRL)
        await until(lambda: shown(gui) == second.id)
        assert input_.property("text") == "beta"
        await until(lambda: session_ids(gui) == [first.id, second.id])  # its place now

    gui.run(body())


def test_a_host_that_does_not_answer_is_told_in_the_window(gui) -> None:
    async def body() -> None:
        await gui.start()
        gui.main.link.call_timeout = 1.0
        pid = gui.supervisor.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            await gui.key(Qt.Key.Key_N, CTRL)
            await until(lambda: gui.notice.property("text") != "", 15.0, "the notice")
        finally:
            os.kill(pid, signal.SIGCONT)
        notice = gui.notice.property("text")
        assert notice.startswith("Could not create a session: the host did not answer within 1 s")
        # the host carries it out late: the session shows up, as the notice said it might,
        # and the notice, now untrue, goes with its cause
        await until(lambda: len(session_ids(gui)) == 1, 15.0)
        await until(lambda: gui.notice.property("text") == "", what="the notice gone")
        await gui.frame()
        assert gui.items("noticeBar") == []  # the bar made only while it shows

    gui.run(body())


def test_a_malformed_remote_endpoint_is_refused_in_the_dialog(gui) -> None:
    async def body() -> None:
        await gui.start()
        await gui.open_remote_dialog()
        assert gui.item("endpointField").hasActiveFocus()
        await type_text(gui, "not a url")
        await gui.frame()
        problem = gui.item("endpointProblem")
        assert problem.isVisible() and "ssh://" in problem.property("text")
        assert not gui.item("attachButton").property("enabled")
        await gui.key(Qt.Key.Key_Return)
        await gui.key(Qt.Key.Key_Return)
        assert session_ids(gui) == []
        gui.item("endpointField").setProperty("text", "unix:/nonexistent/nib.sock")
        gui.item("remoteIdField").setProperty("text", "r-7")
        await gui.frame()
        assert not problem.isVisible() and gui.item("attachButton").property("enabled")
        gui.item("remoteIdField").forceActiveFocus()
        await gui.key(Qt.Key.Key_Return)
        title = "r-7 on /nonexistent/nib.sock"  # attached, though its host is not there
        await until(lambda: gui.sessions.property("currentTitle") == title)
        assert gui.item("composerInput").hasActiveFocus()

    gui.run(body())


def test_the_transcript_follows_unless_the_user_scrolled_up(gui) -> None:
    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded, what="the transcript's first page")
        listview = gui.item("transcriptList")

        def append(*texts: str) -> None:  # as the router appends what the host stored
            lines = tuple(Line("assistant", text) for text in texts)
            gui.state.apply(ev.LinesAppended(session.id, lines))

        def at_end() -> bool:
            bottom = listview.property("originY") + listview.property("contentHeight")
            return listview.property("contentY") + listview.height() >= bottom - 2

        append(*(f"line {i}" for i in range(80)))
        await until(at_end, what="following the newest line")
        append("the newest")
        await until(at_end)
        listview.forceActiveFocus()
        await gui.frame()
        await gui.key(Qt.Key.Key_Home)
        await gui.frame()
        assert not at_end() and gui.item("jumpToLatest").isVisible()
        top = listview.property("contentY")
        append("later")
        await gui.frame()
        await gui.frame()
        assert listview.property("contentY") == top  # reading is not interrupted
        await gui.click(gui.item("jumpToLatest"))
        await until(at_end)
        assert not gui.item("jumpToLatest").isVisible()
        # the text can be selected; Ctrl+C in the transcript copies it all, read from the
        # host (these lines were applied here only: what the host holds is checked with
        # a real agent's transcript in test_agents)
        assert gui.items("transcriptText")[0].property("selectByMouse")
        listview.forceActiveFocus()
        await gui.key(Qt.Key.Key_C, CTRL)
        await until(lambda: "whole transcript is copied" in gui.state.notice, what="copied")
        # and from a line a click put the focus in, with nothing selected there: the
        # same, never nothing (issue 47, point 12)
        gui.state.apply(ev.NoticeShown(""))
        seen = [t for t in gui.visible_items("transcriptText") if t.mapToScene(QPointF()).y() > 0]
        line = max(seen, key=lambda t: t.mapToScene(QPointF()).y())  # the newest, in view
        await gui.click(line)
        assert line.hasActiveFocus() and line.property("selectedText") == ""
        await gui.key(Qt.Key.Key_C, CTRL)
        await until(lambda: "whole transcript is copied" in gui.state.notice, what="copied")

    gui.run(body())


def test_closing_during_a_turn_asks_first(gui, monkeypatch) -> None:
    from PySide6.QtGui import QGuiApplication

    # the test's loop goes on after the window closes (the app would quit here)
    QGuiApplication.setQuitOnLastWindowClosed(False)

    def close() -> None:  # the window closed itself: the rest of the teardown
        gui.run(gui.main.close())
        gui.release()

    monkeypatch.setattr(gui, "close", close)

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("one. two. three.")
        await until(lambda: gui.sessions.property("runningCount") == 1)
        await gui.act(gui.window.close)
        await until(lambda: gui.window.findChild(object, "closeDialog"), what="the question")
        dialog = gui.window.findChild(object, "closeDialog")
        await until(lambda: dialog.property("opened"), what="the question")
        assert gui.window.isVisible()
        words = dialog.findChild(QObject, "closeText").property("text")
        assert words.startswith("1 turn is still running. Closing Nib Desktop stops it;")
        assert dialog.property("title") == "Stop the running turn?"
        await gui.key(Qt.Key.Key_Escape)  # keep working
        await until(lambda: not dialog.property("visible"))
        assert gui.window.isVisible() and gui.item("composerInput").hasActiveFocus()
        await gui.act(gui.window.close)
        await until(lambda: dialog.property("opened"))
        # stop and close (no frame follows: the window is gone)
        gui.loop.call_soon(lambda: QTest.keyClick(gui.window, Qt.Key.Key_Return))
        await until(lambda: not gui.window.isVisible(), what="the window to close")

    try:
        gui.run(body())
    finally:
        QGuiApplication.setQuitOnLastWindowClosed(True)


def test_a_host_error_is_told_in_words(gui) -> None:
    async def body() -> None:
        await gui.start()
        await gui.actions.remote.attach_remote(it.AttachRemote("unix:/nonexistent/nib.sock", "r-1"))
        await until(lambda: gui.sessions.property("currentRemote"))
        await gui.frame()
        top = gui.rect_of(gui.item("transcriptList"))[1]
        gui.sessions.fork()  # a remote session cannot be forked here
        await until(lambda: gui.notice.property("text") != "", what="the notice")
        notice = gui.notice.property("text")
        assert notice.startswith("Could not fork the session: ") and "remote" in notice
        await gui.frame()
        assert gui.item("noticeBar").isVisible()
        assert gui.rect_of(gui.item("transcriptList"))[1] > top  # the bar above it
        await gui.frame()  # the bar's row laid out before its button is clicked
        await gui.click(gui.item("dismissNotice"))
        await gui.frame()
        assert gui.items("noticeBar") == []
        assert gui.rect_of(gui.item("transcriptList"))[1] == top  # no room kept for it

    gui.run(body())


def test_wide_and_small_windows(gui) -> None:
    async def body() -> None:
        await gui.start()
        gui.window.resize(2560, 1440)
        await gui.frame()
        composer = gui.item("composer")
        assert composer.width() <= 960
        centre = composer.mapToScene(composer.boundingRect().center()).x()
        content = gui.item("transcriptList")
        assert content.width() <= 960
        assert abs(centre - content.mapToScene(content.boundingRect().center()).x()) < 2
        gui.window.resize(640, 420)
        await gui.frame()
        assert composer.width() > 300 and gui.item("composerInput").isVisible()

    gui.run(body())


def test_slash_compact_summarises_the_session(gui, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("1. Add the column\n2. Write the tests")
        await until(lambda: gui.state.turn(session.id).state == "completed")
        await until(lambda: not gui.sessions.property("currentRunning"))
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        await type_text(gui, "/compact")
        await gui.key(Qt.Key.Key_Return)
        last = "Context compacted: "
        await until(
            lambda: gui.transcript.model.rows()[-1].text.startswith(last),
            what="the compaction line",
        )
        assert input_.property("text") == ""
        assert gui.notice.property("text") == ""
        # one count: the messages stored before the summary, live and read again alike
        stored = gui.transcript.model.rows()[-1].text
        live_head = stored.split("\n", 1)[0]
        other = await gui.actions.sessions.create_session("agent")
        await until(lambda: shown(gui) == other.id)
        gui.sessions.show(session.id)
        await until(lambda: shown(gui) == session.id and gui.state.transcript.loaded)
        await until(lambda: gui.transcript.model.rows()[-1].text == stored, what="read again")
        # folded to its count; a click shows the summary the agent goes on from
        await gui.frame()
        line = next(
            t
            for t in gui.visible_items("transcriptText")
            if t.property("text").startswith(live_head)
        )
        assert line.property("text").endswith("the summary ▸")
        assert "The demo agent summarised" not in line.property("text")
        await gui.click(line)
        await until(
            lambda: "The demo agent summarised the conversation so far" in line.property("text"),
            what="the summary unfolded",
        )
        assert live_head.endswith("earlier messages summarised")
        await gui.click(line)  # folded again
        await until(lambda: line.property("text").endswith("the summary ▸"), what="folded")
        # by keyboard: Return in the transcript unfolds every folded line, and folds them
        gui.item("transcriptList").forceActiveFocus()
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: "The demo agent summarised" in line.property("text"), what="Return")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: line.property("text").endswith("the summary ▸"), what="Return again")

    gui.run(body())


def test_slash_commands_answer_every_case_in_words_and_never_reach_the_agent(
    gui, monkeypatch
) -> None:
    """ "/compakt" is refused with the list of commands and stays in the input; "/compact"
    with nothing to compact says so; during a turn it is kept for the turn's end; "/help"
    lists the commands; "/continue" says when there is nothing to carry on."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "60000")

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded)
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()

        async def enter(text: str) -> str:
            gui.state.apply(ev.NoticeShown(""))
            input_.setProperty("text", text)
            await gui.key(Qt.Key.Key_Return)
            await until(lambda: gui.notice.property("text") != "", what=f"the answer to {text}")
            await gui.frame()
            assert gui.item("noticeText").isVisible()
            return str(gui.notice.property("text"))

        said = await enter("/compakt")
        assert said.startswith("There is no command “/compakt”. Commands: /compact")
        assert input_.property("text") == "/compakt"  # kept, to be mended
        assert await enter("/compact") == (
            "Nothing to compact: the conversation is short enough as it is."
        )
        assert input_.property("text") == ""
        assert (await enter("/help")).startswith("Commands: /compact (summarise")
        assert await enter("/continue") == (
            "Nothing to continue: no step of the checklist is unfinished."
        )
        await gui.actions.sessions.start_turn("1. One step")
        await until(lambda: gui.sessions.property("currentRunning"))
        said = await enter("/Compact")
        assert said == "/compact after this turn: the conversation is summarised once it ends."
        assert input_.property("text") == ""
        assert await enter("/continue") == "/continue works once this turn ends."
        assert gui.calls["sessions.compact"] == 1
        await gui.key(Qt.Key.Key_Escape)  # the turn ends: the compaction kept for it runs
        await until(lambda: gui.calls["sessions.compact"] == 2, what="/compact after the turn")
        assert gui.calls["turns.start"] == 1  # none of them went to the agent

    gui.run(body())


def test_compact_and_a_message_typed_during_a_turn_run_in_order_when_it_completes(
    gui, monkeypatch
) -> None:
    """The compaction first (the host takes no turn while it compacts), then the queued
    message as the next turn; neither is refused."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "400")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded)
        await gui.actions.sessions.start_turn("1. One step")
        await until(lambda: gui.sessions.property("currentRunning"))
        first = gui.state.turn(session.id).turn_id
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        for text in ("/compact", "And then the docs"):
            input_.setProperty("text", text)
            await gui.key(Qt.Key.Key_Return)
            assert input_.property("text") == ""
        await until(lambda: gui.calls["turns.start"] == 2, 20, "the queued message sent")
        assert gui.calls["sessions.compact"] == 1

        def second_turn_done() -> bool:
            turn = gui.state.turn(session.id)
            return turn.turn_id not in ("", first) and turn.state == "completed"

        # the first turn's "completed" may still be what the window holds when the second
        # turns.start is sent: wait for the second turn itself
        await until(second_turn_done, 20, "the queued message's turn completed")
        assert not gui.notice.property("text").startswith("Could not")
        lines = [r.text for r in gui.transcript.model.rows()]
        summary = next(i for i, t in enumerate(lines) if t.startswith("Context compacted"))
        assert lines.index("And then the docs") > summary  # compacted, then the message

    gui.run(body())


def test_slash_offers_the_commands_and_tab_completes(gui) -> None:
    async def body() -> None:
        await gui.start()
        input_ = gui.item("composerInput")

        def names() -> list[str]:
            from PySide6.QtGui import QAccessible

            items = gui.visible_items("slashCompletion")
            return [
                QAccessible.queryAccessibleInterface(c).text(QAccessible.Text.Name).split(",")[0]
                for c in items
            ]

        await gui.key(Qt.Key.Key_Slash)
        await until(lambda: len(gui.visible_items("slashCompletion")) == 3, what="the commands")
        assert names() == ["/compact", "/continue", "/help"]
        await type_text(gui, "co")
        await until(lambda: names() == ["/compact", "/continue"], what="the matching ones")
        await gui.key(Qt.Key.Key_Down)  # the second one
        await gui.key(Qt.Key.Key_Tab)
        assert input_.property("text") == "/continue" and input_.hasActiveFocus()
        await type_text(gui, " x")  # a space: a message, no longer a command
        await until(lambda: not gui.visible_items("slashCompletion"), what="the offer gone")
        # Tab with nothing offered leaves the input, as before
        await gui.key(Qt.Key.Key_Tab)
        assert not input_.hasActiveFocus()

    gui.run(body())


def test_enter_during_a_turn_queues_the_message_until_the_turn_completes(gui, monkeypatch) -> None:
    """Enter during a turn never does nothing: the message is queued (shown, editable,
    cancellable) and sent when the turn completes; after a stop it waits for Send now."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "400")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded)
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()

        async def enter(text: str) -> None:
            input_.setProperty("text", text)
            await gui.key(Qt.Key.Key_Return)
            await gui.frame()

        await enter("1. First step\n2. Second step")
        await until(lambda: gui.sessions.property("currentRunning"))
        await enter("Then tidy up")
        assert input_.property("text") == ""
        assert gui.item("queuedRow").isVisible()
        assert gui.item("queuedText").property("text").endswith("Then tidy up")
        # Up in the empty input takes it back to edit; Enter queues it again
        await gui.key(Qt.Key.Key_Up)
        assert input_.property("text") == "Then tidy up"
        assert not gui.visible_items("queuedRow")
        await enter("Then tidy up, please")
        assert gui.calls["turns.start"] == 1
        # sent when the turn completes, as the next turn's request
        await until(lambda: gui.calls["turns.start"] == 2, 30, "the queued message sent")
        await until(
            lambda: any(
                r.kind == "user" and r.text == "Then tidy up, please"
                for r in gui.transcript.model.rows()
            )
        )
        assert not gui.visible_items("queuedRow")
        # queued, then the turn stopped: it waits for Send now
        await until(lambda: gui.sessions.property("currentRunning"))
        await enter("After the stop")
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: gui.state.turn(session.id).state == "cancelled")
        await gui.frame()
        assert gui.item("sendQueuedButton").isVisible()
        await gui.click(gui.item("sendQueuedButton"))
        await until(lambda: gui.calls["turns.start"] == 3, what="sent by Send now")
        await until(lambda: not gui.visible_items("queuedRow"))

    gui.run(body(), 60)


def test_appearance_and_reduced_motion_are_settings_in_the_window(gui) -> None:
    """Light / Dark / System and reduced motion in the settings view, by keyboard, kept
    in settings.json and read again at the next start."""
    import json

    from nib_desktop.outside import desktop_prefs

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        theme = gui.item("theme")
        assert not theme.property("dark")  # offscreen's system palette is light
        await gui.key(Qt.Key.Key_Comma, CTRL)
        await until(lambda: gui.visible_items("appearanceSystem"), what="the settings view")
        await until(lambda: gui.item("appearanceSystem").hasActiveFocus(), what="focus")
        await gui.frame()
        ring = [r for r in gui.items("focusRing") if r.parentItem() is gui.item("appearanceSystem")]
        assert ring and ring[0].isVisible(), "the focus shown from the first frame"
        await gui.key(Qt.Key.Key_Tab)
        await gui.key(Qt.Key.Key_Tab)
        assert gui.item("appearanceDark").hasActiveFocus()
        await gui.key(Qt.Key.Key_Space)
        await until(lambda: theme.property("dark"), what="the dark palette")
        await gui.key(Qt.Key.Key_Escape)  # opened again in the dark palette: shown at once,
        await gui.key(Qt.Key.Key_Comma, CTRL)  # on the appearance chosen (issue 47, 20)
        dark = gui.item("appearanceDark")
        await until(lambda: dark.hasActiveFocus(), what="focus on Dark, the one chosen")
        await gui.frame()
        ring = [r for r in gui.items("focusRing") if r.parentItem() is dark]
        await until(lambda: ring[0].isVisible(), what="the focus shown")
        # the chosen appearance's dot stands out from its circle (issue 47, point 20: it
        # was a faint grey on grey in the dark palette)
        dot = dark.property("indicator")
        centre = dot.mapToScene(QPointF(dot.width() / 2, dot.height() / 2))
        shot = gui.grab()
        ratio = contrast(
            shot.pixelColor(int(centre.x()), int(centre.y())),
            shot.pixelColor(int(centre.x()) + 6, int(centre.y())),
        )
        assert ratio >= 3, ratio
        await gui.key(Qt.Key.Key_Tab)
        assert gui.item("reducedMotionBox").hasActiveFocus()
        await gui.key(Qt.Key.Key_Space)
        await until(lambda: gui.state.reduced_motion, what="still motion")
        assert gui.dock.property("reducedMotion")
        # a box that is on stands out from the dialog in the dark palette (NibCheckBox;
        # Fusion's was a faint grey on grey)
        await gui.frame()
        box = gui.item("reducedMotionBox").property("indicator")
        corner = box.mapToScene(QPointF(3, 3))
        shot = gui.grab()
        ratio = contrast(
            shot.pixelColor(int(corner.x()), int(corner.y())),
            shot.pixelColor(int(corner.x()) - 8, int(corner.y())),
        )
        assert ratio >= 3, ratio
        await gui.key(Qt.Key.Key_Escape)
        kept = json.loads((gui.data_dir / "settings.json").read_text())["desktop"]
        assert kept["appearance"] == "dark" and kept["reducedMotion"] is True
        again = desktop_prefs.load(gui.data_dir)
        assert (again.appearance, again.reduced_motion) == ("dark", True)
        # settings.json edited by hand: the window follows within a second, no restart
        settings = json.loads((gui.data_dir / "settings.json").read_text())
        settings["desktop"] = {"appearance": "light", "reducedMotion": False}
        (gui.data_dir / "settings.json").write_text(json.dumps(settings))
        theme = gui.window.findChild(object, "theme")
        await until(
            lambda: gui.views.settings_view.property("appearance") == "light",
            what="the edited appearance",
        )
        assert not theme.property("dark") and not gui.dock.property("reducedMotion")

    gui.run(body())


def test_ctrl_b_collapses_the_sidebar_and_f6_skips_it(gui) -> None:
    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        width = gui.item("transcriptList").width()
        await gui.key(Qt.Key.Key_B, CTRL)
        await gui.frame()
        assert not gui.item("sidebar").isVisible() and input_.hasActiveFocus()
        assert gui.item("transcriptList").width() >= width  # the room went to the transcript
        await gui.key(Qt.Key.Key_F6)
        assert gui.item("transcriptList").hasActiveFocus()
        await gui.key(Qt.Key.Key_F6)
        assert input_.hasActiveFocus()  # the hidden list is not a stop
        await gui.key(Qt.Key.Key_B, CTRL)
        await gui.frame()
        assert gui.item("sidebar").isVisible()

    gui.run(body())


def test_f6_reaches_the_open_dock_whose_list_scrolls_by_keys_and_escape_dismisses(
    gui,
) -> None:
    """F6 stops at the expanded dock's list, where PgDn/PgUp/End/Home scroll it; Escape in
    the input dismisses a notice when no turn runs."""
    from tests.ui.test_dock import running_session

    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        gui.push(sid, 50, [(f"Step {i}", "pending") for i in range(60)])
        gui.expand()
        listview = await gui.laid_out_dock_list()
        assert listview.isVisible()
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        await gui.key(Qt.Key.Key_F6)  # input -> sessions
        await gui.key(Qt.Key.Key_F6)  # -> transcript
        await gui.key(Qt.Key.Key_F6)  # -> the dock's list
        assert listview.hasActiveFocus()
        top = listview.property("contentY")
        await gui.key(Qt.Key.Key_PageDown)
        assert listview.property("contentY") > top
        await gui.key(Qt.Key.Key_End)
        bottom = listview.property("originY") + listview.property("contentHeight")
        assert listview.property("contentY") + listview.height() >= bottom - 1
        await gui.key(Qt.Key.Key_Home)
        assert listview.property("contentY") == listview.property("originY")
        await gui.key(Qt.Key.Key_F6)
        assert input_.hasActiveFocus()
        await gui.actions.sessions.cancel_turn()
        await until(lambda: not gui.sessions.property("currentRunning"))
        gui.state.apply(ev.NoticeShown("Could not fork the session: for the test"))
        await gui.frame()
        await gui.key(Qt.Key.Key_Escape)
        assert gui.notice.property("text") == ""

    gui.run(body())


def test_tab_reaches_every_button_and_shows_where_the_focus_is(gui) -> None:
    """Tab walks the window's whole focus chain, every enabled button included, and back to
    the input; the focused button draws its ring, an unfocused one does not; Return on a
    focused button presses it."""

    def ring(item: Any) -> Any:
        return next((c for c in item.childItems() if c.objectName() == "focusRing"), None)

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        input_ = gui.item("composerInput")
        await type_text(gui, "a task")  # Send is enabled with text to send
        reached: list[str] = []
        for _ in range(40):
            await gui.key(Qt.Key.Key_Tab)
            item = focused(gui)
            if item is input_ or item.objectName() == "composerInput":
                break
            reached.append(item.objectName())
            if item.objectName().endswith("Button"):
                assert ring(item) is not None and ring(item).isVisible(), item.objectName()
        else:
            raise AssertionError(f"Tab never came back to the input: {reached}")
        for name in (
            "newButton",
            "toolsButton",
            "sessionRow",
            "forkButton",
            "settingsButton",
            "deleteButton",
            "transcriptList",
            "sendButton",
        ):
            assert name in reached, (name, reached)
        assert not ring(gui.item("newButton")).isVisible()  # the focus has moved on
        assert input_.property("text") == "a task"  # no Tab typed into it

        # Return on a focused button presses it: Settings opens its dialog
        settings = gui.item("settingsButton")
        settings.forceActiveFocus(Qt.FocusReason.TabFocusReason)
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.window.findChild(object, "settingsDialog"), what="settings")
        dialog = gui.window.findChild(object, "settingsDialog")
        await until(lambda: dialog.property("opened"), what="the settings view open")

    gui.run(body())


def test_the_command_palette_runs_every_kind_of_action_by_keyboard(gui) -> None:
    """Ctrl+K (and Ctrl+Shift+P) lists the actions with their keys; typed words filter
    them; Return runs the chosen one; Escape closes and runs nothing."""

    def palette() -> Any:
        return gui.window.findChild(object, "commandPalette")

    def names() -> list[str]:
        return [row.property("text") for row in gui.visible_items("paletteName")]

    def keys_shown() -> dict[str, str]:
        rows = gui.visible_items("paletteRow")
        return {
            next(i for i in gui.items("paletteName") if row.isAncestorOf(i)).property("text"): next(
                i for i in gui.items("paletteKey") if row.isAncestorOf(i)
            ).property("text")
            for row in rows
        }

    async def open_with(key: Qt.Key, modifiers: Qt.KeyboardModifier) -> Any:
        await gui.key(key, modifiers)
        await until(lambda: palette() is not None and palette().property("opened"), what="palette")
        field = gui.item("paletteField")
        await until(lambda: field.hasActiveFocus(), what="the focus in the palette")
        return field

    async def run(key: Qt.Key, modifiers: Qt.KeyboardModifier, typed: str) -> None:
        await open_with(key, modifiers)
        await type_text(gui, typed)
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: not palette().property("visible"), what=f"the palette ran {typed!r}")

    async def body() -> None:
        await gui.start()
        field = await open_with(Qt.Key.Key_K, CTRL)
        await until(lambda: len(names()) > 5)
        shown = keys_shown()
        assert shown["New agent session"] == "Ctrl+N"
        assert shown["Tools and agents"] == "Ctrl+Shift+T"
        assert shown["Settings"] == "Ctrl+,"
        assert shown["Quit Nib"] == "Ctrl+Q"
        assert "Theme: dark" in shown and "Stop the turn" not in shown  # nothing runs
        # no checklist yet: nothing is offered that would do nothing
        assert "Checklist history" not in shown and "Show or hide the checklist" not in shown
        # typing filters; a word that matches nothing says so, and Return runs nothing
        await type_text(gui, "zzz")
        await until(lambda: gui.item("paletteEmpty").isVisible())
        assert "zzz" in gui.item("paletteEmpty").property("text")
        await gui.key(Qt.Key.Key_Return)
        assert palette().property("visible") and session_ids(gui) == []
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not palette().property("visible"))
        await until(lambda: gui.item("composerInput").hasActiveFocus(), what="focus back")
        assert field.property("text") == "zzz" and session_ids(gui) == []

        # a new session of a kind the New button's menu has
        await run(Qt.Key.Key_P, CTRL | SHIFT, "new plan")
        await until(lambda: len(session_ids(gui)) == 1, what="a plan session")
        await until(lambda: gui.sessions.property("currentMode") == "plan", what="it shown")
        # the theme, from either key
        await run(Qt.Key.Key_K, CTRL, "theme dark")
        await until(lambda: gui.views.settings_view.property("appearance") == "dark")
        assert gui.window.findChild(object, "theme").property("dark")
        # Down chooses the next match: of "reduced" there is one, of "new" several
        await open_with(Qt.Key.Key_K, CTRL)
        await type_text(gui, "new")
        first = names()[0]
        await gui.key(Qt.Key.Key_Down)
        await until(lambda: gui.visible_items("paletteRow")[1].property("highlighted"))
        assert first == "New agent session"
        await gui.key(Qt.Key.Key_Escape)
        # a dialog opened from the palette keeps the focus
        await run(Qt.Key.Key_K, CTRL, "tools")
        await until(lambda: gui.window.findChild(object, "toolsDialog"), what="the tools view")
        tools = gui.window.findChild(object, "toolsDialog")
        await until(lambda: tools.property("opened"))
        await until(lambda: gui.item("toolList").hasActiveFocus(), what="the focus in tools")

    gui.run(body())


def test_at_the_minimum_size_nothing_is_cut_without_its_whole_text(gui) -> None:
    """640x420 with a long title, its fork and a running checklist: every button shows all
    of its text; every text cut short (a title at its end) carries its whole text in a
    tooltip and in its accessible name."""
    from PySide6.QtGui import QAccessible

    from harness.gui import walk

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        long = "Add the column to the table of every customer record in the database"
        await gui.actions.sessions.start_turn(f"1. {long}\n2. Write the tests\n3. Update the docs")
        await until(lambda: gui.sessions.property("currentRunning"), what="a running turn")
        sid = gui.sessions.property("currentId")
        await gui.key(Qt.Key.Key_D, CTRL | SHIFT)
        await until(lambda: len(session_ids(gui)) == 2 and shown(gui) != sid, what="the fork")
        gui.sessions.show(sid)
        await until(lambda: shown(gui) == sid, what="the first session shown again")
        gui.window.resize(640, 420)
        await gui.frame()
        header = ("currentStep", "headerSweep")  # the step's text, sweeping while it runs
        await until(lambda: any(gui.visible_items(n) for n in header), what="the dock")
        await gui.frame()
        cut = []
        for item in walk(gui.window.contentItem()):
            if not item.isVisible():
                continue
            if item.objectName().endswith("Button"):
                assert item.width() >= item.property("implicitWidth") - 0.5, item.objectName()
            if item.property("truncated"):
                text = item.property("text")
                tips = [c for c in item.childItems() if c.objectName() == "fullTextTip"]
                assert tips and tips[0].property("full") == text, (item.objectName(), text)
                # the item's accessible name, or its row's (a session row names its title)
                names, node = [], item
                while node is not None and not names:
                    iface = QAccessible.queryAccessibleInterface(node)
                    if iface is not None and iface.text(QAccessible.Text.Name):
                        names.append(iface.text(QAccessible.Text.Name))
                    node = node.parentItem()
                assert names and text in names[0], (item.objectName(), names)
                cut.append(item.objectName())
        assert "sessionTitle" in cut and set(header) & set(cut), cut  # the case was met
        titles = [t for t in gui.visible_items("sessionTitle") if "(fork)" in t.property("text")]
        assert titles and titles[0].property("truncated")  # cut, in its middle: "(fork)" read
        assert titles[0].property("elideMiddle")  # see SessionRow.qml

    gui.run(body())


def test_a_quick_start_shows_no_starting_bar_and_a_slow_one_says_so(gui) -> None:
    """The host answers well within a second of the first frame: "Starting the host…"
    would flash and move the window's content at every launch. Only a start that has
    taken a second is told."""
    import time

    async def body() -> None:
        await gui.frame()  # the first frame, the host not asked yet
        started = time.monotonic()
        # not even made for the first frame: the bar exists only while it shows
        assert gui.items("connectionText") == [] and gui.items("noticeBar") == []
        top = gui.rect_of(gui.item("transcriptList"))[1]
        await until(lambda: gui.visible_items("connectionText"), 5, "the bar of a slow start")
        assert time.monotonic() - started > 0.8
        assert gui.item("connectionText").property("text") == "Starting the host…"
        await gui.frame()
        assert gui.rect_of(gui.item("transcriptList"))[1] > top  # the bar above it
        await gui.start()
        await until(lambda: gui.items("connectionText") == [], what="the bar gone once connected")
        await gui.frame()
        assert gui.rect_of(gui.item("transcriptList"))[1] == top  # and no room kept for it

    gui.run(body())


def test_the_first_frame_is_drawn_in_the_chosen_appearance(aio_loop, tmp_path, monkeypatch) -> None:
    """Appearance and motion chosen in settings.json hold from the first frame, before
    the host answers: a dark window is never drawn light for a moment first."""
    import json

    for key in [k for k in os.environ if k.startswith("NIB_")]:
        monkeypatch.delenv(key)
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(
        json.dumps({"desktop": {"appearance": "dark", "reducedMotion": True}})
    )
    gui = Gui(aio_loop, data)
    try:

        async def body() -> None:
            await gui.frame()  # the first frame: no host yet
            assert gui.item("theme").property("dark")
            assert gui.dock.property("reducedMotion")
            corner = gui.grab().pixelColor(gui.window.width() - 2, 2)
            assert corner.lightnessF() < 0.3, corner.name()  # the dark window colour

        gui.run(body())
    finally:
        gui.close()


def test_the_last_known_sessions_are_drawn_until_the_host_answers(
    aio_loop, tmp_path, monkeypatch
) -> None:
    """The first frame draws the list the window had when it last closed, marked and not
    yet usable; the host's own list replaces it (here the host has other sessions)."""
    from nib_desktop.shell import session_cache
    from nib_desktop.state.types import Session

    for key in [k for k in os.environ if k.startswith("NIB_")]:
        monkeypatch.delenv(key)
    data = tmp_path / "data"
    data.mkdir()
    last = (Session("s1", "Fix the build", "agent"), Session("s2", "Write the docs", "plan"))
    session_cache.save(data, last)
    assert session_cache.load(data) == last
    gui = Gui(aio_loop, data)
    try:

        async def body() -> None:
            await gui.frame()  # the first frame: before the host has answered
            titles = [t.property("text") for t in gui.visible_items("sessionTitle")]
            assert titles == ["Fix the build", "Write the docs"]
            assert gui.item("cachedNote").isVisible()
            assert not gui.item("sessionList").isEnabled()
            await gui.start()
            await until(lambda: not gui.sessions.property("cached"), what="the host's list")
            await gui.frame()
            assert gui.visible_items("sessionTitle") == []  # this host has none
            assert not gui.item("cachedNote").isVisible()
            assert gui.item("sessionList").isEnabled()

        gui.run(body())
    finally:
        gui.close()
    # a cache that cannot be read is no list at all
    (data / session_cache.FILENAME).write_text("{not json")
    assert session_cache.load(data) == ()
    (data / session_cache.FILENAME).write_text('{"version": 1, "sessions": [{"id": 3}]}')
    assert session_cache.load(data) == ()


def test_sending_a_message_brings_the_transcript_to_it(gui) -> None:
    """Scrolled up to read, the user sends: the view goes to the newest lines again (it
    stayed where it was, the new message and the turn off screen)."""

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded, what="the transcript's first page")
        listview = gui.item("transcriptList")
        lines = tuple(Line("assistant", f"line {i}") for i in range(80))
        gui.state.apply(ev.LinesAppended(session.id, lines))

        def at_end() -> bool:
            bottom = listview.property("originY") + listview.property("contentHeight")
            return listview.property("contentY") + listview.height() >= bottom - 2

        await until(at_end, what="following the newest line")
        listview.forceActiveFocus()
        await gui.key(Qt.Key.Key_Home)
        await gui.frame()
        assert not at_end()
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        input_.setProperty("text", "1. one 2. two")
        await gui.key(Qt.Key.Key_Return)
        await until(at_end, what="the view at the message sent")
        assert not gui.item("jumpToLatest").isVisible()

    gui.run(body())


def contrast(one: QColor, other: QColor) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""

    def luminance(colour: QColor) -> float:
        parts = [
            c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
            for c in (colour.redF(), colour.greenF(), colour.blueF())
        ]
        return 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_find_in_a_short_transcript_leaves_no_jump_to_the_latest(gui: Gui) -> None:
    """A find that goes to a match stops following the newest line; where the whole
    transcript fits, "Jump to the latest" would jump nowhere, so it is not offered."""

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded, what="the transcript's first page")
        lines = (Line("assistant", "tag the release"), Line("assistant", "then publish"))
        gui.state.apply(ev.LinesAppended(session.id, lines))
        await until(lambda: gui.transcript.model.rowCount() >= 2, what="the lines shown")
        gui.item("composerInput").forceActiveFocus()
        await gui.key(Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: gui.visible_items("findField"), what="the find bar")
        for char in "tag":
            await gui.key(Qt.Key(ord(char.upper())))
        await until(lambda: gui.item("findCount").property("text") != "", what="a match")
        await gui.key(Qt.Key.Key_Return)
        await gui.key(Qt.Key.Key_Escape)
        await gui.frame()
        assert not gui.item("transcriptList").property("following")
        assert not gui.item("jumpToLatest").isVisible()

    gui.run(body())
