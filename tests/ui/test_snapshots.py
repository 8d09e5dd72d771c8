"""The renderer's snapshot store and the dock's pure functions: no Qt needed."""

from __future__ import annotations

from ui.snapshots import (
    ALL_DONE,
    Item,
    Snapshot,
    SnapshotStore,
    TurnView,
    accessible_name,
    current_step,
    progress,
    visible,
)


def snap(revision: int, *statuses: str, session: str = "a") -> Snapshot:
    return Snapshot(session, revision, tuple(Item(f"step {i}", s) for i, s in enumerate(statuses)))


def make_store() -> tuple[SnapshotStore, list[str]]:
    store = SnapshotStore()
    heard: list[str] = []
    store.on_change(heard.append)
    return store, heard


def test_only_newer_revisions_apply() -> None:
    store, heard = make_store()
    three, two, three_again = snap(3, "pending"), snap(2, "completed"), snap(3, "completed")
    assert store.apply(three) is True
    assert store.apply(two) is False
    assert store.apply(three_again) is False
    assert store.get("a") is three
    assert heard == ["a"]


def test_a_stale_answer_after_a_newer_notification_is_ignored() -> None:
    store, _ = make_store()
    store.apply(snap(5, "completed"))  # a notification overtakes a todos.get answer
    assert store.apply(snap(4, "pending")) is False  # the answer, now stale
    assert store.get("a") == snap(5, "completed")


def test_turn_state_and_snapshot_in_either_order_give_the_same_entry() -> None:
    """The dock derives from (snapshot, turn): the order they arrive in does not matter."""
    first, second = SnapshotStore(), SnapshotStore()
    snapshot, ended = snap(2, "in_progress"), TurnView("a", "cancelled")
    first.apply(snapshot)
    first.set_turn(ended)
    second.set_turn(ended)
    second.apply(snapshot)
    assert (first.get("a"), first.turn("a")) == (second.get("a"), second.turn("a"))
    assert first.turn("b") == TurnView("b", "idle") and not first.turn("b").running


def test_forget_drops_the_session() -> None:
    store, _ = make_store()
    store.apply(snap(1, "pending"))
    store.set_turn(TurnView("a", "running"))
    store.forget("a")
    assert store.get("a") is None and store.turn("a").state == "idle"
    assert store.apply(snap(1, "pending")) is True  # a new life starts from revision 0


def test_sessions_are_kept_apart_and_listeners_hear_which() -> None:
    store, _ = make_store()
    heard: list[str] = []
    store.on_change(heard.append)
    store.apply(snap(1, "pending", session="a"))
    store.apply(snap(1, "completed", session="b"))
    assert heard == ["a", "b"]
    assert store.get("a") != store.get("b")


def test_progress_ignores_cancelled_and_stays_in_bounds() -> None:
    p = progress(snap(1, "completed", "cancelled", "pending", "in_progress"))
    assert (p.completed, p.total) == (1, 3)
    assert p.fraction == 1 / 3
    assert progress(snap(1, "cancelled", "cancelled")).fraction == 1.0
    assert progress(snap(1, "completed", "completed")).fraction == 1.0


def test_current_step() -> None:
    running = Snapshot("a", 1, (Item("Write", "completed"), Item("Test", "in_progress", "Testing")))
    assert current_step(running) == "Testing"
    bare = Snapshot("a", 1, (Item("Test", "in_progress"),))
    assert current_step(bare) == "Test"
    assert current_step(snap(1, "completed", "pending", "pending")) == "step 1"
    assert current_step(snap(1, "completed", "cancelled")) == ALL_DONE


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

    snap = Snapshot("s", 3, (Item("A", "completed"), Item("B", "in_progress", "Doing B"),
                             Item("C", "pending"), Item("D", "cancelled")))  # fmt: skip
    cases = {
        TurnView("s", "running"): ("Doing B", "running", False),
        TurnView("s", "cancelled"): ("Stopped at 1 / 3 · B", "ended", True),
        TurnView("s", "failed", "host restarted"): (
            "Interrupted at 1 / 3 · B · the host restarted", "ended", True),
        TurnView("s", "failed", "model endpoint unreachable: refused"): (
            "Failed at 1 / 3 · B · model endpoint unreachable: refused", "ended", True),
        TurnView("s", "completed"): ("Turn ended at 1 / 3 · B", "ended", True),
        TurnView("s", "unreachable", "Connection refused"): (
            "Unreachable at 1 / 3 · B · the turn may still be running on the remote host",
            "ended", True),
        TurnView("s"): ("Doing B", "idle", False),
    }  # fmt: skip
    for turn, (text, tone, counted) in cases.items():
        line = headline(snap, turn)
        assert (line.text, line.tone, line.counted) == (text, tone, counted), turn
    finished = Snapshot("s", 4, (Item("A", "completed"), Item("D", "cancelled")))
    for turn in cases:
        assert headline(finished, turn).text == "All steps completed"
    # nothing in progress after a stop: the next pending step is where it stands
    paused = Snapshot("s", 5, (Item("A", "completed"), Item("C", "pending")))
    assert headline(paused, TurnView("s", "cancelled")).text == "Stopped at 1 / 2 · C"
