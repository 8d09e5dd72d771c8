"""The dock's pure functions: no Qt needed."""

from __future__ import annotations

from host.protocol import plain_models as m
from nib_desktop.inbound import convert
from nib_desktop.state.facts import ALL_DONE, End, current_step, end_of, progress
from ui.snapshots import Item, Snapshot, accessible_name, visible


def snap(revision: int, *statuses: str, session: str = "a") -> Snapshot:
    return Snapshot(session, revision, tuple(Item(f"step {i}", s) for i, s in enumerate(statuses)))


def test_progress_ignores_cancelled_and_stays_in_bounds() -> None:
    p = progress(snap(1, "completed", "cancelled", "pending", "in_progress").items)
    assert (p.completed, p.total) == (1, 3)
    assert p.fraction == 1 / 3
    assert progress(snap(1, "cancelled", "cancelled").items).fraction == 1.0
    assert progress(snap(1, "completed", "completed").items).fraction == 1.0


def wire_turn(state: m.TurnState, error: str | None) -> m.Turn:
    return m.Turn(id="t", session_id="s", state=state, error=error, started_at="", finished_at=None)


def test_a_turns_end_is_typed_once_where_it_arrives() -> None:
    assert convert.turn(wire_turn("failed", m.HOST_RESTARTED)).end is End.INTERRUPTED
    assert convert.turn(wire_turn("failed", "the host restarted twice")).end is End.FAILED
    assert convert.turn(wire_turn("cancelled", None)).end is End.STOPPED
    assert convert.turn(wire_turn("completed", None)).end is End.COMPLETED
    assert end_of("unreachable") is End.UNREACHABLE
    assert end_of("running") is End.NONE and end_of("idle") is End.NONE
    # past the wire, the end is the state: the error's words are never read again
    assert end_of("failed") is End.FAILED and end_of("interrupted") is End.INTERRUPTED


def test_current_step() -> None:
    running = Snapshot("a", 1, (Item("Write", "completed"), Item("Test", "in_progress", "Testing")))
    assert current_step(running.items) == "Testing"
    bare = Snapshot("a", 1, (Item("Test", "in_progress"),))
    assert current_step(bare.items) == "Test"
    assert current_step(snap(1, "completed", "pending", "pending").items) == "step 1"
    assert current_step(snap(1, "completed", "cancelled").items) == ALL_DONE


def test_visibility() -> None:
    assert visible(None) is False
    assert visible(snap(3)) is False  # an empty checklist hides the dock
    assert visible(snap(3, "pending")) is True


def test_accessible_name() -> None:
    item = Item("Write tests", "in_progress", "Writing tests")
    assert accessible_name(2, 7, item) == "Step 3 of 7, in progress: Writing tests"
    assert accessible_name(2, 7, item, "interrupted") == "Step 3 of 7, interrupted: Writing tests"
    assert accessible_name(0, 1, Item("x", "cancelled")) == "Step 1 of 1, cancelled: x"


def test_the_headline_tells_how_the_turn_ended() -> None:
    from ui.snapshots import TurnView, headline

    snap = Snapshot(
        "s",
        3,
        (
            Item("A", "completed"),
            Item("B", "in_progress", "Doing B"),
            Item("C", "pending"),
            Item("D", "cancelled"),
        ),
    )
    cases = {
        TurnView("s", "running"): ("Doing B", "running", False),
        TurnView("s", "cancelled"): ("Stopped at 1 / 3 · B", "ended", True),
        TurnView("s", "interrupted", "host restarted"): (
            "Interrupted at 1 / 3 · B · the host restarted",
            "ended",
            True,
        ),
        TurnView("s", "failed", "model endpoint unreachable: refused"): (
            "Failed at 1 / 3 · B · model endpoint unreachable: refused",
            "ended",
            True,
        ),
        TurnView("s", "completed"): ("Turn ended at 1 / 3 · B", "ended", True),
        TurnView("s", "unreachable", "Connection refused"): (
            "Unreachable at 1 / 3 · B · the turn may still be running on the remote host",
            "ended",
            True,
        ),
        TurnView("s"): ("Doing B", "idle", False),
    }
    for turn, (text, tone, counted) in cases.items():
        line = headline(snap, turn)
        assert (line.text, line.tone, line.counted) == (text, tone, counted), turn
    finished = Snapshot("s", 4, (Item("A", "completed"), Item("D", "cancelled")))
    for turn in cases:
        assert headline(finished, turn).text == "All steps completed · 1 cancelled"
    # nothing in progress after a stop: the next pending step is where it stands
    paused = Snapshot("s", 5, (Item("A", "completed"), Item("C", "pending")))
    assert headline(paused, TurnView("s", "cancelled")).text == "Stopped at 1 / 2 · C"
    # between two steps of a running turn the next one is not shown as running
    between = headline(paused, TurnView("s", "running"))
    assert (between.text, between.tone) == ("Next: C", "running")


def test_rows_of_a_live_list_and_of_a_past_revision() -> None:
    from ui.snapshots import TodoRow, TurnView, todo_rows

    snap = Snapshot("s", 3, (Item("A", "completed"), Item("B", "in_progress", "Doing B")))
    running = todo_rows(snap, TurnView("s", "running"), live=True)
    assert [(r.sweeping, r.interrupted) for r in running] == [(False, False), (True, False)]
    stopped = todo_rows(snap, TurnView("s", "cancelled"), live=True)[1]
    assert stopped == TodoRow(
        "B",
        "in_progress",
        "◐",
        "Doing B",
        2,
        "Step 2 of 2, stopped: Doing B",
        True,
        "stopped",
        False,
    )
    past = todo_rows(snap, TurnView("s", "running"), live=False)[1]  # read-only: nothing moves
    assert not past.sweeping and not past.interrupted and past.endedWord == ""


def test_completed_steps_are_announced_each_or_counted() -> None:
    from ui.snapshots import completed_between

    before = snap(1, "pending", "pending", "pending", "pending", "pending")
    one = snap(2, "completed", "pending", "pending", "pending", "pending")
    assert completed_between(before, one) == ["Completed step 1 of 5: step 0"]
    assert completed_between(before, snap(3, *["completed"] * 5)) == ["Completed 5 steps"]
    assert completed_between(None, one) == []
    assert completed_between(snap(1, "pending", session="b"), one) == []
