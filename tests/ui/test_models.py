from __future__ import annotations

from ui.models import (
    SessionListModel,
    SessionRow,
    TodoDockModel,
    TodoListModel,
    TranscriptModel,
    TranscriptRow,
)
from ui.snapshots import Item, Snapshot, SnapshotStore, TurnView


def test_session_and_transcript_models(qtmodeltester) -> None:
    sessions = SessionListModel()
    sessions.set_rows(
        [
            SessionRow("a", "A", "agent", False, True, ""),
            SessionRow("b", "B", "plan", True, False, "a"),
        ]
    )
    qtmodeltester.check(sessions)
    transcript = TranscriptModel()
    transcript.set_rows(
        [TranscriptRow("user", "hi", False), TranscriptRow("tool_result", "x", True)]
    )
    qtmodeltester.check(transcript)


def test_todo_model_through_the_dock(qtmodeltester, qtbot) -> None:
    store = SnapshotStore()
    dock = TodoDockModel(store)
    store.set_turn(TurnView("a", "running"))
    dock.show_session("a")
    items = dock.items
    assert isinstance(items, TodoListModel)
    qtmodeltester.check(items)
    with qtbot.waitSignal(items.modelReset):
        store.apply(
            Snapshot("a", 1, (Item("One", "completed"), Item("Two", "in_progress", "Doing two")))
        )
    qtmodeltester.check(items)
    assert [r.sweeping for r in items.rows()] == [False, True]
    # same length: only the changed rows are signalled, no reset
    with qtbot.assertNotEmitted(items.modelReset), qtbot.waitSignal(items.dataChanged) as changed:
        store.apply(Snapshot("a", 2, (Item("One", "completed"), Item("Two", "completed"))))
    assert changed.args[0].row() == 1 and changed.args[1].row() == 1
    assert dock.property("completed") == 2 and dock.property("currentStep") == "All steps completed"


def test_dock_marks_interrupted_when_the_turn_ends(qtbot) -> None:
    store = SnapshotStore()
    dock = TodoDockModel(store)
    store.set_turn(TurnView("a", "running"))
    dock.show_session("a")
    store.apply(Snapshot("a", 1, (Item("Two", "in_progress", "Doing two"),)))
    with qtbot.waitSignal(dock.changed):
        store.set_turn(TurnView("a", "cancelled"))
    row = dock.items.rows()[0]
    assert row.interrupted and not row.sweeping
    assert row.accessibleName == "Step 1 of 1, stopped: Doing two" and row.endedWord == "stopped"
    assert dock.property("currentStep") == "Stopped at 0 / 1 · Two"
    assert dock.property("tone") == "ended" and dock.property("countInText")


def test_reduced_motion_from_the_environment(monkeypatch) -> None:
    store = SnapshotStore()
    assert TodoDockModel(store).property("reducedMotion") is False
    monkeypatch.setenv("NIB_REDUCED_MOTION", "1")
    assert TodoDockModel(store).property("reducedMotion") is True


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
    store = SnapshotStore()
    dock = TodoDockModel(store)
    dock.show_session("a")
    statuses = ("pending", "in_progress", "completed", "cancelled")
    store.apply(Snapshot("a", 1, tuple(Item(s, s) for s in statuses)))  # type: ignore[arg-type]
    assert [r.glyph for r in dock.items.rows()] == ["○", "◐", "✓", "✕"]
