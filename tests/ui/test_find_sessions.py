"""Ctrl+F belongs to the session it was opened on (issue 47, point 16): showing another
session closes the find bar and forgets its query, so the other session never shows "No
matches" for a word it was never searched for."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from tests.ui.test_keyboard import type_text

pytestmark = pytest.mark.in_memory  # the host core in this process


async def found_in_a_turn(gui: Gui) -> Any:
    """A new session whose demo turn said "heredocs" twice, found with Ctrl+F."""
    session = await gui.actions.sessions.create_session("agent")
    await gui.actions.sessions.start_turn("1. Teach the tokenizer heredocs")
    await until(lambda: gui.state.turn(session.id).ended, 15, "the turn's end")
    await gui.key(Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    await type_text(gui, "heredocs")
    count = gui.item("findCount")
    await until(lambda: count.property("text").endswith("of 2"), 5, "found")
    return session


def test_the_find_bar_closes_when_another_session_is_shown(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        other = await gui.actions.sessions.create_session("agent")
        await found_in_a_turn(gui)
        count = gui.item("findCount")
        gui.main.state.apply(
            __import__("nib_desktop.state.events").state.events.SessionShown(other.id)
        )
        await until(lambda: gui.state.transcript.session_id == other.id, 5, "the other shown")
        await gui.frame()
        assert not gui.item("findBar").isVisible()
        assert gui.transcript.property("findQuery") == "" and count.property("text") == ""

    gui.run(body())


def test_a_new_turn_is_followed_while_the_find_bar_holds_a_match(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 47, point 16: while the find bar held a match, every new line found it
    again and put the view back on it, so a whole turn ran off-screen."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        session = await found_in_a_turn(gui)
        count = gui.item("findCount")
        listview = gui.item("transcriptList")
        assert not listview.property("following")  # on the match, as asked
        listview.setProperty("following", True)  # the user sends again: the view follows
        turn = gui.state.turn(session.id).turn_id
        await gui.actions.sessions.start_turn_in(session.id, "1. Write heredocs tests")
        await until(lambda: gui.state.turn(session.id).turn_id != turn, 10, "the new turn")
        await until(lambda: gui.state.turn(session.id).ended, 15, "its end")
        await until(lambda: count.property("text").endswith("of 4"), 5, "found again")
        assert listview.property("following")  # still following the newest lines

    gui.run(body())
