"""The dock's History view in the real window, on a real host: every revision grouped by
turn, one shown read-only, Escape back to the live list, driven by real key events."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from nib_desktop.state import intents as it
from nib_desktop.state.types import Item, Revision
from ui.views.history import history_rows

CTRL = Qt.KeyboardModifier.ControlModifier


async def finished_turn(gui: Gui, session_id: str, text: str, revision: int) -> None:
    await gui.actions.sessions.start_turn(text)
    await until(lambda: (s := gui.state.snapshot(session_id)) and s.revision == revision)
    await until(lambda: gui.state.turn(session_id).state == "completed")
    await gui.frame()


def history(gui: Gui) -> list:
    return gui.history.model.rows()


def test_history_by_keyboard_shows_a_past_revision_read_only(gui, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await finished_turn(gui, session.id, THREE, 7)
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        await gui.frame()

        await gui.key(Qt.Key.Key_H, CTRL)
        await until(lambda: len(history(gui)) == 7, what="the history loaded")
        await gui.frame()
        listview = gui.item("historyList")
        assert listview.isVisible() and listview.hasActiveFocus()
        assert [r.revision for r in history(gui)] == [7, 6, 5, 4, 3, 2, 1]
        assert history(gui)[-1].summary == "Checklist: 3 steps"
        assert history(gui)[-2].summary == "◐ Add the column"
        assert all(r.isVisible() for r in gui.items("historyRow")[:7])

        await gui.key(Qt.Key.Key_Down)
        await gui.key(Qt.Key.Key_Down)
        await gui.key(Qt.Key.Key_Return)
        assert gui.history.property("viewing")
        label = gui.item("currentStep").property("text")
        assert label.startswith("Revision 5 of 7, ") and label.endswith(" · read-only")
        shown = [(r.content, r.status) for r in gui.dock.model.rows()]
        assert shown == [
            ("Add the column", "completed"),
            ("Write the tests", "in_progress"),
            ("Summarise the changes", "pending"),
        ] or shown[0] == ("Add the column", "completed")
        assert not any(r.sweeping or r.interrupted for r in gui.dock.model.rows())
        assert gui.item("dockList").isVisible()
        assert not input_.hasActiveFocus()

        # Backspace: back to the revisions; Escape: back to the live list, focus to input
        await gui.key(Qt.Key.Key_Backspace)
        assert not gui.history.property("viewing") and listview.hasActiveFocus()
        await gui.key(Qt.Key.Key_Return)
        assert gui.history.property("viewing")
        await gui.key(Qt.Key.Key_Escape)
        assert not gui.history.property("open") and not gui.history.property("viewing")
        assert input_.hasActiveFocus()
        live = gui.state.snapshot(session.id)
        assert live is not None
        assert [r.content for r in gui.dock.model.rows()] == [i.content for i in live.items]
        assert gui.item("currentStep").property("text") == "All steps completed"

        # typing goes on in the input
        for key in (Qt.Key.Key_O, Qt.Key.Key_K):
            await gui.key(key)
        assert input_.property("text") == "ok"

    gui.run(body())


def test_history_follows_live_writes_and_groups_by_turn(gui, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await finished_turn(gui, session.id, THREE, 7)
        await gui.key(Qt.Key.Key_H, CTRL)
        await until(lambda: len(history(gui)) == 7, what="the history loaded")
        # a second turn while the view is open: its revisions arrive in the view
        await gui.actions.sessions.start_turn(
            "1. Update the docs\n2. Tag the release\n3. Announce it"
        )
        await until(lambda: history(gui) and history(gui)[0].revision >= 14, what="new writes")
        await until(lambda: gui.state.turn(session.id).state == "completed")
        await until(lambda: len(history(gui)) == gui.state.snapshot(session.id).revision)
        # each group: when its turn began, its whole range, its request's first words
        await until(lambda: "“" in history(gui)[0].turnLabel, what="the request's words")
        labels = [r.turnLabel for r in history(gui)]
        assert labels[0].endswith(" · revisions 8–14 · “1. Update the docs”")
        assert labels[-1].endswith(" · revisions 1–7 · “1. Add the column”")
        assert len(set(labels)) == 2 and all(label.startswith("Turn started ") for label in labels)
        assert gui.history.property("open")  # writes never close the view
        # the button says how to get back, and clicking it does
        button = gui.item("historyButton")
        assert button.property("text") == "Close history"
        await gui.frame()  # the header laid out again for the longer label
        await gui.frame()
        await gui.click(button)
        assert not gui.history.property("open")
        assert gui.item("composerInput").hasActiveFocus()

    gui.run(body())


def test_history_is_not_offered_for_a_remote_session(gui) -> None:
    async def body() -> None:
        await gui.start()
        await gui.actions.remote.attach_remote(it.AttachRemote("unix:/nonexistent/nib.sock", "r-1"))
        await gui.key(Qt.Key.Key_H, CTRL)
        assert not gui.history.property("open")
        assert not gui.item("historyButton").isVisible()
        assert gui.calls["todos.history"] == 0

    gui.run(body())


def test_history_keys_reach_both_ends_and_move_by_pages(gui, monkeypatch) -> None:
    """Home, End (loading every older page on the way), PgDn and PgUp in the History view;
    times to the second."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    steps = "\n".join(f"{i}. Step {i}" for i in range(1, 41))

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded)
        await gui.actions.sessions.start_turn(steps)
        await until(lambda: gui.state.turn(session.id).state == "completed", 30)
        # a short turn after it: the first page holds two turns, the long one's start is
        # in pages not read until the user goes there
        await gui.actions.sessions.start_turn("1. One more\n2. And another")
        await until(lambda: gui.state.snapshot(session.id).revision > 85, 30)
        await until(lambda: gui.state.turn(session.id).state == "completed", 30)
        newest = gui.state.snapshot(session.id).revision
        assert newest == 86
        await gui.key(Qt.Key.Key_H, CTRL)
        await until(lambda: len(history(gui)) > 0, what="the first page")
        await gui.frame()
        assert gui.history.property("hasMore"), "more than one page"
        await until(lambda: "“" in history(gui)[0].turnLabel, what="the request's words")
        labels = [r.turnLabel for r in history(gui)]
        assert labels[0].endswith(" · revisions 82–86 · “1. One more”")
        assert labels[-1].startswith("Turn with revisions up to 81")  # began in a later page
        listview = gui.item("historyList")
        assert listview.hasActiveFocus() and listview.property("currentIndex") == 0
        await gui.key(Qt.Key.Key_End)
        await until(
            lambda: history(gui)[listview.property("currentIndex")].revision == 1,
            what="the oldest revision current",
        )
        assert len(history(gui)) == newest
        await until(
            lambda: history(gui)[-1].turnLabel.endswith(" · revisions 1–81 · “1. Step 1”"),
            what="the whole turn's header",
        )
        await gui.key(Qt.Key.Key_Home)
        assert listview.property("currentIndex") == 0
        await gui.key(Qt.Key.Key_PageDown)
        down = listview.property("currentIndex")
        assert down > 1
        await gui.key(Qt.Key.Key_PageUp)
        assert listview.property("currentIndex") == 0
        assert re.fullmatch(r"\d\d:\d\d:\d\d", history(gui)[0].time)

    gui.run(body(), 90)


THREE = "1. Add the column\n2. Write the tests\n3. Summarise the changes"


def revision(n: int, turn: str = "t1") -> Revision:
    return Revision(n, turn, f"10:{n:02}", (Item(f"step {n}", "pending"),), f"+{n}", False)


def test_turn_groups_are_labelled_by_their_first_revision() -> None:
    held = (revision(4, "b"), revision(3, "b"), revision(2, "a"), revision(1, ""))
    rows = history_rows(held, {"b": "Fix the build", "a": ""})
    assert [r.turnLabel for r in rows] == [
        "Turn started 10:03 · revisions 3–4 · “Fix the build”",
        "Turn started 10:03 · revisions 3–4 · “Fix the build”",
        "Turn started 10:02 · revision 2",
        "Before the history · revision 1",
    ]
    # older pages not read yet: the oldest group held may begin in them, and says so
    partial = history_rows(held[:3], {"b": "Fix the build"}, has_more=True)
    assert [r.turnLabel for r in partial][-1] == "Turn with revisions up to 2"
    assert rows[0].accessibleName == "Revision 4, 10:04: +4"


def test_ctrl_h_where_no_checklist_was_shown_opens_and_closes_the_history(gui) -> None:
    """The dock is made when it first shows: Ctrl+H in a session that never had a
    checklist opens the History view all the same, and Ctrl+H again closes it."""

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        gui.item("composerInput").forceActiveFocus()
        await gui.frame()
        assert not gui.items("todoDock")
        await gui.key(Qt.Key.Key_H, CTRL)
        await until(lambda: gui.state.history.session_id is not None, what="the history open")
        await gui.key(Qt.Key.Key_H, CTRL)
        await until(lambda: gui.state.history.session_id is None, what="the history closed")

    gui.run(body())
