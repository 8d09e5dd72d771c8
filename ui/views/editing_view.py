"""Edit and resend (contract section 20's `sessions.rewind`), in the window: E in the
transcript takes the last of the user's messages in view into the input; Enter then sends
it in a fork of the session from there (the composer's `send`), Alt+R chooses whether the
folder goes back to that turn's start too, Escape gives it up (the composer's `escape`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.editing import Editing, RestoreFilesOnly, editing_words
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.store import AppState, Change
from ui.views.rows import TranscriptModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class EditingView(QObject):
    changed = Signal()
    taken = Signal(str)  # the input takes the message's text
    changesAsked = Signal()  # the window opens the Changes view (files only: asked there)

    def __init__(
        self, state: AppState, ask: Ask, lines: TranscriptModel, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._state, self._ask, self._lines = state, ask, lines
        self._held: Editing | None = None
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if not ({store.EDITING, store.CURRENT} & change.aspects):
            return
        editing = self._state.editing
        if editing is not None and (
            self._held is None or editing.message_id != self._held.message_id
        ):
            self.taken.emit(editing.text)
        self._held = editing
        self.changed.emit()

    @Slot(int)
    def take(self, row: int) -> None:
        """The last of the user's messages at or above line `row`, into the input."""
        rows = self._lines.rows()
        shown = self._state.current
        for at in range(min(row, len(rows) - 1), -1, -1):
            line = rows[at]
            if line.kind == "user" and line.message_id and shown is not None:
                taken = Editing(shown, line.message_id, line.text, turn_id=line.turn_id)
                self._ask(ev.EditingSet(taken))
                return
        self._ask(ev.NoticeShown("No message of yours above this point to edit and resend"))

    def _has_folder(self) -> bool:
        shown = self._state.shown
        return shown is not None and bool(shown.cwd)

    @Slot()
    def toggleFiles(self) -> None:
        """Whether the folder goes back to that turn's start too (a session with no
        folder has none to put back)."""
        editing = self._state.editing
        if editing is not None and self._has_folder():
            self._ask(ev.EditingSet(editing._replace(files=not editing.files)))

    @Slot()
    def filesOnly(self) -> None:
        """The folder as it was before the message, asked first; no fork, no message."""
        if self._state.editing is not None and self._has_folder():
            self._ask(RestoreFilesOnly())
            self.changesAsked.emit()

    def _words(self) -> str:
        return editing_words(self._state.editing, self._state.current, self._has_folder())

    words = Property(str, _words, notify=changed)
