"""The renderer's own checklist types and the snapshot store. No Qt, no host imports.

The store keeps one snapshot per session id and applies a snapshot only when its revision
is greater than the one held, so a stale answer can never overwrite a newer notification.
Remote session ids are known to the store and are never recovered locally.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Status = Literal["pending", "in_progress", "completed", "cancelled"]


@dataclass(frozen=True)
class Item:
    content: str
    status: Status
    active_form: str | None = None


@dataclass(frozen=True)
class Snapshot:
    session_id: str
    revision: int
    items: tuple[Item, ...]


class SnapshotStore:
    """`request_recovery(session_id)` is called when a local session needs its snapshot
    from the host: when it is first shown, and for the shown session after a reconnect."""

    def __init__(self, request_recovery: Callable[[str], None]) -> None:
        self._request_recovery = request_recovery
        self._snapshots: dict[str, Snapshot] = {}
        self._remote: set[str] = set()
        self._recovered: set[str] = set()
        self._listeners: list[Callable[[str], None]] = []

    def on_change(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def get(self, session_id: str) -> Snapshot | None:
        return self._snapshots.get(session_id)

    def is_remote(self, session_id: str) -> bool:
        return session_id in self._remote

    def set_remote(self, session_ids: set[str]) -> None:
        self._remote = set(session_ids)

    def apply(self, snapshot: Snapshot) -> bool:
        """Keep `snapshot` if it is newer than the one held; return whether it was kept."""
        if snapshot.session_id in self._remote:
            return False
        held = self._snapshots.get(snapshot.session_id)
        if held is not None and snapshot.revision <= held.revision:
            return False
        self._snapshots[snapshot.session_id] = snapshot
        for listener in list(self._listeners):
            listener(snapshot.session_id)
        return True

    def shown(self, session_id: str) -> None:
        """A session became the one on screen: recover it once if it is local."""
        if session_id in self._remote or session_id in self._recovered:
            return
        self._recovered.add(session_id)
        self._request_recovery(session_id)

    def reconnected(self, shown_session_id: str | None) -> None:
        """After a reconnect every local snapshot may be stale: recover the shown one now,
        the others when they are next shown."""
        self._recovered.clear()
        if shown_session_id is not None:
            self.shown(shown_session_id)

    def forget(self, session_id: str) -> None:
        self._snapshots.pop(session_id, None)
        self._recovered.discard(session_id)
        self._remote.discard(session_id)


# --- what the dock shows: pure functions of a snapshot --------------------------------

ALL_DONE = "All steps completed"


@dataclass(frozen=True)
class Progress:
    completed: int
    total: int  # the work: every item but the cancelled ones

    @property
    def fraction(self) -> float:
        if self.total <= 0:
            return 1.0
        return max(0.0, min(1.0, self.completed / self.total))


def progress(snapshot: Snapshot) -> Progress:
    completed = sum(1 for item in snapshot.items if item.status == "completed")
    counted = sum(1 for item in snapshot.items if item.status != "cancelled")
    return Progress(completed, counted)


def running_index(snapshot: Snapshot) -> int:
    for index, item in enumerate(snapshot.items):
        if item.status == "in_progress":
            return index
    return -1


def current_step(snapshot: Snapshot) -> str:
    """The running item's activeForm (or content), else the next pending item, else
    'All steps completed'."""
    index = running_index(snapshot)
    if index >= 0:
        item = snapshot.items[index]
        return item.active_form or item.content
    for item in snapshot.items:
        if item.status == "pending":
            return item.content
    return ALL_DONE


def visible(snapshot: Snapshot | None) -> bool:
    return snapshot is not None and len(snapshot.items) > 0


STATUS_WORDS = {
    "pending": "pending",
    "in_progress": "in progress",
    "completed": "completed",
    "cancelled": "cancelled",
}


def accessible_name(index: int, total: int, item: Item, interrupted: bool) -> str:
    word = "interrupted" if interrupted else STATUS_WORDS[item.status]
    text = item.active_form if item.status == "in_progress" and item.active_form else item.content
    return f"Step {index + 1} of {total}, {word}: {text}"
