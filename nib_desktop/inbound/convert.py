"""From the contract's models to the window's state: the one place the Main role turns
host shapes into what the views know (`nib_desktop.state.types`). Outside text is made
safe to display here, once."""

from __future__ import annotations

from pathlib import Path

from host.protocol import plain_models as m
from host.protocol.remote import parse_endpoint
from host.protocol.text import run_names, shorten, shown_text
from nib_desktop.inbound import activity
from nib_desktop.inbound.checklist_lines import todo_line
from nib_desktop.inbound.line_text import tool_name
from nib_desktop.inbound.tools_and_controls import usage_words
from nib_desktop.state import intents as it
from nib_desktop.state.attempts import Attempt, Run
from nib_desktop.state.tool_types import AgentOption, Approval
from nib_desktop.state.types import (
    AgentChoice,
    Item,
    Revision,
    Session,
    Snapshot,
    TurnState,
    TurnView,
)
from nib_desktop.state.worktrees import WorktreeView


def snapshot(s: m.TodoSnapshot) -> Snapshot:
    return Snapshot(s.session_id, s.revision, tuple(_item(i) for i in s.items))


def _item(i: m.TodoItem) -> Item:
    active = shown_text(i.active_form) if i.active_form else i.active_form
    return Item(shown_text(i.content), i.status, active)


def turn(t: m.Turn) -> TurnView:
    state: TurnState = "interrupted" if t.interrupted else t.state
    return TurnView(t.session_id, state, shown_text(t.error or ""), t.id, t.started_at)


def session(s: m.Session) -> Session:
    remote = s.remote
    return Session(
        session_id=s.id,
        title=shown_text(s.title),
        mode=s.mode,
        running_turn=s.running_turn_id or "",
        parent_id=s.parent_id or "",
        remote=remote is not None,
        remote_state=remote.state if remote else "",
        remote_note=remote_note(remote) if remote else "",
        checklist_note=checklist_note(remote) if remote else "",
        order=(s.updated_at, s.created_at),
        agent=shown_text(s.agent) if s.agent != m.NIB_AGENT else "",
        folder=shown_text(_place(s)),
        cwd=s.cwd or "",
        branch=shown_text(s.worktree.branch)
        if s.worktree is not None and s.worktree.state != "removed"
        else "",
        attempt=s.attempt_id or "",
        repo=s.worktree.repo if s.worktree is not None else "",
    )


CHECK_TAIL = 600  # characters of a check's output its run's column shows


def attempt(a: m.Attempt) -> Attempt:
    """An attempt's runs as its view shows them, every text the agents wrote made safe."""
    names = run_names([r.agent for r in a.sessions])  # "nib", then "nib #2"
    runs = tuple(
        Run(
            session_id=r.session_id,
            agent=shown_text(name),
            state=r.turn.state if r.turn is not None else "",
            error=shown_text(r.turn.error or "") if r.turn is not None else "",
            completed=r.todos.completed,
            total=r.todos.total,
            files=r.files,
            additions=r.additions,
            deletions=r.deletions,
            usage=usage_words(r.usage),
            duration_ms=r.duration_ms,
            check_state=r.check.state if r.check is not None else "",
            check_tail=shown_text(r.check.output[-CHECK_TAIL:]) if r.check is not None else "",
            check_exit=r.check.exit_code if r.check is not None else None,
            turn_id=r.turn.id if r.turn is not None else "",
        )
        for r, name in zip(a.sessions, names, strict=True)
    )
    return Attempt(a.attempt_id, shown_text(a.text), shown_text(a.base), runs)


def _place(s: m.Session) -> str:
    """Where a session works, as a person reads it: its folder, or for one in its own
    worktree (under the data folder, a path nobody knows) its repository and branch."""
    tree = s.worktree
    if tree is not None and tree.state != "removed":
        return f"{folder_label(tree.repo)} ⎇ {tree.branch}"
    return folder_label(s.cwd) if s.cwd else ""


def folder_label(path: str) -> str:
    """A folder as a person reads it: under the home folder as "~/…"."""
    home = str(Path.home())
    if path == home:
        return "~"
    if path.startswith(home.rstrip("/") + "/"):
        return "~/" + path[len(home.rstrip("/")) + 1 :]
    return path


def folder_path(typed: str) -> str:
    """A folder as typed ("~/src", "/srv/app") as the absolute path the host checks."""
    return str(Path(typed.strip()).expanduser())


def agents(listing: m.AgentsList) -> tuple[AgentChoice, ...]:
    return tuple(
        AgentChoice(
            name=shown_text(a.name),
            state=a.state,
            error=shown_text(shorten(a.error or "", 300)),
            version=shown_text(f"{a.agent_info.name} {a.agent_info.version}")
            if a.agent_info
            else "",
        )
        for a in listing.agents
    )


def remote_note(remote: m.RemoteInfo) -> str:
    """Where a remote session runs and how it is reached, in words."""
    try:
        where = parse_endpoint(remote.endpoint).label()
    except ValueError:
        where = remote.endpoint
    if remote.state == "connected":
        return shown_text(f"on {where}")
    if remote.state == "connecting":
        return shown_text(f"on {where} · connecting…")
    why = shorten(remote.error or "no answer", 200)
    return shown_text(f"on {where} · unreachable: {why} · tried every second (Ctrl+R: now)")


def checklist_note(remote: m.RemoteInfo) -> str:
    if remote.state == "connecting" and not remote.capabilities:
        return "The checklist shows once the remote host is linked: connecting…"
    if remote.state != "connected" and not remote.capabilities:
        return "The checklist is not available while the remote host cannot be reached."
    if "todos" not in remote.capabilities:
        return "The checklist is not available: this remote host does not share it."
    return ""


# --- the transcript ------------------------------------------------------------------


# --- history, approvals, tools ---------------------------------------------------------


def revision(r: m.TodoRevision) -> Revision:
    line = todo_line(r.diff, len(r.items))
    return Revision(
        revision=r.revision,
        turn_id=r.turn_id or "",
        time=local_time(r.created_at),
        items=tuple(_item(i) for i in r.items),
        summary=shown_text(line.text),
        warning=line.warning,
    )


def local_time(stamp: str) -> str:
    """An ISO timestamp as the user's local HH:MM:SS (the stamp itself if it is not one):
    a turn writes several revisions a minute."""
    return _local(stamp, "%H:%M:%S")


def local_day_time(stamp: str) -> str:
    """As `local_time`, "YYYY-MM-DD HH:MM": a session's or a message's time, any day."""
    return _local(stamp, "%Y-%m-%d %H:%M")


def _local(stamp: str, form: str) -> str:
    from datetime import UTC, datetime  # (a history's rows: not on the way to "connected")

    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime(form)


def approval(a: m.ApprovalRequested, folder: str = "") -> Approval:
    """An approval as the composer shows it; `folder`: its session's, under which paths
    are named relative to it."""
    options = tuple(
        AgentOption(o.option_id, shown_text(o.name), o.kind, m.OPTION_DECISION[o.kind])
        for o in a.options
    )
    # an ACP agent's request: what it would do; an MCP or plugin tool's: its arguments
    agents = bool(a.options) or a.activity is not None
    said, kind = activity.asked(a.activity, a.arguments, folder) if agents else ("", "")
    return Approval(
        a.approval_id,
        a.session_id,
        shown_text(tool_name(a.tool)),
        shown_text(a.arguments),
        options,
        shown_text(said),
        kind,
    )


def answer(given: it.Answer) -> m.ApprovalRespondParams:
    """The user's answer to an approval, on the wire (`optionId`: an agent's own option)."""
    return m.ApprovalRespondParams.from_wire(
        {
            "approvalId": given.approval_id,
            "decision": given.decision,
            "optionId": given.option_id or None,
        }
    )


def worktree(told: m.WorktreeStatus) -> WorktreeView:
    return WorktreeView(
        told.session_id,
        shown_text(told.branch),
        shown_text(told.base),
        told.ahead,
        told.behind,
        told.dirty,
        len(told.files),
        tuple(shown_text(c) for c in told.conflicts),
    )
