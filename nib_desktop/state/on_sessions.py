"""How the state follows the host and the sessions: the connection, the list and each
session's row, which one is shown, the window's activity, notices, drafts and queued
messages, the configured tools and agents."""

from __future__ import annotations

from nib_desktop.state import keyed
from nib_desktop.state.aspects import NOTHING, Aspect, Change, change, put
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.on_checklist import close_history
from nib_desktop.state.parts import Held, Transcript
from nib_desktop.state.steering import remembered
from nib_desktop.state.types import Session

A = Aspect


def connection_changed(s: Held, e: ev.ConnectionChanged) -> Change:
    if (e.state, e.error) == (s.connection, s.connection_error):
        return NOTHING
    s.connection, s.connection_error = e.state, e.error
    if e.state == "ready" and s.take_notice("ready"):
        return change(A.CONNECTION, A.NOTICE)
    return change(A.CONNECTION)


def sessions_listed(s: Held, e: ev.SessionsListed) -> Change:
    s.sessions_cached = False
    s.set_sessions(e.sessions)
    s.approvals = ()  # the calls that waited ended with their host
    # the snapshots held stay: revisions only grow, and a newer one replaces them
    current = s.current if s.session(s.current) else None
    if current is None and s.sessions:
        current = s.sessions[0].session_id
    s.current = current
    s.pin(current)
    s.transcript = Transcript(current)
    history = close_history(s)
    aspects = {A.SESSIONS, A.CURRENT, A.APPROVALS, A.CHECKLIST, A.TRANSCRIPT} | history.aspects
    return Change(frozenset(aspects), current)


def session_changed(s: Held, e: ev.SessionChanged) -> Change:
    session = s.agreeing(e.session)
    before = s.session(session.session_id)
    if before == session:
        return NOTHING
    s.set_sessions((*(x for x in s.sessions if x.session_id != session.session_id), session))
    aspects = {A.SESSIONS}
    if session.session_id == s.current:
        aspects.add(A.CURRENT)
    if before is not None and before.checklist_note != session.checklist_note:
        aspects.add(A.CHECKLIST)
    if before is not None and before.remote_state != "connected" and _linked(session):
        aspects.add(A.LINKED)
        if s.take_notice(f"linked:{session.session_id}"):
            aspects.add(A.NOTICE)
    if before is None and s.take_notice("session"):
        aspects.add(A.NOTICE)
    return Change(frozenset(aspects), session.session_id)


def _linked(session: Session) -> bool:
    return session.remote_state == "connected"


def session_deleted(s: Held, e: ev.SessionDeleted) -> Change:
    session_id = e.session_id
    if s.session(session_id) is None:
        return NOTHING
    s.set_sessions(tuple(x for x in s.sessions if x.session_id != session_id))
    s.snapshots.pop(session_id, None)
    s.turns.pop(session_id, None)
    s.drafts.pop(session_id, None)
    s.step_files.pop(session_id, None)
    s.revision_files.pop(session_id, None)
    s.approvals = tuple(a for a in s.approvals if a.session_id != session_id)
    s.unseen -= {session_id}
    if session_id != s.current:
        return change(A.SESSIONS, A.APPROVALS, A.ATTENTION)
    following = s.sessions[0].session_id if s.sessions else None
    shown = show(s, following)
    return Change(shown.aspects | {A.SESSIONS, A.APPROVALS}, following)


def session_shown(s: Held, e: ev.SessionShown) -> Change:
    if s.session(e.session_id) is None or e.session_id == s.current:
        return NOTHING
    return show(s, e.session_id)


def show(s: Held, session_id: str | None) -> Change:
    said = s.take_notice("done")  # a success said of the session left stays with it
    s.current = session_id
    s.pin(session_id)
    # lines appended while its first page loads are kept; the page then replaces them
    s.transcript = Transcript(session_id)
    history = close_history(s)
    aspects = {A.CURRENT, A.TRANSCRIPT, A.CHECKLIST, A.APPROVALS, A.ATTENTION} | history.aspects
    aspects |= {A.NOTICE} if said else set()
    if s.window_active:
        s.unseen -= {session_id or ""}
    return Change(frozenset(aspects), session_id)


def window_activated(s: Held, e: ev.WindowActivated) -> Change:
    if e.active == s.window_active:
        return NOTHING
    s.window_active = e.active
    s.unseen -= {s.current or ""} if e.active else frozenset()
    return change(A.ATTENTION)


def approval_requested(s: Held, e: ev.ApprovalRequested) -> Change:
    added = keyed.once(s.approvals, e.approval, lambda a: a.approval_id)
    if added is None:
        return NOTHING
    s.approvals = added
    return change(A.APPROVALS, session_id=e.approval.session_id)


def approval_resolved(s: Held, e: ev.ApprovalResolved) -> Change:
    waiting = keyed.without(s.approvals, e.approval_id, lambda a: a.approval_id)
    if waiting is None:
        return NOTHING
    s.approvals = waiting
    return change(A.APPROVALS)


def tools_listed(s: Held, e: ev.ToolsListed) -> Change:
    if e.sources == s.tools:
        return NOTHING
    s.tools = e.sources
    return change(A.TOOLS)


def agents_listed(s: Held, e: ev.AgentsListed) -> Change:
    if e.agents == s.agents:
        return NOTHING
    s.agents = e.agents
    return change(A.AGENTS)


def steering_told(s: Held, e: ev.SteeringTold) -> Change:
    told = remembered(s.steering.get(e.steering.session_id), e.steering)
    if s.steering.get(told.session_id) == told:
        return NOTHING
    s.steering[told.session_id] = told
    return Change(frozenset({A.STEERING}), told.session_id)


def notice_shown(s: Held, e: ev.NoticeShown) -> Change:
    s.notice, s.notice_until = e.text, e.until if e.text else ""
    return change(A.NOTICE)


def draft_saved(s: Held, e: ev.DraftSaved) -> Change:
    if e.text:
        s.drafts[e.session_id] = e.text
    else:
        s.drafts.pop(e.session_id, None)
    return change(A.DRAFTS)


def message_queued(s: Held, e: ev.MessageQueued) -> Change:
    if not put(s.queued, e.session_id, e.text):
        return NOTHING
    return change(A.QUEUED, session_id=e.session_id)


def remote_choices_listed(s: Held, e: ev.RemoteChoicesListed) -> Change:
    s.remote_choices, s.remote_choices_note, s.remote_agents = e.choices, e.note, e.agents
    return change(A.REMOTE_CHOICES)


def remote_folder_checked(s: Held, e: ev.RemoteFolderChecked) -> Change:
    s.remote_folder = e
    return change(A.REMOTE_CHOICES)


def desktop_prefs_set(s: Held, e: ev.DesktopPrefsSet) -> Change:
    if e.prefs == s.desktop:
        return NOTHING
    s.desktop = e.prefs
    return change(A.ATTENTION, A.PREFS)


def dock_expanded(s: Held, e: ev.DockExpanded) -> Change:
    if e.expanded == s.dock_expanded:
        return NOTHING
    s.dock_expanded = e.expanded
    return change(A.PREFS)


def reduced_motion_set(s: Held, e: ev.ReducedMotionSet) -> Change:
    if e.reduced == s.reduced_motion:
        return NOTHING
    s.reduced_motion = e.reduced
    return change(A.PREFS)


def search_answered(s: Held, e: ev.SearchAnswered) -> Change:
    s.search = e.search
    return change(A.SEARCH)


def _replaced(s: Held, name: str, value: object, aspect: Aspect) -> Change:
    """One value the state holds, replaced where it differs."""
    if getattr(s, name) == value:
        return NOTHING
    setattr(s, name, value)
    return change(aspect)


def earlier_listed(s: Held, e: ev.EarlierListed) -> Change:
    return _replaced(s, "earlier", e.earlier, A.EARLIER)


def editing_set(s: Held, e: ev.EditingSet) -> Change:
    return _replaced(s, "editing", e.editing, A.EDITING)


def worktree_told(s: Held, e: ev.WorktreeTold) -> Change:
    told = e.worktree
    if s.worktrees.get(told.session_id) == told:
        return NOTHING
    s.worktrees[told.session_id] = told
    return Change(frozenset({A.SESSIONS}), told.session_id)


def ask_told(s: Held, e: ev.AskTold) -> Change:
    added = keyed.once(s.asks, e.ask, lambda a: a.ask_id)
    if added is None:
        return NOTHING
    s.asks = added
    return change(A.ASKS, session_id=e.ask.session_id)


def ask_ended(s: Held, e: ev.AskEnded) -> Change:
    kept = keyed.without(s.asks, e.ask_id, lambda a: a.ask_id)
    if kept is None:
        return NOTHING
    s.asks = kept
    return change(A.ASKS)
