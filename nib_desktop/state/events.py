"""The events that change the window's state (what the host said, what an intent got back,
what the user chose), each a named tuple (a dataclass would compile its methods as this
module is imported, about 0.8 ms a class); the state's `apply` alone makes them count.
Their fields' types are evaluated as the classes are made (no `from __future__ import
annotations`): as strings, `typing` would compile each of them, 59 compiles."""

import typing

from nib_desktop.state.asking import AskEnded as AskEnded, AskTold as AskTold
from nib_desktop.state.attachments import HeldImage
from nib_desktop.state.attempts import AttemptTold as AttemptTold, CheckRecalled as CheckRecalled
from nib_desktop.state.changes import Changes
from nib_desktop.state.earlier import EarlierListed as EarlierListed
from nib_desktop.state.editing import EditingSet as EditingSet
from nib_desktop.state.feedback import PlanAsked as PlanAsked
from nib_desktop.state.folder_intents import RemoteFolderChecked as RemoteFolderChecked
from nib_desktop.state.library import SearchAnswered as SearchAnswered
from nib_desktop.state.steering import Steering
from nib_desktop.state.tool_types import Approval, ToolSource
from nib_desktop.state.transcript_lines import Line
from nib_desktop.state.tuples import NamedTuple
from nib_desktop.state.types import (
    AgentChoice,
    ConnectionState,
    DesktopPrefs,
    RemoteChoice,
    Revision,
    Session,
    Snapshot,
    TurnView,
)
from nib_desktop.state.worktrees import WorktreeTold as WorktreeTold


class ConnectionChanged(NamedTuple):
    state: ConnectionState
    error: str = ""


class SessionsListed(NamedTuple):
    """A fresh listing after a (re)connect: the shown session stays if it still exists,
    else the newest is shown. Every held checklist may be stale now."""

    sessions: tuple[Session, ...]


class SessionChanged(NamedTuple):
    session: Session


class SessionDeleted(NamedTuple):
    session_id: str


class SessionShown(NamedTuple):
    """The user picked a session (or one was made for them)."""

    session_id: str


class SnapshotArrived(NamedTuple):
    """A committed checklist (todos.changed or todos.get); kept only if newer."""

    snapshot: Snapshot


class TurnChanged(NamedTuple):
    turn: TurnView


class TranscriptPage(NamedTuple):
    """A page of a session's transcript: the newest (replacing what is held) or, with
    `older`, the one before the oldest held."""

    session_id: str
    lines: tuple[Line, ...]
    has_more: bool
    oldest_seq: int  # the page's oldest message
    oldest_turn: str = ""  # and its turn
    older: bool = False
    newest_seq: int = 0  # the page's newest message: lines appended meanwhile after it stay


class LinesAppended(NamedTuple):
    session_id: str
    lines: tuple[Line, ...]


class TextStreamed(NamedTuple):
    """Text of the message still arriving in a session (messages.delta)."""

    session_id: str
    thought: bool
    text: str


class ApprovalRequested(NamedTuple):
    approval: Approval


class ApprovalResolved(NamedTuple):
    approval_id: str


class ToolsListed(NamedTuple):
    sources: tuple[ToolSource, ...]


class DesktopPrefsSet(NamedTuple):
    prefs: DesktopPrefs


class WindowActivated(NamedTuple):
    """The window became the active one (the user is looking) or stopped being it."""

    active: bool


class AgentsListed(NamedTuple):
    agents: tuple[AgentChoice, ...]


class SteeringTold(NamedTuple):
    steering: Steering


class NoticeShown(NamedTuple):
    text: str  # "" takes the notice away
    # what takes it away by itself: "ready" (the host answers again), "linked:ID" (that
    # remote host linked again), "session" (a timed-out create's session came), "done" (a
    # success: plain colour, gone after a moment or as another session shows); "" the user
    until: str = ""


class DraftSaved(NamedTuple):
    session_id: str
    text: str


class MessageQueued(NamedTuple):
    """Sent while the session's turn ran: it goes when the turn completes ("" takes it)."""

    session_id: str
    text: str


class RemoteChoicesListed(NamedTuple):
    choices: tuple[RemoteChoice, ...]
    note: str
    agents: tuple[str, ...] = ()  # the agents of that host's own settings (section 19)


class ChangesShown(NamedTuple):
    """The Changes view opened, loaded again or closed (`Changes()`)."""

    changes: Changes


class RevisionFilesCounted(NamedTuple):
    """How many files changed in each revision's interval of a session's checklist."""

    session_id: str
    counts: tuple[tuple[int, int], ...]  # (revision, files)


class StepFilesCounted(NamedTuple):
    """How many files each step of a session's checklist changed (by its content)."""

    session_id: str
    counts: tuple[tuple[str, int], ...]


class CheckpointTaken(NamedTuple):
    session_id: str


class HistoryOpened(NamedTuple):
    session_id: str


class HistoryClosed(NamedTuple):
    pass


class HistoryRequestsRead(NamedTuple):
    """The first words of the requests of turns the History view groups by."""

    session_id: str
    requests: tuple[tuple[str, str], ...]  # (turn id, words)


class HistoryPageLoaded(NamedTuple):
    """A page of todos.history: the newest (merged over what is held) or, with `older`,
    the one after the oldest held."""

    session_id: str
    revisions: tuple[Revision, ...]
    has_more: bool
    older: bool


class RevisionWritten(NamedTuple):
    """A revision the open History view gains in place: the one after its newest."""

    session_id: str
    revision: Revision


class RevisionViewed(NamedTuple):
    revision: int  # 0: back to the live list


class FilesFound(NamedTuple):
    """The files under the shown session's folder that match what follows an "@"."""

    session_id: str
    query: str
    paths: tuple[str, ...]


class ImagesHeld(NamedTuple):
    session_id: str
    images: tuple[HeldImage, ...]  # all those to go with its next message; () once sent


class DockExpanded(NamedTuple):
    expanded: bool


class ReducedMotionSet(NamedTuple):
    reduced: bool


# fmt: off
Event = (
    ConnectionChanged | SessionsListed | SessionChanged | SessionDeleted | SessionShown
    | SnapshotArrived | TurnChanged | TranscriptPage | LinesAppended | TextStreamed
    | ApprovalRequested | ApprovalResolved | ToolsListed | AgentsListed | SteeringTold
    | WindowActivated | DesktopPrefsSet | NoticeShown | ChangesShown | CheckpointTaken
    | DraftSaved | MessageQueued | RemoteChoicesListed | HistoryOpened | HistoryClosed
    | HistoryPageLoaded | RevisionWritten | StepFilesCounted | RevisionFilesCounted
    | HistoryRequestsRead | RevisionViewed | DockExpanded | ReducedMotionSet | PlanAsked
    | FilesFound | ImagesHeld | SearchAnswered | WorktreeTold | EditingSet | EarlierListed
    | AttemptTold | AskTold | AskEnded | CheckRecalled | RemoteFolderChecked
)
# fmt: on

# every event: a view may name one as its intent (one that only says what the user did)
EVENTS: frozenset[type] = frozenset(typing.get_args(Event))
