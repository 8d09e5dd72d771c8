"""The window's state and its one mutator.

`AppState.apply(event)` is the only way anything here changes; it returns what changed
(a `Change`) and tells every listener the event and the change. Views read the state
and listen; the Main role's effects (recovery, the open History view following writes)
listen too. No Qt, no I/O: every rule of what the window holds is testable as plain
Python.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from nib_desktop.state.changes import Changes
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.types import (
    AgentChoice,
    Approval,
    ConnectionState,
    DesktopPrefs,
    Line,
    RemoteChoice,
    Revision,
    Session,
    Snapshot,
    ToolSource,
    TurnView,
    merge_lines,
)

# What a change touched; listeners read only what they show.
CONNECTION = "connection"
SESSIONS = "sessions"  # the list's rows
CURRENT = "current"  # which session is shown, or its row
CHECKLIST = "checklist"  # a session's snapshot or turn (`Change.session_id`)
TRANSCRIPT = "transcript"
APPROVALS = "approvals"
TOOLS = "tools"
AGENTS = "agents"  # the configured ACP agents
NOTICE = "notice"
DRAFTS = "drafts"
QUEUED = "queued"  # messages waiting for their session's turn to end
REMOTE_CHOICES = "remote_choices"
HISTORY = "history"
PREFS = "prefs"
ATTENTION = "attention"  # what waits for the user: unseen ends, the window's activity
LINKED = "linked"  # a remote session's host is linked again (`Change.session_id`)
LIVE = "live"  # the shown transcript's text still arriving (`Transcript.live`)
CHANGES = "changes"  # the Changes view (`AppState.changes`)
CHECKPOINT = "checkpoint"  # a session's folder recorded again (`Change.session_id`)


@dataclass(frozen=True)
class Change:
    aspects: frozenset[str]
    session_id: str | None = None  # the session a CHECKLIST change is about

    def __contains__(self, aspect: object) -> bool:
        return aspect in self.aspects


NOTHING = Change(frozenset())


class Transcript(NamedTuple):
    """The shown session's transcript as loaded: its newest pages."""

    session_id: str | None = None
    lines: tuple[Line, ...] = ()
    has_more: bool = False
    oldest_seq: int = 0  # the oldest message loaded (0: none yet)
    oldest_turn: str = ""  # and its turn
    loaded: bool = False  # its newest page arrived
    # the text of the message still arriving (messages.delta), until it is stored
    live: str = ""
    live_thought: bool = False


class History(NamedTuple):
    """The dock's History view: open on a session or not, the revisions loaded (newest
    first), whether older ones exist, and the revision shown read-only, if any."""

    session_id: str | None = None
    revisions: tuple[Revision, ...] = ()
    has_more: bool = False
    viewed: Revision | None = None
    # the first words of each turn's request, by turn id (read as groups appear)
    requests: tuple[tuple[str, str], ...] = ()


Listener = Callable[["ev.Event", "Change"], None]


@dataclass
class AppState:
    connection: ConnectionState = "starting"
    connection_error: str = ""
    sessions: tuple[Session, ...] = ()  # newest first
    # the sessions are the last run's list, shown until the host's own arrives
    sessions_cached: bool = False
    current: str | None = None
    snapshots: dict[str, Snapshot] = field(default_factory=dict)
    turns: dict[str, TurnView] = field(default_factory=dict)
    transcript: Transcript = field(default_factory=Transcript)
    approvals: tuple[Approval, ...] = ()  # waiting calls, oldest first, every session
    tools: tuple[ToolSource, ...] = ()
    agents: tuple[AgentChoice, ...] = ()
    notice: str = ""
    notice_until: str = ""  # what takes the notice away by itself (`NoticeShown.until`)
    drafts: dict[str, str] = field(default_factory=dict)  # unsent text per session
    queued: dict[str, str] = field(default_factory=dict)  # sent during a turn, per session
    remote_choices: tuple[RemoteChoice, ...] = ()
    remote_choices_note: str = ""
    history: History = field(default_factory=History)
    changes: Changes = field(default_factory=Changes)
    dock_expanded: bool = False
    reduced_motion: bool = False
    window_active: bool = True
    desktop: DesktopPrefs = field(default_factory=DesktopPrefs)
    # sessions whose turn ended while the user was not looking at them
    unseen: frozenset[str] = frozenset()
    _listeners: list[Listener] = field(default_factory=list, repr=False)
    _by_id: dict[str, Session] = field(default_factory=dict, repr=False)  # `sessions` by id

    # --- reading ------------------------------------------------------------------------

    def session(self, session_id: str | None) -> Session | None:
        return self._by_id.get(session_id or "")

    @property
    def shown(self) -> Session | None:
        return self.session(self.current)

    def snapshot(self, session_id: str | None) -> Snapshot | None:
        return self.snapshots.get(session_id or "")

    def turn(self, session_id: str | None) -> TurnView:
        return self.turns.get(session_id or "") or TurnView(session_id or "")

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # --- the one mutator ----------------------------------------------------------------

    def apply(self, event: ev.Event) -> Change:
        change = self._apply(event)
        if change.aspects:
            for listener in list(self._listeners):
                listener(event, change)
        return change

    def _apply(self, event: ev.Event) -> Change:  # one case an event
        match event:
            case ev.ConnectionChanged(state, error):
                if (state, error) == (self.connection, self.connection_error):
                    return NOTHING
                self.connection, self.connection_error = state, error
                if state == "ready" and self._notice_gone("ready"):
                    return Change(frozenset({CONNECTION, NOTICE}))
                return Change(frozenset({CONNECTION}))
            case ev.SessionsListed(sessions):
                return self._listed(sessions)
            case ev.SessionChanged(session):
                return self._session_changed(session)
            case ev.SessionDeleted(session_id):
                return self._deleted(session_id)
            case ev.SessionShown(session_id):
                if self.session(session_id) is None or session_id == self.current:
                    return NOTHING
                return self._show(session_id)
            case ev.SnapshotArrived(snapshot):
                kept = self.snapshots.get(snapshot.session_id)
                if kept is not None and snapshot.revision <= kept.revision:
                    return NOTHING
                self.snapshots[snapshot.session_id] = snapshot
                return Change(frozenset({CHECKLIST}), snapshot.session_id)
            case ev.TurnChanged(turn):
                held_turn = self.turns.get(turn.session_id)
                if held_turn == turn or (held_turn is not None and turn.older_than(held_turn)):
                    return NOTHING
                self.turns[turn.session_id] = turn
                aspects = {CHECKLIST}
                told = self.transcript
                if not turn.running and told.session_id == turn.session_id and told.live:
                    self.transcript = told._replace(live="")  # no stored message followed
                    aspects.add(LIVE)
                looked = turn.session_id == self.current and self.window_active
                if held_turn is not None and held_turn.running and not turn.running and not looked:
                    self.unseen |= {turn.session_id}
                    aspects.add(ATTENTION)
                return Change(frozenset(aspects), turn.session_id)
            case ev.TranscriptPage(session_id, lines, has_more, oldest, turn, older, newest):
                held = self.transcript
                if session_id != self.current or (older and not held.loaded):
                    return NOTHING
                if older:
                    lines = lines + held.lines
                elif held.session_id == session_id and not held.loaded:
                    # appended while the page was on its way: what came after it stays
                    lines = lines + tuple(x for x in held.lines if x.seq > newest)
                same = held.session_id == session_id  # the text arriving goes on
                live = (held.live, held.live_thought) if same else ("", False)
                self.transcript = Transcript(session_id, lines, has_more, oldest, turn, True, *live)
                return Change(frozenset({TRANSCRIPT}))
            case ev.LinesAppended(session_id, lines):
                held = self.transcript
                if session_id != held.session_id or not lines:
                    return NOTHING
                # a stored message holds the text that was arriving (section 16)
                self.transcript = held._replace(lines=merge_lines(held.lines, lines), live="")
                return Change(frozenset({TRANSCRIPT, LIVE} if held.live else {TRANSCRIPT}))
            case ev.TextStreamed(session_id, thought, text):
                told = self.transcript
                if session_id != told.session_id or not text:
                    return NOTHING
                before = told.live if told.live_thought == thought else ""
                self.transcript = told._replace(live=before + text, live_thought=thought)
                return Change(frozenset({LIVE}))
            case ev.ApprovalRequested(approval):
                self.approvals = (*self.approvals, approval)
                return Change(frozenset({APPROVALS}), approval.session_id)
            case ev.ApprovalResolved(approval_id):
                waiting = tuple(a for a in self.approvals if a.approval_id != approval_id)
                if waiting == self.approvals:
                    return NOTHING
                self.approvals = waiting
                return Change(frozenset({APPROVALS}))
            case ev.ToolsListed(sources):
                if sources == self.tools:
                    return NOTHING
                self.tools = sources
                return Change(frozenset({TOOLS}))
            case ev.DesktopPrefsSet(prefs):
                if prefs == self.desktop:
                    return NOTHING
                self.desktop = prefs
                return Change(frozenset({ATTENTION, PREFS}))
            case ev.WindowActivated(active):
                if active == self.window_active:
                    return NOTHING
                self.window_active = active
                self.unseen -= {self.current or ""} if active else frozenset()
                return Change(frozenset({ATTENTION}))
            case ev.AgentsListed(agents):
                if agents == self.agents:
                    return NOTHING
                self.agents = agents
                return Change(frozenset({AGENTS}))
            case ev.NoticeShown(text, until):
                self.notice, self.notice_until = text, until if text else ""
                return Change(frozenset({NOTICE}))
            case ev.DraftSaved(session_id, text):
                if text:
                    self.drafts[session_id] = text
                else:
                    self.drafts.pop(session_id, None)
                return Change(frozenset({DRAFTS}))
            case ev.MessageQueued(session_id, text):
                if self.queued.get(session_id, "") == text:
                    return NOTHING
                if text:
                    self.queued[session_id] = text
                else:
                    self.queued.pop(session_id, None)
                return Change(frozenset({QUEUED}), session_id)
            case ev.RemoteChoicesListed(choices, note):
                self.remote_choices, self.remote_choices_note = choices, note
                return Change(frozenset({REMOTE_CHOICES}))
            case ev.HistoryOpened(session_id):
                if session_id != self.current or self.history.session_id == session_id:
                    return NOTHING
                self.history = History(session_id)
                return Change(frozenset({HISTORY}))
            case ev.HistoryClosed():
                return self._close_history()
            case ev.HistoryPageLoaded(session_id, revisions, has_more, older):
                return self._history_page(session_id, revisions, has_more, older)
            case ev.RevisionWritten(session_id, revision):
                return self._revision_written(session_id, revision)
            case ev.HistoryRequestsRead(session_id, requests):
                shown = self.history
                known = dict(shown.requests)
                if session_id != shown.session_id or all(known.get(t) == w for t, w in requests):
                    return NOTHING
                self.history = shown._replace(requests=tuple({**known, **dict(requests)}.items()))
                return Change(frozenset({HISTORY}))
            case ev.RevisionViewed(revision):
                history = self.history
                viewed = next((r for r in history.revisions if r.revision == revision), None)
                if viewed == history.viewed:
                    return NOTHING
                self.history = history._replace(viewed=viewed)
                return Change(frozenset({HISTORY, CHECKLIST}), self.current)
            case ev.ChangesShown(changes):
                if changes == self.changes:
                    return NOTHING
                self.changes = changes
                return Change(frozenset({CHANGES}))
            case ev.CheckpointTaken(session_id):
                return Change(frozenset({CHECKPOINT}), session_id)
            case ev.DockExpanded(expanded):
                if expanded == self.dock_expanded:
                    return NOTHING
                self.dock_expanded = expanded
                return Change(frozenset({PREFS}))
            case ev.ReducedMotionSet(reduced):
                if reduced == self.reduced_motion:
                    return NOTHING
                self.reduced_motion = reduced
                return Change(frozenset({PREFS}))
        raise TypeError(f"not an event: {event!r}")

    # --- the cases with more than a line to them -----------------------------------------

    def _set_sessions(self, sessions: tuple[Session, ...]) -> None:
        self.sessions = tuple(sorted(sessions, key=lambda s: s.order, reverse=True))
        self._by_id = {s.session_id: s for s in self.sessions}

    def _listed(self, sessions: tuple[Session, ...]) -> Change:
        self.sessions_cached = False
        self._set_sessions(sessions)
        self.approvals = ()  # the calls that waited ended with their host
        # the snapshots held stay: revisions only grow, and a newer one replaces them
        current = self.current if self.session(self.current) else None
        if current is None and self.sessions:
            current = self.sessions[0].session_id
        aspects = {SESSIONS, CURRENT, APPROVALS, CHECKLIST, TRANSCRIPT}
        self.current = current
        self.transcript = Transcript(current)
        history = self._close_history()
        return Change(frozenset(aspects | history.aspects), current)

    def _session_changed(self, session: Session) -> Change:
        others = tuple(s for s in self.sessions if s.session_id != session.session_id)
        before = self.session(session.session_id)
        if before == session:
            return NOTHING
        self._set_sessions((*others, session))
        aspects = {SESSIONS}
        if session.session_id == self.current:
            aspects.add(CURRENT)
        if before is not None and before.checklist_note != session.checklist_note:
            aspects.add(CHECKLIST)
        linked_now = session.remote_state == "connected"
        if before is not None and before.remote_state != "connected" and linked_now:
            aspects.add(LINKED)
            if self._notice_gone(f"linked:{session.session_id}"):
                aspects.add(NOTICE)
        if before is None and self._notice_gone("session"):
            aspects.add(NOTICE)
        return Change(frozenset(aspects), session.session_id)

    def _notice_gone(self, cause: str) -> bool:
        """Take the notice away if `cause` was what it waited for."""
        if not self.notice or self.notice_until != cause:
            return False
        self.notice, self.notice_until = "", ""
        return True

    def _deleted(self, session_id: str) -> Change:
        if self.session(session_id) is None:
            return NOTHING
        self._set_sessions(tuple(s for s in self.sessions if s.session_id != session_id))
        self.snapshots.pop(session_id, None)
        self.turns.pop(session_id, None)
        self.drafts.pop(session_id, None)
        self.approvals = tuple(a for a in self.approvals if a.session_id != session_id)
        self.unseen -= {session_id}
        if session_id != self.current:
            return Change(frozenset({SESSIONS, APPROVALS, ATTENTION}))
        following = self.sessions[0].session_id if self.sessions else None
        change = self._show(following)
        return Change(change.aspects | {SESSIONS, APPROVALS}, following)

    def _show(self, session_id: str | None) -> Change:
        self.current = session_id
        # lines appended while its first page loads are kept; the page then replaces them
        self.transcript = Transcript(session_id)
        history = self._close_history()
        aspects = {CURRENT, TRANSCRIPT, CHECKLIST, APPROVALS, ATTENTION} | history.aspects
        if self.window_active:
            self.unseen -= {session_id or ""}
        return Change(frozenset(aspects), session_id)

    def _close_history(self) -> Change:
        if self.history == History():
            return NOTHING
        viewing = self.history.viewed is not None
        self.history = History()
        return Change(frozenset({HISTORY, CHECKLIST} if viewing else {HISTORY}), self.current)

    def _revision_written(self, session_id: str, revision: Revision) -> Change:
        shown = self.history
        newest = shown.revisions[0].revision if shown.revisions else 0
        if session_id != shown.session_id or newest >= revision.revision:
            return NOTHING
        self.history = shown._replace(revisions=(revision, *shown.revisions))
        return Change(frozenset({HISTORY}))

    def _history_page(
        self, session_id: str, revisions: tuple[Revision, ...], has_more: bool, older: bool
    ) -> Change:
        held = self.history
        if session_id != held.session_id:
            return NOTHING
        if older:
            known = {r.revision for r in held.revisions}
            revisions = held.revisions + tuple(r for r in revisions if r.revision not in known)
        else:
            # the page between what is held: newer ones (written while it was on its way)
            # stay before it, older ones after it
            newest = {r.revision for r in revisions}
            top, oldest = max(newest, default=0), min(newest, default=0)
            revisions = (
                tuple(r for r in held.revisions if r.revision > top)
                + revisions
                + tuple(r for r in held.revisions if r.revision < oldest)
            )
            has_more = has_more or held.has_more
        self.history = held._replace(revisions=revisions, has_more=has_more)
        return Change(frozenset({HISTORY}))
