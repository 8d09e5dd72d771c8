"""The sidebar's rows: each session with what says whether it needs the user: its
checklist's progress while its turn runs, how its last turn ended when it did not
finish, a mark for a turn that finished while the user was elsewhere, and one for an
approval waiting. Pure functions of the state; no Qt."""

from pathlib import Path

from nib_desktop.state import facts, store
from nib_desktop.state.store import AppState
from nib_desktop.state.tuples import NamedTuple
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


def group_of(session: Session, repos: frozenset[str]) -> str:
    """The group a session is listed in: its attempt's ("attempt:ID"), else its
    repository's ("repo:PATH": a worktree of it, or a folder inside it), else none."""
    if session.attempt:
        return f"attempt:{session.attempt}"
    if session.remote:  # a folder on another machine: not this machine's repository
        return ""
    repo = session.repo or next(
        (r for r in repos if session.cwd == r or session.cwd.startswith(r.rstrip("/") + "/")), ""
    )
    return f"repo:{repo}" if repo else ""


def grouped(state: AppState) -> list[tuple[Session, str]]:
    """The sessions in the sidebar's order, each with its group: newest first, the
    sessions of one group together where its newest would be. An attempt's runs are
    one group; so are the sessions of one repository that has sessions in worktrees of
    it (each worktree with its branch), where they are more than one."""
    repos = frozenset(s.repo for s in state.sessions if s.repo and not (s.attempt or s.remote))
    members: dict[str, list[Session]] = {}  # each group's sessions, in the list's order
    for session in state.sessions:
        members.setdefault(group_of(session, repos), []).append(session)
    lone = {key for key, held in members.items() if key.startswith("repo:") and len(held) < 2}
    out: list[tuple[Session, str]] = []
    for session in state.sessions:  # one pass: a group's sessions where its first stands
        key = group_of(session, repos)
        if not key or key in lone:
            out.append((session, ""))
        elif key in members:
            out += [(member, key) for member in members.pop(key)]
    return out


def ordered(state: AppState) -> list[Session]:
    return [session for session, _group in grouped(state)]


def heading(state: AppState, key: str, count: int) -> str:
    """A group's heading in the sidebar: an attempt's task, or a repository's name."""
    kind, _, name = key.partition(":")
    if kind == "repo":
        return f"Repository {name.rstrip('/').rsplit('/', 1)[-1]} · {count} sessions"
    told = state.attempts.get(name)
    task = " ".join(told.text.split())[:80] if told is not None else "one task"
    return f"Tried by {count} agents: {task}" if count != 1 else f"Tried: {task}"


def rows(state: AppState) -> list[SidebarRow]:
    waiting = frozenset(a.session_id for a in state.approvals)
    sessions = grouped(state)
    counts: dict[str, int] = {}
    for _session, key in sessions:
        counts[key] = counts.get(key, 0) + 1
    made: list[SidebarRow] = []
    headed: set[str] = set()
    for session, key in sessions:
        line = row(state, session, waiting)
        if key:
            first = key not in headed
            headed.add(key)
            group = heading(state, key, counts[key]) if first else ""
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


def last_folder(state: AppState, agent: str) -> str:
    """The folder a new agent session is offered: where the newest local session of that
    agent was made, else of any agent (a worktree's session: its repository), home
    written as "~"; "~" when there is none. Read from the sessions, so it outlives a
    restart."""
    local = [s for s in state.sessions if not s.remote and (s.repo or s.cwd)]
    same = [s for s in local if s.agent == agent] or [s for s in local if s.agent]
    if not same:
        return "~"
    newest = max(same, key=lambda s: s.order[1])
    where, home = Path(newest.repo or newest.cwd), Path.home()
    if not where.is_relative_to(home):
        return str(where)
    return str(Path("~") / where.relative_to(home))
