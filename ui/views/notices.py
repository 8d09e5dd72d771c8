"""The notice: the last thing the user asked for that could not be done, in words; or,
for a moment, what was just done ("Restored 3 files")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.store import AppState, Change
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class NoticeView(QObject):
    changed = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.NOTICE in change:
            self.changed.emit()

    def _text(self) -> str:
        return self._state.notice

    def _done(self) -> bool:
        """A success said (in the plain colour, gone by itself), not a failure."""
        return self._state.notice_until == "done"

    text = Property(str, _text, notify=changed)
    done = Property(bool, _done, notify=changed)

    @Slot()
    def dismiss(self) -> None:
        self._ask(ev.NoticeShown(""))
