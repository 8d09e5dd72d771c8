"""The window's state as held: the sessions and what each holds, the shown transcript and
the History view (what a change touches is `aspects.py`)."""

from nib_desktop.state.asking import Ask
from nib_desktop.state.attachments import HeldImage
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
from nib_desktop.state.tuples import NamedTuple
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


class Held:
    """What the window holds; `store.AppState` adds the one mutator and its listeners.

    A plain class, not a dataclass: a dataclass of these 45 fields compiled its methods
    when this module was imported, about 2.3 ms before the first frame (and again for
    `AppState`). A field's default is the class's own value until it is set (each is
    immutable); the containers are made for each state by `__init__`."""

    connection: ConnectionState = "starting"
    connection_error: str = ""
    sessions: tuple[Session, ...] = ()  # newest first
    # the sessions are the last run's list, shown until the host's own arrives
    sessions_cached: bool = False
    current: str | None = None
    snapshots: dict[str, Snapshot]
    turns: dict[str, TurnView]
    transcript: Transcript = Transcript()
    approvals: tuple[Approval, ...] = ()  # waiting calls, oldest first, every session
    tools: tuple[ToolSource, ...] = ()
    agents: tuple[AgentChoice, ...] = ()
    steering: dict[str, Steering]  # by session id
    worktrees: dict[str, WorktreeView]  # by session id
    attempts: dict[str, Attempt]  # by attempt id
    recalled_check: tuple[str, str] = ("", "")  # a repository as typed, its last check
    asks: tuple[Ask, ...] = ()  # what agents ask the user to fill in, oldest first
    editing: Editing | None = None  # an earlier message edited in the composer
    earlier: Earlier = Earlier()  # an agent's earlier sessions
    notice: str = ""
    notice_until: str = ""  # what takes the notice away by itself (`NoticeShown.until`)
    drafts: dict[str, str]  # unsent text per session
    queued: dict[str, str]  # sent during a turn, per session
    plan_asks: dict[str, tuple[PlanAsk, ...]]  # per session
    asks_queued: set[str]  # sessions whose asks go at turn end
    files_found: tuple[str, str, tuple[str, ...]] = ("", "", ())  # session, query, paths
    images: dict[str, tuple[HeldImage, ...]]  # per session
    remote_choices: tuple[RemoteChoice, ...] = ()
    remote_choices_note: str = ""
    remote_agents: tuple[str, ...] = ()  # the listed host's own agents
    remote_folder: RemoteFolderChecked | None = None  # a folder typed there, checked there
    history: History = History()
    changes: Changes = Changes()
    # files each step changed, by session and the step's content (from its checkpoints)
    step_files: dict[str, tuple[tuple[str, int], ...]]
    revision_files: dict[str, tuple[tuple[int, int], ...]]
    dock_expanded: bool = False
    reduced_motion: bool = False
    window_active: bool = True
    desktop: DesktopPrefs = DesktopPrefs()
    # sessions whose turn ended while the user was not looking at them
    unseen: frozenset[str] = frozenset()
    search: Search = Search()  # the latest search across sessions
    _by_id: dict[str, Session]  # `sessions` by id
    # the shown session keeps the place it had when shown (its own sends do not move it
    # under the user's next Ctrl+PgUp): (its id, its order then)
    _pinned: tuple[str, tuple[str, str]] = ("", ("", ""))

    def __init__(self) -> None:
        self.snapshots = {}
        self.turns = {}
        self.steering = {}
        self.worktrees = {}
        self.attempts = {}
        self.drafts = {}
        self.queued = {}
        self.plan_asks = {}
        self.asks_queued = set()
        self.images = {}
        self.step_files = {}
        self.revision_files = {}
        self._by_id = {}

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
