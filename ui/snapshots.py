"""What the dock shows, as pure functions of a checklist snapshot and its turn: no Qt,
no I/O. The types are the state's (`nib_desktop.state.types`)."""

from typing import Literal

from nib_desktop.state import facts
from nib_desktop.state.facts import ALL_DONE, STATUS_GLYPHS, End
from nib_desktop.state.tuples import NamedTuple
from nib_desktop.state.types import Item, Session, Snapshot, Status, TurnView

__all__ = ["ALL_DONE", "STATUS_GLYPHS", "Item", "Snapshot", "TurnView"]


def visible(snapshot: Snapshot | None) -> bool:
    return snapshot is not None and len(snapshot.items) > 0


Tone = Literal["running", "ended", "done", "idle"]


class Headline(NamedTuple):
    """The dock's one line: its text, whether it includes the count itself, and its tone
    (the glyph's colour and whether anything may move)."""

    text: str
    tone: Tone
    counted: bool  # the text carries "2 / 5" itself, so the count is not shown apart


def headline(snapshot: Snapshot, turn: TurnView) -> Headline:
    """What the collapsed dock says, true to the turn: nothing reads as running unless
    the turn runs."""
    items = snapshot.items
    step = facts.next_step(items)
    if not step:  # the count leaves cancelled steps out: said, so it matches the rows
        cancelled = sum(1 for item in items if item.status == "cancelled")
        return Headline(
            ALL_DONE + (f" · {cancelled} cancelled" if cancelled else ""), "done", False
        )
    if turn.running:
        if facts.running_index(items) < 0:  # between steps: the next one has not begun
            return Headline(f"Next: {step}", "running", False)
        return Headline(facts.current_step(items), "running", False)
    done = facts.progress(items)
    at = f"{done.completed} / {done.total} · {step}"
    match turn.end:
        case End.STOPPED:
            return Headline(f"Stopped at {at}", "ended", True)
        case End.UNREACHABLE:
            words = f"Unreachable at {at} · the turn may still be running on the remote host"
            return Headline(words, "ended", True)
        case End.INTERRUPTED:
            return Headline(f"Interrupted at {at} · the host restarted", "ended", True)
        case End.FAILED:
            return Headline(f"Failed at {at} · {turn.error or 'no reason given'}", "ended", True)
        case End.COMPLETED:
            return Headline(f"Turn ended at {at}", "ended", True)
    return Headline(facts.current_step(items), "idle", False)


STATUS_WORDS: dict[Status, str] = {
    "pending": "pending",
    "in_progress": "in progress",
    "completed": "completed",
    "cancelled": "cancelled",
}


def accessible_name(index: int, total: int, item: Item, ended: str = "") -> str:
    """`ended`: the word for an in-progress step whose turn ended ("stopped", ...)."""
    word = ended or STATUS_WORDS[item.status]
    text = item.active_form if item.status == "in_progress" and item.active_form else item.content
    return f"Step {index + 1} of {total}, {word}: {text}"


class TodoRow(NamedTuple):
    """One row of the dock's list, under QML's role names."""

    content: str
    status: str
    glyph: str
    activeForm: str
    number: int
    accessibleName: str
    interrupted: bool  # in progress, but its turn ended
    endedWord: str  # then how: "stopped", "interrupted", "failed"
    sweeping: bool
    filesText: str = ""  # "3 files" the step changed in the folder, "" when none or not known
    askedText: str = ""  # what the user's held asks ask of it ("Asked: skip"), "" none


def files_text(n: int) -> str:
    return "" if n <= 0 else "1 file" if n == 1 else f"{n:,} files"


def todo_rows(
    snapshot: Snapshot | None, turn: TurnView, live: bool, files: dict[str, int] | None = None
) -> list[TodoRow]:
    """The dock's rows: a step in progress sweeps while its turn runs, and says how the
    turn ended when it no longer does; with `files`, how many files each step changed.
    A past revision (`live` False) is only shown."""
    files = files or {}
    items = snapshot.items if snapshot is not None else ()
    running = turn.running and live
    word = facts.left_word(turn.end)
    rows = []
    for index, item in enumerate(items):
        in_progress = item.status == "in_progress"
        ended = word if in_progress and not running and live else ""
        changed = files_text(files.get(item.content, 0)) if live else ""
        rows.append(
            TodoRow(
                content=item.content,
                status=item.status,
                glyph=STATUS_GLYPHS[item.status],
                activeForm=item.active_form or "",
                number=index + 1,
                accessibleName=accessible_name(index, len(items), item, ended)
                + (f", {changed} changed" if changed else ""),
                interrupted=ended != "",
                endedWord=ended,
                sweeping=in_progress and running,
                filesText=changed,
            )
        )
    return rows


def completed_between(before: Snapshot | None, after: Snapshot | None) -> list[str]:
    """What to announce of the steps that became completed between two snapshots of one
    session: each in words, or their number when more than three."""
    if before is None or after is None or before.session_id != after.session_id:
        return []
    done_before = {i.content for i in before.items if i.status == "completed"}
    newly = [
        (index, item)
        for index, item in enumerate(after.items)
        if item.status == "completed" and item.content not in done_before
    ]
    if len(newly) > 3:
        return [f"Completed {len(newly)} steps"]
    total = len(after.items)
    return [f"Completed step {i + 1} of {total}: {item.content}" for i, item in newly]


def checklist_note(session: Session, snapshot: Snapshot | None, turn: TurnView) -> str:
    """Why the dock shows no checklist for `session`, or "": a remote host that does not
    share it, or an external agent that sent no plan in a turn that ended (some agents
    never do): said, rather than an empty dock."""
    if session.checklist_note:
        return session.checklist_note
    never_planned = snapshot is None or snapshot.revision == 0
    if session.agent and never_planned and turn.ended:
        return f"{session.agent} shares no checklist: it sent no plan in this session."
    return ""
