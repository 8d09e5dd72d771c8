"""The checklist's and the turn's facts, each computed here once for every view: progress,
where the work stands, what is unfinished, and how a turn ended (a typed kind, never
words matched). Pure functions of plain values; nothing of the rest of the state."""

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from nib_desktop.state.tuples import NamedTuple

ALL_DONE = "All steps completed"
UNFINISHED = ("pending", "in_progress")
ENDED_STATES = ("completed", "failed", "cancelled", "interrupted")  # the turn ended at its host
STATUS_GLYPHS = {
    "pending": "○",  # U+25CB
    "in_progress": "◐",  # U+25D0
    "completed": "✓",  # U+2713
    "cancelled": "✕",  # U+2715
}


class Step(Protocol):
    """A checklist item, as the facts read it."""

    @property
    def content(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def active_form(self) -> str | None: ...


class Progress(NamedTuple):
    completed: int
    total: int  # the work: every item but the cancelled ones

    @property
    def fraction(self) -> float:
        if self.total <= 0:
            return 1.0
        return max(0.0, min(1.0, self.completed / self.total))


def progress(items: Sequence[Step]) -> Progress:
    """(completed, steps that count): a cancelled step counts for neither."""
    completed = sum(1 for item in items if item.status == "completed")
    counted = sum(1 for item in items if item.status != "cancelled")
    return Progress(completed, counted)


def running_index(items: Sequence[Step]) -> int:
    """The step in progress, else -1."""
    for index, item in enumerate(items):
        if item.status == "in_progress":
            return index
    return -1


def focus_index(items: Sequence[Step]) -> int:
    """Where the work stands: the step in progress, else the first pending one, else -1."""
    for wanted in ("in_progress", "pending"):
        for index, item in enumerate(items):
            if item.status == wanted:
                return index
    return -1


def next_step(items: Sequence[Step]) -> str:
    """The content of the step the work stands at, else ""."""
    index = focus_index(items)
    return items[index].content if index >= 0 else ""


def current_step(items: Sequence[Step]) -> str:
    """The running item's activeForm (or content), else the next pending item, else
    'All steps completed'."""
    index = running_index(items)
    if index >= 0:
        return items[index].active_form or items[index].content
    for item in items:
        if item.status == "pending":
            return item.content
    return ALL_DONE


def unfinished(items: Sequence[Step]) -> bool:
    """Whether any step is still to do (pending, or in progress)."""
    return any(item.status in UNFINISHED for item in items)


class End(StrEnum):
    """How a turn stands, once it is no longer running; NONE while it runs or before any."""

    NONE = ""
    COMPLETED = "completed"
    STOPPED = "stopped"  # cancelled by the user
    INTERRUPTED = "interrupted"  # the host restarted under it
    FAILED = "failed"
    UNREACHABLE = "unreachable"  # a remote turn whose host went out of reach


def end_of(state: str) -> End:
    """A turn's state as its end."""
    match state:
        case "completed":
            return End.COMPLETED
        case "cancelled":
            return End.STOPPED
        case "failed":
            return End.FAILED
        case "interrupted":
            return End.INTERRUPTED
        case "unreachable":
            return End.UNREACHABLE
    return End.NONE


def ended(state: str) -> bool:
    """Whether the turn ended at its host ("unreachable" may still be running there)."""
    return state in ENDED_STATES


def left_word(end: End) -> str:
    """How a turn that is no longer running left a step in progress, in one word: its
    real end ("stopped", "failed", "interrupted" by a host restart…), "unfinished" when
    the turn ended as the agent chose with the step still in progress, or its end is not
    known."""
    if end in (End.STOPPED, End.UNREACHABLE, End.FAILED, End.INTERRUPTED):
        return end.value
    return "unfinished"
