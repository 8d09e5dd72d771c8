"""The renderer's own checklist types and its store. No Qt, no host imports.

The store is a cache the Main role fills, nothing more: per session id, the newest
checklist snapshot (a snapshot is kept only when its revision is greater than the one
held, so a stale answer can never overwrite a newer notification) and the state of the
session's turn. The dock derives everything it shows from that one entry, so what it says
does not depend on the order in which the two arrived. The store never asks for anything:
when a snapshot is fetched is the Main role's policy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Status = Literal["pending", "in_progress", "completed", "cancelled"]
# "unreachable": a remote session's turn was running when its host went out of reach
TurnState = Literal["idle", "running", "completed", "failed", "cancelled", "unreachable"]


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


@dataclass(frozen=True)
class TurnView:
    """The session's latest turn as the window tells it: "idle" before any turn."""

    session_id: str
    state: TurnState = "idle"
    error: str = ""

    @property
    def running(self) -> bool:
        return self.state == "running"


@dataclass(frozen=True)
class Revision:
    """One committed revision of a checklist as the History view shows it."""

    revision: int
    turn_id: str  # "" when written outside a turn (the history's baseline)
    time: str  # local HH:MM
    items: tuple[Item, ...]
    summary: str  # what changed against the revision before, in one line
    warning: bool  # items were dropped unfinished (the summary says so in words)


class SnapshotStore:
    def __init__(self) -> None:
        self._snapshots: dict[str, Snapshot] = {}
        self._turns: dict[str, TurnView] = {}
        self._listeners: list[Callable[[str], None]] = []

    def on_change(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def get(self, session_id: str) -> Snapshot | None:
        return self._snapshots.get(session_id)

    def turn(self, session_id: str) -> TurnView:
        return self._turns.get(session_id) or TurnView(session_id)

    def apply(self, snapshot: Snapshot) -> bool:
        """Keep `snapshot` if it is newer than the one held; return whether it was kept."""
        held = self._snapshots.get(snapshot.session_id)
        if held is not None and snapshot.revision <= held.revision:
            return False
        self._snapshots[snapshot.session_id] = snapshot
        self._changed(snapshot.session_id)
        return True

    def set_turn(self, turn: TurnView) -> None:
        if self._turns.get(turn.session_id) != turn:
            self._turns[turn.session_id] = turn
            self._changed(turn.session_id)

    def forget(self, session_id: str) -> None:
        self._snapshots.pop(session_id, None)
        self._turns.pop(session_id, None)

    def _changed(self, session_id: str) -> None:
        for listener in list(self._listeners):
            listener(session_id)


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


HOST_RESTARTED = "host restarted"  # the error the host gives turns it found running at start

Tone = Literal["running", "ended", "done", "idle"]


@dataclass(frozen=True)
class Headline:
    """The dock's one line: its text, whether it includes the count itself, and its tone
    (the glyph's colour and whether anything may move)."""

    text: str
    tone: Tone
    counted: bool  # the text carries "2 / 5" itself, so the count is not shown apart


def focus_index(snapshot: Snapshot) -> int:
    """Where the work stands: the step in progress, else the first pending one, else -1."""
    for wanted in ("in_progress", "pending"):
        for index, item in enumerate(snapshot.items):
            if item.status == wanted:
                return index
    return -1


def next_step(snapshot: Snapshot) -> str:
    """The content of the step the work stands at, else ""."""
    index = focus_index(snapshot)
    return snapshot.items[index].content if index >= 0 else ""


def ended_word(turn: TurnView) -> str:
    """How a turn that is no longer running ended, in one word for a step it left."""
    if turn.state == "cancelled":
        return "stopped"
    if turn.state == "unreachable":
        return "unreachable"
    if turn.state == "failed":
        return "interrupted" if turn.error == HOST_RESTARTED else "failed"
    return "interrupted"


def headline(snapshot: Snapshot, turn: TurnView) -> Headline:
    """What the collapsed dock says, true to the turn: nothing reads as running unless
    the turn runs."""
    done = progress(snapshot)
    step = next_step(snapshot)
    if not step:
        return Headline(ALL_DONE, "done", False)
    if turn.running:
        return Headline(current_step(snapshot), "running", False)
    at = f"{done.completed} / {done.total} · {step}"
    if turn.state == "cancelled":
        return Headline(f"Stopped at {at}", "ended", True)
    if turn.state == "unreachable":
        return Headline(
            f"Unreachable at {at} · the turn may still be running on the remote host",
            "ended",
            True,
        )
    if turn.state == "failed" and turn.error == HOST_RESTARTED:
        return Headline(f"Interrupted at {at} · the host restarted", "ended", True)
    if turn.state == "failed":
        return Headline(f"Failed at {at} · {turn.error or 'no reason given'}", "ended", True)
    if turn.state == "completed":
        return Headline(f"Turn ended at {at}", "ended", True)
    return Headline(current_step(snapshot), "idle", False)


STATUS_WORDS: dict[Status, str] = {
    "pending": "pending",
    "in_progress": "in progress",
    "completed": "completed",
    "cancelled": "cancelled",
}
STATUS_GLYPHS: dict[Status, str] = {
    "pending": "○",  # U+25CB
    "in_progress": "◐",  # U+25D0
    "completed": "✓",  # U+2713
    "cancelled": "✕",  # U+2715
}


def accessible_name(index: int, total: int, item: Item, ended: str = "") -> str:
    """`ended`: the word for an in-progress step whose turn ended ("stopped", ...)."""
    word = ended or STATUS_WORDS[item.status]
    text = item.active_form if item.status == "in_progress" and item.active_form else item.content
    return f"Step {index + 1} of {total}, {word}: {text}"
