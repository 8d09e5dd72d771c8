"""The renderer's snapshot store and the dock's pure functions: no Qt needed."""

from __future__ import annotations

from ui.snapshots import (
    ALL_DONE,
    Item,
    Snapshot,
    SnapshotStore,
    accessible_name,
    current_step,
    progress,
    visible,
)


def snap(revision: int, *statuses: str, session: str = "a") -> Snapshot:
    return Snapshot(session, revision, tuple(Item(f"step {i}", s) for i, s in enumerate(statuses)))


def make_store() -> tuple[SnapshotStore, list[str]]:
    requests: list[str] = []
    return SnapshotStore(requests.append), requests


def test_only_newer_revisions_apply() -> None:
    store, _ = make_store()
    three, two, three_again = snap(3, "pending"), snap(2, "completed"), snap(3, "completed")
    assert store.apply(three) is True
    assert store.apply(two) is False
    assert store.apply(three_again) is False
    assert store.get("a") is three


def test_stale_recovery_answer_after_newer_notification_is_ignored() -> None:
    store, requests = make_store()
    store.shown("a")  # asks the host for the snapshot
    assert requests == ["a"]
    store.apply(snap(5, "completed"))  # a notification overtakes the answer
    assert store.apply(snap(4, "pending")) is False  # the answer, now stale
    assert store.get("a") == snap(5, "completed")


def test_remote_sessions_are_never_recovered_or_stored() -> None:
    store, requests = make_store()
    store.set_remote({"r"})
    store.shown("r")
    store.reconnected("r")
    assert requests == []
    assert store.apply(snap(1, "pending", session="r")) is False
    assert store.get("r") is None


def test_recovery_once_when_first_shown_and_again_after_reconnect() -> None:
    store, requests = make_store()
    store.shown("a")
    store.shown("a")
    store.shown("b")
    assert requests == ["a", "b"]
    store.reconnected("b")
    assert requests == ["a", "b", "b"]
    store.shown("a")  # stale after the reconnect: recovered when next shown
    assert requests == ["a", "b", "b", "a"]


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
    assert accessible_name(2, 7, item, False) == "Step 3 of 7, in progress: Writing tests"
    assert accessible_name(2, 7, item, True) == "Step 3 of 7, interrupted: Writing tests"
    assert accessible_name(0, 1, Item("x", "cancelled"), False) == "Step 1 of 1, cancelled: x"
