"""One task tried by several agents as the window knows it (contract section 18's
attempts): each run's agent, how its turn stands, its checklist's progress, what it
changed, its usage and its check, as `attempts.changed` last told them. Plain values and
the words the attempt's view shows, no Qt, nothing of the host."""

from nib_desktop.state.facts import Progress, progress
from nib_desktop.state.tuples import NamedTuple
from nib_desktop.state.types import Snapshot

ENDS = {"completed": "done", "failed": "failed", "cancelled": "stopped"}
CHECK_WORDS = {
    "pending": "check waiting for the turn",
    "running": "check running",
    "passed": "check passed",
    "failed": "check failed",
    "error": "check could not run",
}


class Run(NamedTuple):
    session_id: str
    agent: str  # "nib": the host's own
    state: str  # its turn's: "running", "completed", "failed", "cancelled"; "" none yet
    error: str
    completed: int  # of its checklist
    total: int
    files: int  # its worktree against the base
    additions: int
    deletions: int
    usage: str  # in words ("" unknown)
    duration_ms: int | None
    check_state: str  # "" none asked; "pending", "running", "passed", "failed", "error"
    check_tail: str  # the end of its output
    check_exit: int | None = None  # its exit status, once it ended
    turn_id: str = ""  # of its latest turn, as the attempt told it ("" none yet)


class Attempt(NamedTuple):
    attempt_id: str
    text: str
    base: str
    runs: tuple[Run, ...]


class AttemptTold(NamedTuple):
    """The host told an attempt's state (`attempts.changed`, or read with `attempts.get`)."""

    attempt: Attempt


class CheckRecalled(NamedTuple):
    """The check command last given to an attempt on a repository (its `attempts.list`),
    offered again: `folder` as the user typed it, `command` as typed then ("" none)."""

    folder: str
    command: str


def any_running(attempt: Attempt) -> bool:
    """Whether any of the attempt's runs has its turn running."""
    return any(run.state == "running" for run in attempt.runs)


def turn_words(run: Run) -> str:
    """ "running", "done in 1 min 12 s", "failed: …", "not started"."""
    if run.state == "running":
        return "running"
    if run.state not in ENDS:
        return "not started"
    took = f" in {duration_words(run.duration_ms)}" if run.duration_ms is not None else ""
    failed = f": {run.error}" if run.state == "failed" and run.error else ""
    return f"{ENDS[run.state]}{took}{failed}"


def duration_words(ms: int) -> str:
    seconds = round(ms / 1000)
    if ms < 1000:
        return "<1 s"
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60} s"


def progress_of(run: Run, snapshot: Snapshot | None) -> Progress:
    """The run's checklist counted as its dock counts it (`facts.progress`) from its
    session's `snapshot` when the window holds one with steps: the steps shown beside the
    count come from there, told before the attempt's next count; else the attempt's."""
    if snapshot is not None and snapshot.items:
        return progress(snapshot.items)
    return Progress(run.completed, run.total)


def progress_words(counted: Progress) -> str:
    """ "3 / 5 steps", or "no checklist" when the run kept none."""
    return f"{counted.completed} / {counted.total} steps" if counted.total else "no checklist"


def change_words(run: Run) -> str:
    """ "4 files +12 -3" as the Changes view counts (its minus a sign), or "no changes"."""
    if not run.files:
        return "no changes"
    noun = "file" if run.files == 1 else "files"
    return f"{run.files} {noun} +{run.additions} −{run.deletions}"


def check_words(run: Run) -> str:
    """The check's state in words ("" when none was asked)."""
    words = CHECK_WORDS.get(run.check_state, "")
    failed = run.check_state == "failed" and run.check_exit is not None
    return f"{words} (exit status {run.check_exit})" if failed else words
