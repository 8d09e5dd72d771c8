"""The list models and the dock's view over the state, checked as Qt models."""

from __future__ import annotations

import pytest

from nib_desktop.state import events as ev, sidebar
from nib_desktop.state.store import AppState
from nib_desktop.state.transcript_lines import Line
from nib_desktop.state.types import Item, Session, Snapshot, TurnView
from ui.views.dock import DockView
from ui.views.rows import (
    SessionListModel,
    TodoListModel,
    TranscriptModel,
)

pytestmark = pytest.mark.in_memory  # the host core in this process (tests/helpers/gui.py)


def test_session_and_transcript_models(qtmodeltester) -> None:
    sessions = SessionListModel()
    state = AppState()
    state.apply(
        ev.SessionsListed(
            (
                Session("a", "A", "agent", running_turn="t1"),
                Session("b", "B", "plan", parent_id="a", remote=True, remote_state="connected"),
            )
        )
    )
    sessions.set_rows(sidebar.rows(state))
    qtmodeltester.check(sessions)
    transcript = TranscriptModel()
    transcript.set_rows([Line("user", "hi"), Line("tool_result", "x", is_error=True)])
    qtmodeltester.check(transcript)
    # the roles read the state's values under QML's names
    role = {bytes(v).decode(): k for k, v in sessions.roleNames().items()}
    first = sessions.index(0)
    assert sessions.data(first, role["sessionId"]) == "a" and sessions.data(first, role["running"])
    assert sessions.data(sessions.index(1), role["remoteState"]) == "connected"
    assert transcript.data(
        transcript.index(1),
        {bytes(v).decode(): k for k, v in transcript.roleNames().items()}["isError"],
    )


def shown_dock(session_id: str = "a") -> tuple[AppState, DockView]:
    state = AppState()
    dock = DockView(state, lambda _intent: None)
    state.apply(ev.SessionsListed((Session(session_id, "A", "agent"),)))
    return state, dock


def test_todo_model_through_the_dock(qtmodeltester, qtbot) -> None:
    state, dock = shown_dock()
    state.apply(ev.TurnChanged(TurnView("a", "running")))
    items = dock.model
    assert isinstance(items, TodoListModel)
    qtmodeltester.check(items)
    # a change in length inserts (or removes) rows: never a reset
    with qtbot.assertNotEmitted(items.modelReset), qtbot.waitSignal(items.rowsInserted):
        state.apply(
            ev.SnapshotArrived(
                Snapshot(
                    "a", 1, (Item("One", "completed"), Item("Two", "in_progress", "Doing two"))
                )
            )
        )
    qtmodeltester.check(items)
    assert [r.sweeping for r in items.rows()] == [False, True]
    # same length: only the changed rows are signalled, no reset
    with qtbot.assertNotEmitted(items.modelReset), qtbot.waitSignal(items.dataChanged) as changed:
        state.apply(
            ev.SnapshotArrived(
                Snapshot("a", 2, (Item("One", "completed"), Item("Two", "completed")))
            )
        )
    assert changed.args[0].row() == 1 and changed.args[1].row() == 1
    assert dock.property("completed") == 2 and dock.property("currentStep") == "All steps completed"


def test_dock_marks_interrupted_when_the_turn_ends(qtbot) -> None:
    state, dock = shown_dock()
    state.apply(ev.TurnChanged(TurnView("a", "running")))
    state.apply(ev.SnapshotArrived(Snapshot("a", 1, (Item("Two", "in_progress", "Doing two"),))))
    with qtbot.waitSignal(dock.changed):
        state.apply(ev.TurnChanged(TurnView("a", "cancelled")))
    row = dock.model.rows()[0]
    assert row.interrupted and not row.sweeping
    assert row.accessibleName == "Step 1 of 1, stopped: Doing two" and row.endedWord == "stopped"
    assert dock.property("currentStep") == "Stopped at 0 / 1 · Two"
    assert dock.property("tone") == "ended" and dock.property("countInText")


def test_reduced_motion_from_the_environment(monkeypatch) -> None:
    from nib_desktop.shell.prefs import restore_prefs

    state, dock = shown_dock()
    assert dock.property("reducedMotion") is False
    monkeypatch.setenv("NIB_REDUCED_MOTION", "1")
    restore_prefs(state)
    assert dock.property("reducedMotion") is True


def test_renderer_statuses_are_the_protocols() -> None:
    """Every status the protocol can send has a glyph, a word and an accessible name in
    the renderer, and the renderer knows no other."""
    from typing import get_args

    from host.protocol.models import TodoStatus
    from ui.snapshots import STATUS_GLYPHS, STATUS_WORDS, Status, accessible_name

    assert set(get_args(Status)) == set(get_args(TodoStatus))
    for status in get_args(TodoStatus):
        assert STATUS_GLYPHS[status] and STATUS_WORDS[status]
        name = accessible_name(0, 1, Item("x", status))
        assert name == f"Step 1 of 1, {STATUS_WORDS[status]}: x"


def test_dock_rows_carry_the_glyph_of_their_status(qtbot) -> None:
    state, dock = shown_dock()
    statuses = ("pending", "in_progress", "completed", "cancelled")
    state.apply(ev.SnapshotArrived(Snapshot("a", 1, tuple(Item(s, s) for s in statuses))))  # type: ignore[arg-type]
    assert [r.glyph for r in dock.model.rows()] == ["○", "◐", "✓", "✕"]


def test_rows_change_by_row_whatever_the_lists(qtmodeltester) -> None:
    """Any list to any other: the model ends holding exactly the new rows, told by
    inserts, removals and changes in place (each checked by Qt's model tester as it
    happens), never by a reset."""
    from hypothesis import given, strategies as st

    from tests.helpers.budget import examples

    transcript = TranscriptModel()
    qtmodeltester.check(transcript)
    resets: list[int] = []
    transcript.modelReset.connect(lambda: resets.append(1))
    lists = st.lists(st.sampled_from("abcde"), max_size=8)

    @examples(300)
    @given(lists, lists)
    def change(before: list[str], after: list[str]) -> None:
        transcript.set_rows([Line("user", x) for x in before])
        transcript.set_rows([Line("user", x) for x in after])
        assert [r.text for r in transcript.rows()] == after
        assert transcript.rowCount() == len(after)

    change()
    assert resets == []
