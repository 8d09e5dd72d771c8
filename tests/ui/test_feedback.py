"""Feedback on the plan in the real window, by keyboard only: the dock's list is reached
with F6, a step is chosen with the arrows, and its keys ask the agent to skip it, move
it, add a step or take a comment; Ctrl+Enter sends the asks as one message (queued while
the turn runs). The checklist changes only when the agent writes it (ADR 0312)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from host.protocol import (
    plain_methods as plain_rpc,
    plain_models as plain,
)
from nib_desktop.state import events as ev
from nib_desktop.state.types import PlanAsk
from tests.ui.test_dock import running_session
from tests.ui.test_keyboard import type_text

pytestmark = pytest.mark.in_memory

ALT = Qt.KeyboardModifier.AltModifier
CTRL = Qt.KeyboardModifier.ControlModifier


def asks(gui: Gui) -> list[str]:
    return [item.property("text") for item in gui.items("askText") if item.isVisible()]


async def finished_demo(gui: Gui, request: str) -> Any:
    """A session of the demo agent (its steps paced at 0 ms by the caller) whose turn has
    done every step of `request` and ended."""
    session = await gui.actions.sessions.create_session("agent")
    await gui.actions.sessions.start_turn(request)
    await until(
        lambda: (
            (s := gui.state.snapshot(session.id)) is not None
            and all(i.status == "completed" for i in s.items)
        ),
        20,
        "every step done",
    )
    await until(lambda: not gui.sessions.property("currentRunning"), what="the turn's end")
    return session


async def to_the_dock_list(gui: Gui) -> object:
    """The dock expanded, and F6 until its list has the keyboard."""
    gui.expand(True)
    await gui.laid_out_dock_list()
    listview = gui.item("dockList")
    for _ in range(4):
        if listview.hasActiveFocus():
            break
        await gui.key(Qt.Key.Key_F6)
    assert listview.hasActiveFocus()
    return listview


def test_the_plan_is_answered_by_keyboard_and_the_agent_writes_the_new_list(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)  # "Add the column" … "Update the docs", all pending
        listview = await to_the_dock_list(gui)
        await until(lambda: gui.item("feedbackKeys").isVisible(), what="the keys shown")
        assert "S skip" in gui.item("feedbackKeys").property("text")
        before = gui.state.snapshot(sid)
        assert before is not None

        await gui.key(Qt.Key.Key_Down)  # "Write the tests"
        await gui.key(Qt.Key.Key_S)
        await gui.key(Qt.Key.Key_Down)  # "Update the docs"
        await gui.key(Qt.Key.Key_Up, ALT)
        await gui.key(Qt.Key.Key_A)
        words = gui.item("feedbackWords")
        await until(words.hasActiveFocus, what="the new step's words asked for")
        await type_text(gui, "tag the release")
        await gui.key(Qt.Key.Key_Return)
        await until(listview.hasActiveFocus, what="the focus back in the list")
        await gui.key(Qt.Key.Key_Up)
        await gui.key(Qt.Key.Key_Up)  # "Add the column"
        await gui.key(Qt.Key.Key_C)
        await until(words.hasActiveFocus, what="the comment's words asked for")
        await type_text(gui, "nullable")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: len(asks(gui)) == 4, what="four asks listed")
        assert asks(gui) == [
            "• Skip “Write the tests”",
            "• Move “Update the docs” before “Write the tests”",
            "• Add a step after “Update the docs”: “tag the release”",
            "• On “Add the column”: “nullable”",
        ]
        assert gui.item("feedbackSend").property("text") == "Send after this turn"
        # each step's row says what is asked of it (issue 47, point 26)
        marks = {r.content: r.askedText for r in gui.dock.model.rows()}
        assert marks == {
            "Add the column": "Asked: comment",
            "Write the tests": "Asked: skip",
            "Update the docs": "Asked: move, a step after it",
        }
        shown = [t.property("text") for t in gui.items("stepAsked") if t.isVisible()]
        assert sorted(shown) == sorted(marks.values())

        await gui.key(Qt.Key.Key_Return, CTRL)  # the turn runs: they go when it ends
        await until(lambda: sid in gui.state.asks_queued, what="the feedback queued")
        # held as asks, to be written against the checklist as it is when they go
        assert len(asks(gui)) == 4 and sid not in gui.state.queued
        await until(
            lambda: gui.item("feedbackSend").property("text") == "Goes when this turn ends",
            what="said to go at the turn's end",
        )
        held = await gui.main.link.call(plain_rpc.TODOS_GET, plain.SessionRef(session_id=sid))
        assert held.revision == before.revision  # the user's word wrote nothing

        await gui.actions.sessions.cancel_turn()  # stopped: the asks wait, held, unsent
        await until(lambda: gui.state.turn(sid).state == "cancelled", what="stopped")
        await until(lambda: sid not in gui.state.asks_queued, what="no longer queued")
        assert len(asks(gui)) == 4
        await until(
            lambda: gui.item("feedbackSend").property("text") == "Send to the agent",
            what="Send offered again",
        )
        await gui.frame()  # laid out where the click lands
        await gui.click(gui.item("feedbackSend"))
        await until(
            lambda: (s := gui.state.snapshot(sid)) is not None and s.revision > before.revision,
            what="the agent's new list",
        )
        await until(
            lambda: (
                [r.property("content") for r in gui.items("todoRow") if r.isVisible()]
                == ["Add the column", "Update the docs", "tag the release", "Write the tests"]
            ),
            what="the new list in the dock",
        )
        after = gui.state.snapshot(sid)
        assert after is not None and after.items[3].status == "cancelled"
        await gui.actions.sessions.cancel_turn()

    gui.run(body())


def test_a_finished_step_is_not_skipped_and_home_and_end_choose_the_ends(gui, monkeypatch) -> None:
    """Issue 47, point 26: S on a finished step did nothing and said nothing; Home and
    End did not move in the dock's list."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        more = "".join(f"\n{n}. Check part {n}" for n in range(4, 21))  # past the list's box
        session = await finished_demo(gui, "1. Read it\n2. Fix it\n3. Ship it" + more)
        listview = await to_the_dock_list(gui)
        assert listview.property("currentIndex") == 0  # "Read it", completed
        await gui.key(Qt.Key.Key_S)
        await until(lambda: gui.state.notice != "", what="said")
        assert gui.state.notice == "“Read it” is already completed: it is not skipped."
        assert asks(gui) == []
        # an ask made while its step still ran, held after the step finished: marked
        gui.state.apply(ev.PlanAsked(session.id, (PlanAsk("skip", "Fix it"),)))
        await until(lambda: asks(gui), what="the ask listed")
        assert asks(gui) == ["• Skip “Fix it” · not sent: its step is completed now"]
        assert gui.items("askText")[0].property("font").strikeOut()
        # Home and End choose the first and the last step, and show it whole
        listview.forceActiveFocus()

        def in_view(row: int) -> bool:
            item = next(r for r in gui.items("todoRow") if r.property("index") == row)
            top = item.mapToItem(listview, 0, 0).y()
            return top >= -0.5 and top + item.height() <= listview.height() + 0.5

        await gui.key(Qt.Key.Key_End)
        await until(lambda: listview.property("currentIndex") == 19, what="the last step")
        await until(lambda: in_view(19), what="the last step in view")
        assert not in_view(0)
        await gui.key(Qt.Key.Key_Home)
        await until(lambda: listview.property("currentIndex") == 0 and in_view(0), what="first")

    gui.run(body())
