from __future__ import annotations

from ui.models import (
    SessionListModel,
    SessionRow,
    TodoDockModel,
    TodoListModel,
    TranscriptModel,
    TranscriptRow,
)
from ui.snapshots import Item, Snapshot, SnapshotStore


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
    store = SnapshotStore(lambda _sid: None)
    dock = TodoDockModel(store)
    dock.show_session("a", remote=False, running=True)
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
    store = SnapshotStore(lambda _sid: None)
    dock = TodoDockModel(store)
    dock.show_session("a", remote=False, running=True)
    store.apply(Snapshot("a", 1, (Item("Two", "in_progress", "Doing two"),)))
    with qtbot.waitSignal(dock.changed):
        dock.set_running(False)
    row = dock.items.rows()[0]
    assert row.interrupted and not row.sweeping
    assert row.accessibleName == "Step 1 of 1, interrupted: Doing two"


def test_reduced_motion_from_the_environment(monkeypatch) -> None:
    store = SnapshotStore(lambda _sid: None)
    assert TodoDockModel(store).property("reducedMotion") is False
    monkeypatch.setenv("NIB_REDUCED_MOTION", "1")
    assert TodoDockModel(store).property("reducedMotion") is True
