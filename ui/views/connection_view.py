"""The host connection's state: starting, ready, reconnecting, or failed with why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class ConnectionView(QObject):
    """ "starting", "ready", "reconnecting" or "failed" (with the reason and the host's
    last lines)."""

    changed = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.CONNECTION in change:
            self.changed.emit()

    def _state_name(self) -> str:
        return self._state.connection

    def _error(self) -> str:
        return self._state.connection_error

    state = Property(str, _state_name, notify=changed)
    error = Property(str, _error, notify=changed)

    @Slot()
    def retry(self) -> None:
        self._ask(it.Retry())
