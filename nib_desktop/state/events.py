"""The events that change the window's state: what the host said (through the router),
what an intent got back, and what the user chose. Each is a frozen value; the state's
`apply` is the only place they take effect."""

from __future__ import annotations

from dataclasses import dataclass

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
)


@dataclass(frozen=True)
class ConnectionChanged:
    state: ConnectionState
    error: str = ""


@dataclass(frozen=True)
class SessionsListed:
    """A fresh listing after a (re)connect: the shown session stays if it still exists,
    else the newest is shown. Every held checklist may be stale now."""

    sessions: tuple[Session, ...]


@dataclass(frozen=True)
class SessionChanged:
    session: Session


@dataclass(frozen=True)
class SessionDeleted:
    session_id: str


@dataclass(frozen=True)
class SessionShown:
    """The user picked a session (or one was made for them)."""

    session_id: str


@dataclass(frozen=True)
class SnapshotArrived:
    """A committed checklist (todos.changed or todos.get); kept only if newer."""

    snapshot: Snapshot


@dataclass(frozen=True)
class TurnChanged:
    turn: TurnView


@dataclass(frozen=True)
class TranscriptPage:
    """A page of a session's transcript: the newest (replacing what is held) or, with
    `older`, the one before the oldest held."""

    session_id: str
    lines: tuple[Line, ...]
    has_more: bool
    oldest_seq: int  # the page's oldest message
    oldest_turn: str = ""  # and its turn
    older: bool = False
    newest_seq: int = 0  # the page's newest message: lines appended meanwhile after it stay


@dataclass(frozen=True)
class LinesAppended:
    session_id: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class ApprovalRequested:
    approval: Approval


@dataclass(frozen=True)
class ApprovalResolved:
    approval_id: str


@dataclass(frozen=True)
class ToolsListed:
    sources: tuple[ToolSource, ...]


@dataclass(frozen=True)
class DesktopPrefsSet:
    prefs: DesktopPrefs


@dataclass(frozen=True)
class WindowActivated:
    """The window became the active one (the user is looking) or stopped being it."""

    active: bool


@dataclass(frozen=True)
class AgentsListed:
    agents: tuple[AgentChoice, ...]


@dataclass(frozen=True)
class NoticeShown:
    text: str  # "" takes the notice away
    # what takes it away by itself, once its cause is gone: "ready" (the host answers
    # again), "linked:ID" (that remote session's host is linked again), "session" (a
    # session appeared: the one a timed-out create made); "" only the user
    until: str = ""


@dataclass(frozen=True)
class DraftSaved:
    session_id: str
    text: str


@dataclass(frozen=True)
class MessageQueued:
    """A message the user sent while the session's turn ran: it goes when the turn
    completes ("" takes it away)."""

    session_id: str
    text: str


@dataclass(frozen=True)
class RemoteChoicesListed:
    choices: tuple[RemoteChoice, ...]
    note: str


@dataclass(frozen=True)
class HistoryOpened:
    session_id: str


@dataclass(frozen=True)
class HistoryClosed:
    pass


@dataclass(frozen=True)
class HistoryRequestsRead:
    """The first words of the requests of turns the History view groups by."""

    session_id: str
    requests: tuple[tuple[str, str], ...]  # (turn id, words)


@dataclass(frozen=True)
class HistoryPageLoaded:
    """A page of todos.history: the newest (merged over what is held) or, with `older`,
    the one after the oldest held."""

    session_id: str
    revisions: tuple[Revision, ...]
    has_more: bool
    older: bool


@dataclass(frozen=True)
class RevisionViewed:
    revision: int  # 0: back to the live list


@dataclass(frozen=True)
class DockExpanded:
    expanded: bool


@dataclass(frozen=True)
class ReducedMotionSet:
    reduced: bool


Event = (
    ConnectionChanged
    | SessionsListed
    | SessionChanged
    | SessionDeleted
    | SessionShown
    | SnapshotArrived
    | TurnChanged
    | TranscriptPage
    | LinesAppended
    | ApprovalRequested
    | ApprovalResolved
    | ToolsListed
    | AgentsListed
    | WindowActivated
    | DesktopPrefsSet
    | NoticeShown
    | DraftSaved
    | MessageQueued
    | RemoteChoicesListed
    | HistoryOpened
    | HistoryClosed
    | HistoryPageLoaded
    | HistoryRequestsRead
    | RevisionViewed
    | DockExpanded
    | ReducedMotionSet
)
