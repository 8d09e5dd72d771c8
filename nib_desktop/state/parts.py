"""The window's state as held, and what its reducers and listeners share: the aspects a
change touches, the change itself, the shown transcript and the History view."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from nib_desktop.state.asking import Ask
from nib_desktop.state.attempts import Attempt
from nib_desktop.state.changes import Changes
from nib_desktop.state.earlier import Earlier
from nib_desktop.state.editing import Editing
from nib_desktop.state.folder_intents import RemoteFolderChecked
from nib_desktop.state.library import Search
from nib_desktop.state.pieces import NO_PIECES, Pieces
from nib_desktop.state.steering import Steering
from nib_desktop.state.tool_types import Approval, ToolSource
from nib_desktop.state.transcript_lines import Line
from nib_desktop.state.types import (
    AgentChoice,
    ConnectionState,
    DesktopPrefs,
    PlanAsk,
    RemoteChoice,
    Revision,
    Session,
    Snapshot,
    TurnView,
)
from nib_desktop.state.worktrees import WorktreeView

if TYPE_CHECKING:
    from nib_desktop.state.attachments import HeldImage


class Aspect(StrEnum):
    """What a change touched; listeners read only what they show."""

    CONNECTION = "connection"
    SESSIONS = "sessions"  # the list's rows
    CURRENT = "current"  # which session is shown, or its row
    CHECKLIST = "checklist"  # a session's snapshot or turn (`Change.session_id`)
    TRANSCRIPT = "transcript"
    APPROVALS = "approvals"
    TOOLS = "tools"
    AGENTS = "agents"  # the configured ACP agents
    STEERING = "steering"  # what an agent offers to steer a session (section 17)
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
    FEEDBACK = "feedback"  # the asks on a session's plan, not sent yet
    FILES = "files"  # the files an "@" in the composer matches
    IMAGES = "images"  # the images held to go with a session's next message
    SEARCH = "search"  # the search across sessions answered (`Held.search`)
    EDITING = "editing"  # an earlier message edited in the composer (`Held.editing`)
    EARLIER = "earlier"  # an agent's earlier sessions listed (`Held.earlier`)
    ATTEMPTS = "attempts"  # an attempt's runs as last told (`Held.attempts`)
    ASKS = "asks"  # a form or URL an agent asks the user for (`Held.asks`)


@dataclass(frozen=True)
class Change:
    aspects: frozenset[Aspect]
    session_id: str | None = None  # the session a CHECKLIST change is about

    def __contains__(self, aspect: object) -> bool:
        return aspect in self.aspects


NOTHING = Change(frozenset())
V = TypeVar("V")


def change(*aspects: Aspect, session_id: str | None = None) -> Change:
    return Change(frozenset(aspects), session_id)


def put(held: dict[str, V], session_id: str, value: V) -> bool:
    """A session's value in `held` set, or taken away when empty; whether it changed."""
    if held.get(session_id) == value or (not value and session_id not in held):
        return False
    if value:
        held[session_id] = value
    else:
        held.pop(session_id, None)
    return True


class Transcript(NamedTuple):
    """The shown session's transcript as loaded: its newest pages."""

    session_id: str | None = None
    lines: tuple[Line, ...] = ()
    has_more: bool = False
    oldest_seq: int = 0  # the oldest message loaded (0: none yet)
    oldest_turn: str = ""  # and its turn
    loaded: bool = False  # its newest page arrived
    # the text of the message still arriving (messages.delta), until it is stored
    live: Pieces = NO_PIECES
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


@dataclass
class Held:
    """What the window holds; `store.AppState` adds the one mutator and its listeners."""

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
    steering: dict[str, Steering] = field(default_factory=dict)  # by session id
    worktrees: dict[str, WorktreeView] = field(default_factory=dict)  # by session id
    attempts: dict[str, Attempt] = field(default_factory=dict)  # by attempt id
    recalled_check: tuple[str, str] = ("", "")  # a repository as typed, its last check
    asks: tuple[Ask, ...] = ()  # what agents ask the user to fill in, oldest first
    editing: Editing | None = None  # an earlier message edited in the composer
    earlier: Earlier = field(default_factory=Earlier)  # an agent's earlier sessions
    notice: str = ""
    notice_until: str = ""  # what takes the notice away by itself (`NoticeShown.until`)
    drafts: dict[str, str] = field(default_factory=dict)  # unsent text per session
    queued: dict[str, str] = field(default_factory=dict)  # sent during a turn, per session
    plan_asks: dict[str, tuple[PlanAsk, ...]] = field(default_factory=dict)  # per session
    asks_queued: set[str] = field(default_factory=set)  # sessions whose asks go at turn end
    files_found: tuple[str, str, tuple[str, ...]] = ("", "", ())  # session, query, paths
    images: dict[str, tuple[HeldImage, ...]] = field(default_factory=dict)  # per session
    remote_choices: tuple[RemoteChoice, ...] = ()
    remote_choices_note: str = ""
    remote_agents: tuple[str, ...] = ()  # the listed host's own agents
    remote_folder: RemoteFolderChecked | None = None  # a folder typed there, checked there
    history: History = field(default_factory=History)
    changes: Changes = field(default_factory=Changes)
    # files each step changed, by session and the step's content (from its checkpoints)
    step_files: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    revision_files: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    dock_expanded: bool = False
    reduced_motion: bool = False
    window_active: bool = True
    desktop: DesktopPrefs = field(default_factory=DesktopPrefs)
    # sessions whose turn ended while the user was not looking at them
    unseen: frozenset[str] = frozenset()
    search: Search = field(default_factory=Search)  # the latest search across sessions
    _by_id: dict[str, Session] = field(default_factory=dict, repr=False)  # `sessions` by id
    # the shown session keeps the place it had when shown (its own sends do not move it
    # under the user's next Ctrl+PgUp): (its id, its order then)
    _pinned: tuple[str, tuple[str, str]] = ("", ("", ""))

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

    # --- for the reducers -----------------------------------------------------------------

    def agreeing(self, session: Session, told: bool = False) -> Session:
        """The session's row as its turn tells it: one source for "running". A turn is
        told before its session's row (`turns.changed`, then `sessions.changed`), so the
        news of a turn (`told`) decides at once, and a turn that ended is never running
        again in a row answered before that news; a remote turn out of reach decides
        nothing."""
        turn = self.turns.get(session.session_id)
        if turn is None or not turn.turn_id:
            return session
        if told and turn.running and session.running_turn != turn.turn_id:
            return session._replace(running_turn=turn.turn_id)
        if turn.ended and session.running_turn == turn.turn_id:
            return session._replace(running_turn="")
        return session

    def agent_commands(self, session_id: str | None) -> tuple[tuple[str, str], ...] | None:
        """An agent session's own commands as its agent last told them, (name, what it
        does); None for a session of Nib's own agent."""
        session = self.session(session_id)
        if session is None or not session.agent:
            return None
        told = self.steering.get(session.session_id)
        return tuple((c.name, c.description) for c in told.commands) if told else ()

    def set_sessions(self, sessions: tuple[Session, ...]) -> None:
        pinned, kept = self._pinned

        def place(s: Session) -> tuple[str, str]:
            return kept if s.session_id == pinned else s.order

        self.sessions = tuple(sorted(sessions, key=place, reverse=True))
        self._by_id = {s.session_id: s for s in self.sessions}

    def pin(self, session_id: str | None) -> None:
        """`session_id` shown: it keeps its place while shown; the one before takes its own."""
        shown = self._by_id.get(session_id or "")
        self._pinned = (shown.session_id, shown.order) if shown else ("", ("", ""))
        self.set_sessions(self.sessions)

    def take_notice(self, cause: str) -> bool:
        """Take the notice away if `cause` was what it waited for."""
        if not self.notice or self.notice_until != cause:
            return False
        self.notice, self.notice_until = "", ""
        return True
