"""What the user asks for, as typed values. Views send them through an `Ask`; the Main
role (`nib_desktop.work.dispatch`) carries each out against the host and turns the answer, or
the failure, into events. Views never change state themselves."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from nib_desktop.state.asking import AnswerAsk as AnswerAsk
from nib_desktop.state.attachments import AttachIntent, DropImage, FindFiles, HoldImage
from nib_desktop.state.earlier import ImportEarlier, ListEarlier
from nib_desktop.state.editing import Resend, RestoreFilesOnly
from nib_desktop.state.feedback import AskOnPlan, DropAsk, FeedbackIntent, SendFeedback
from nib_desktop.state.folder_intents import (
    AskRestore,
    CloseChanges,
    DropRestoreQuestion,
    FolderIntent,
    OpenChanges,
    OpenPlace,
    Restore,
    RevertHunk,
)
from nib_desktop.state.library import ExportSession, LibraryIntent, RenameSession, SearchSessions
from nib_desktop.state.record import Record
from nib_desktop.state.worktree_intents import (
    CompareRuns,
    MergeWorktree,
    ReadAttempt,
    ReadWorktree,
    RemoveRuns,
    RemoveWorktree,
    StartAttempt,
    StopRuns,
    WorktreeIntent,
)

# the dock's feedback on the plan, what goes with a message besides its text, what is
# asked of the session's folder and of the library of sessions
__all__ = ["AskOnPlan", "AskRestore", "CloseChanges", "CompareRuns", "DropAsk", "DropImage",
           "DropRestoreQuestion", "ExportSession", "FindFiles", "HoldImage", "MergeWorktree",
           "OpenChanges", "OpenPlace", "ReadAttempt", "ReadWorktree", "RemoveRuns",
           "RemoveWorktree", "RenameSession", "Resend", "Restore", "RestoreFilesOnly",
           "RevertHunk", "SearchSessions", "SendFeedback", "StartAttempt", "StopRuns"]  # fmt: skip


class SetDesktopPref(Record):
    """One of the app's preferences changed (settings.json): what it shows outside its
    window (on or off), its appearance ("system", "light", "dark"), still motion."""

    name: str  # a field of `DesktopPrefs`
    on: bool | str


class CreateSession(Record):
    mode: str = "agent"
    agent: str = ""  # a configured ACP agent ("": the host's own runtime)
    folder: str = ""  # its working folder ("": the host's default, the home folder)
    # in a new git worktree of the folder's repository (section 18): (base, branch, carry
    # the checkout's uncommitted work); "" base or branch: git's and the host's defaults
    worktree: tuple[str, str, bool] | None = None


class AttachRemote(Record):
    endpoint: str
    remote_session_id: str  # "": a new session there, on `agent` in `folder` (theirs)
    agent: str = ""  # "": Nib's own
    folder: str = ""  # "": the remote host's default
    worktree: bool = False  # in a new worktree of the folder's repository there


class ListRemoteSessions(Record):
    endpoint: str  # "": forget the last listing


class ForkSession(Record):
    pass


class DeleteSession(Record):
    session_id: str
    worktree: str = ""  # of a session in its own worktree: "remove" it or "keep" it


class ShowAdjacent(Record):
    step: int  # rows below (negative: above) the one shown


class Send(Record):
    text: str


class Stop(Record):
    pass


class SignIn(Record):
    """Sign in to an agent with one of its methods (section 17)."""

    agent: str
    method_id: str


class Steer(Record):
    """The shown agent session's mode (`option` "") or one of its options set to `value`
    (section 17); `then`, a message sent once it is set (the plan approved: out of the
    plan mode, and on)."""

    option: str
    value: str
    then: str = ""


class Queue(Record):
    """`text` sent while the shown session's turn runs: it goes when that turn completes
    ("" cancels it)."""

    text: str


class CloseChoice(Record):
    stop_remote: bool  # closing: stop the turns running on remote hosts too, or leave them


class SendQueued(Record):
    """The shown session's queued message, now (its turn ended other than completed)."""


class Continue(Record):
    """Carry on after a turn that ended with unfinished items (stopped, failed,
    interrupted): a turn whose request is CONTINUE_TEXT."""


class Retry(Record):
    pass


class RetryServer(Record):
    """A failed MCP server started again now (the Tools view's Retry)."""

    name: str


class DisableServer(Record):
    """An MCP server disabled in settings.json, or enabled again."""

    name: str
    disabled: bool


class OpenSettings(Record):
    """settings.json opened in the user's editor (made, empty, if there is none)."""


class RetryRemote(Record):
    """Try the shown remote session's host now, not at the next attempt."""


class Answer(Record):
    approval_id: str
    decision: str  # allow_once, allow_session, deny
    option_id: str = ""  # the ACP agent's own option picked, if one was


class LoadOlderMessages(Record):
    pass


class CopyTranscript(Record):
    """The shown session's whole transcript, every page, to the clipboard."""


class OpenHistory(Record):
    pass


class LoadOlderRevisions(Record):
    pass


Intent = (
    CreateSession
    | RetryRemote
    | RetryServer
    | DisableServer
    | OpenSettings
    | AttachRemote
    | ListRemoteSessions
    | ForkSession
    | DeleteSession
    | ShowAdjacent
    | Send
    | Resend
    | RestoreFilesOnly
    | ListEarlier
    | ImportEarlier
    | Stop
    | Steer
    | SignIn
    | Continue
    | Queue
    | AttachIntent
    | SendQueued
    | CloseChoice
    | AnswerAsk
    | Retry
    | Answer
    | LoadOlderMessages
    | CopyTranscript
    | OpenHistory
    | FolderIntent
    | LoadOlderRevisions
    | SetDesktopPref
    | FeedbackIntent
    | LibraryIntent
    | WorktreeIntent
)

if TYPE_CHECKING:
    from nib_desktop.state.events import Event

# what a view hands what the user asked for: an intent, or an event that only says what
# the user did (applied as it is)
Ask = Callable[["Intent | Event"], None]
