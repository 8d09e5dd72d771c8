"""The sidebar's rows: each session with what says whether it needs the user: its
checklist's progress while its turn runs, how its last turn ended when it did not
finish, a mark for a turn that finished while the user was elsewhere, and one for an
approval waiting. Pure functions of the state; no Qt."""

from __future__ import annotations

from typing import NamedTuple

from nib_desktop.state import facts, store
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session
from nib_desktop.state.worktrees import WorktreeView

# the aspects of a change that can alter a row
SIDEBAR = frozenset(
    {store.SESSIONS, store.CURRENT, store.CHECKLIST, store.APPROVALS, store.ATTENTION}
)
END = facts.End
END_WORDS = {END.STOPPED: "stopped", END.FAILED: "failed", END.INTERRUPTED: "interrupted",
             END.UNREACHABLE: "unreachable"}  # fmt: skip


class SidebarRow(NamedTuple):
    session_id: str
    title: str
    mode: str
    remote: bool
    running: bool
    parent_id: str
    remote_state: str
    agent: str
    folder: str
    progress: str  # "3/5" while its turn runs with a checklist, else ""
    ended: str  # "stopped", "failed", … when its last turn did not finish, else ""
    unseen: bool  # its turn ended while the user was elsewhere
    waiting: bool  # a tool call of it waits for the user's approval
    accessible: str  # all of it in words, for a screen reader
    # the runs of one attempt are listed together (section 18): the first carries the
    # group's heading ("Tried by 3 agents: …"), every one of them is indented
    group: str = ""
    grouped: bool = False


def row(state: AppState, session: Session, waiting: frozenset[str]) -> SidebarRow:
    sid = session.session_id
    turn = state.turn(sid)
    progress = ""
    snapshot = state.snapshot(sid)
    if session.running and snapshot is not None:
        done, total = facts.progress(snapshot.items)
        progress = f"{done}/{total}" if total else ""
    ended = "" if session.running else END_WORDS.get(turn.end, "")
    unseen = sid in state.unseen
    words = [session.title]
    if session.mode != "agent":
        words.append(session.mode)
    if session.remote:
        words.append(
            "remote" + (f" {session.remote_state}" if session.remote_state != "connected" else "")
        )
    if session.agent:
        words.append(f"{session.agent} in {session.folder}")
    place = session.folder
    if session.branch:
        told = state.worktrees.get(sid)
        place = f"⎇ {session.branch}" + (_against(told, short=True) if told else "")
        words.append(f"on its own branch {session.branch}" + (_against(told) if told else ""))
    if session.attempt:
        words.append("a run of a task tried by several agents")
    if session.running:
        words.append(
            f"running, {progress.replace('/', ' of ')} steps done" if progress else "running"
        )
    if ended:
        words.append(f"its last turn {ended}")
    if unseen:
        words.append("finished, not seen")
    if sid in waiting:
        words.append("waits for your approval")
    if sid == state.current:
        words.append("shown")
    return SidebarRow(
        sid,
        session.title,
        session.mode,
        session.remote,
        session.running,
        session.parent_id,
        session.remote_state,
        session.agent,
        place,
        progress,
        ended,
        unseen,
        sid in waiting,
        ", ".join(words),
    )


def ordered(state: AppState) -> list[Session]:
    """The sessions in the sidebar's order: newest first, the runs of one attempt together
    where its newest run would be."""
    runs: dict[str, list[Session]] = {}  # each attempt's runs, in the list's order
    for session in state.sessions:
        if session.attempt:
            runs.setdefault(session.attempt, []).append(session)
    out: list[Session] = []
    for session in state.sessions:  # one pass: an attempt's runs where its first stands
        if not session.attempt:
            out.append(session)
        elif session.attempt in runs:
            out += runs.pop(session.attempt)
    return out


def heading(state: AppState, attempt_id: str, runs: int) -> str:
    """An attempt's group heading in the sidebar."""
    told = state.attempts.get(attempt_id)
    task = " ".join(told.text.split())[:80] if told is not None else "one task"
    return f"Tried by {runs} agents: {task}" if runs != 1 else f"Tried: {task}"


def rows(state: AppState) -> list[SidebarRow]:
    waiting = frozenset(a.session_id for a in state.approvals)
    sessions = ordered(state)
    runs: dict[str, int] = {}
    for session in sessions:
        if session.attempt:
            runs[session.attempt] = runs.get(session.attempt, 0) + 1
    made: list[SidebarRow] = []
    headed: set[str] = set()
    for session in sessions:
        line = row(state, session, waiting)
        if session.attempt:
            first = session.attempt not in headed
            headed.add(session.attempt)
            group = heading(state, session.attempt, runs[session.attempt]) if first else ""
            line = line._replace(group=group, grouped=True)
        made.append(line)
    return made


def adjacent(state: AppState, step: int) -> str | None:
    """The session `step` rows below (negative: above) the one shown, in the sidebar's
    order; it stops at either end. None when there is no session."""
    ids = [s.session_id for s in ordered(state)]
    if not ids:
        return None
    here = ids.index(state.current) if state.current in ids else -1
    return ids[max(0, min(len(ids) - 1, here + step)) if here >= 0 else 0]


def _against(told: WorktreeView, short: bool = False) -> str:
    """ " ↑2 ↓1 · uncommitted changes · 1 conflict with its base": how a worktree stands
    against its base (`short`: as the row shows it, "↑2 ↓1 · changed · ⚠ 1 conflict")."""
    parts = [f" ↑{told.ahead} ↓{told.behind}"]
    if told.dirty:
        parts.append(" · changed" if short else " · uncommitted changes")
    if told.conflicts:
        n = len(told.conflicts)
        many = f"{n} conflict{'' if n == 1 else 's'}"
        parts.append(f" · ⚠ {many}" if short else f" · {many} with its base")
    return "".join(parts)
