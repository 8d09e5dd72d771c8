"""What the user asks of a session's folder: its changes (contract section 16) shown or
closed, a restore, and a place a tool call touched opened in the editor."""

from nib_desktop.state.record import Record
from nib_desktop.state.tuples import NamedTuple


class OpenPlace(Record):
    """A file a tool call touched, opened in the user's editor at `line`."""

    path: str
    line: int | None = None


class OpenChanges(Record):
    """The Changes view of the shown session, `step` chosen first when given, or the
    interval of the checklist's `revision` (shown first)."""

    step: str = ""
    revision: int = 0


class CloseChanges(Record):
    pass


class Restore(Record):
    """The folder (or only `paths`) back to the checkpoint `checkpoint_id`."""

    checkpoint_id: str
    paths: tuple[str, ...] | None = None


class AskRestore(Record):
    """Ask before restoring the folder (or only `paths`) to the checkpoint
    `checkpoint_id`, the start of the scope `title`: the question names every file the
    restore will write back, make again or remove, as the folder is now."""

    checkpoint_id: str
    title: str
    paths: tuple[str, ...] | None = None


class DropRestoreQuestion(Record):
    """The restore asked about is not wanted."""


class RevertHunk(Record):
    """The `hunk`-th part (from 0) of `path`'s change from checkpoint `from_id` to `to_id`
    ("": the folder now) undone in the file."""

    from_id: str
    to_id: str
    path: str
    hunk: int


class CheckRemoteFolder(Record):
    """A folder typed in the remote dialog for a new session there, checked on that
    host's machine (the project's `folders.check`)."""

    endpoint: str
    folder: str


class RemoteFolderChecked(NamedTuple):
    """What the remote host said of a folder typed for a session there: `problem` in
    words ("" it can be used), `sure` when that host checked it (not when it could not be
    asked), and whether it is in a git work tree."""

    endpoint: str
    folder: str
    problem: str
    sure: bool
    repository: bool


FolderIntent = (
    OpenChanges
    | OpenPlace
    | CloseChanges
    | AskRestore
    | DropRestoreQuestion
    | Restore
    | RevertHunk
    | CheckRemoteFolder
)
