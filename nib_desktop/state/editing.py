"""Edit and resend (contract section 20's `sessions.rewind`): one of the user's earlier
messages taken into the composer; sending it makes a fork of the session from there, its
folder restored to that turn's start when asked. Plain values, no Qt."""

from nib_desktop.state.tuples import NamedTuple


class Editing(NamedTuple):
    session_id: str
    message_id: str
    text: str  # the message as it was sent
    files: bool = False  # the folder goes back to that turn's start too
    turn_id: str = ""  # the message's turn: its start is the folder as it was then


class RestoreFilesOnly(NamedTuple):
    """The intent: the folder as it was before the message being edited (its turn's
    "turn-start" checkpoint), asked first in the Changes view like any restore; no fork,
    no message (Claude Code's "restore the code only")."""


class Resend(NamedTuple):
    """The intent: the earlier message being edited (`AppState.editing`) sent again as
    `text`, in a fork of its session from there (`sessions.rewind`). A named tuple, as
    this module is read for the first frame (a dataclass compiles its methods then)."""

    text: str


class EditingSet(NamedTuple):
    """A message taken into the composer to edit and resend (None: no longer)."""

    editing: Editing | None


def editing_words(editing: Editing | None, shown: str | None, has_folder: bool = True) -> str:
    """What the composer says while an earlier message is edited there (a session with
    no folder has no files to put back)."""
    if editing is None or editing.session_id != shown:
        return ""
    if not has_folder:
        return "Editing: Enter resends in a fork · Esc: cancel"
    if editing.files:
        return (
            "Editing: Enter resends in a fork, files as then · Alt+R: keep files"
            " · Alt+F: files only · Esc: cancel"
        )
    return (
        "Editing: Enter resends in a fork · Alt+R: files as then too · Alt+F: files only"
        " · Esc: cancel"
    )
