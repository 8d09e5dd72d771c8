"""What the app shows outside its window, read from the state: the window title, the
launcher's badge, progress and urgency. Pure functions; `nib_desktop.outside.progress`
sends them."""

from __future__ import annotations

from nib_desktop.state import facts, store
from nib_desktop.state.record import Record
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Snapshot

APP = "Nib"
# the aspects of a change that can alter the title or the launcher (a transcript line,
# a draft, the tools cannot)
SHOWN_OUTSIDE = frozenset(
    {store.SESSIONS, store.CURRENT, store.CHECKLIST, store.APPROVALS, store.ATTENTION, store.PREFS}
)


def counts(snapshot: Snapshot | None) -> tuple[int, int]:
    """(completed, steps that count): a cancelled step counts for neither."""
    return facts.progress(snapshot.items) if snapshot is not None else (0, 0)


def waiting(state: AppState) -> frozenset[str]:
    """Sessions waiting for the user: an approval, or a turn's end not yet seen."""
    return frozenset(a.session_id for a in state.approvals) | state.unseen


def window_title(state: AppState) -> str:
    """ "(3/5) Title — Nib" while the shown session's turn runs, "● Title — Nib" while a
    tool call of it waits for approval, "Title — Nib" otherwise."""
    shown = state.shown
    if shown is None:
        return APP
    title = shown.title
    if not state.desktop.title_progress:
        return f"{title} — {APP}"
    if any(a.session_id == shown.session_id for a in state.approvals):
        return f"● {title} — {APP}"
    done, total = counts(state.snapshot(shown.session_id))
    if state.turn(shown.session_id).running and total:
        return f"({done}/{total}) {title} — {APP}"
    return f"{title} — {APP}"


class Launcher(Record):
    """The launcher entry's state: the progress of the shown session's running checklist,
    or of the only running one; urgent while an approval waits; the waiting sessions."""

    progress: float
    progress_visible: bool
    urgent: bool
    count: int


def launcher(state: AppState) -> Launcher:
    running = [s.session_id for s in state.sessions if state.turn(s.session_id).running]
    if state.current in running:
        chosen: str | None = state.current
    else:
        chosen = running[0] if len(running) == 1 else None
    done, total = counts(state.snapshot(chosen)) if chosen else (0, 0)
    return Launcher(
        progress=done / total if total else 0.0,
        progress_visible=bool(total),
        urgent=bool(state.approvals),
        count=len(waiting(state)),
    )
