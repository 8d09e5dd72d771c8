"""The host connection's state: starting, ready, reconnecting, or failed with why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, QTimer, Signal, Slot
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
    last lines), and whether the window says so (`shown`).

    A start takes well under a second: saying "Starting the host…" for that moment would
    flash a bar and move the window's content twice at every launch. The first start is
    told only once it has taken `QUIET_MS`; a reconnection, a failure and a start after
    them (Retry) are told at once. The bar is made only while it is shown."""

    QUIET_MS = 1000
    changed = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        # the first start, until it has taken QUIET_MS or anything else was seen
        self._quiet = state.connection == "starting"
        if self._quiet:
            QTimer.singleShot(self.QUIET_MS, self, self._slow_start)
        state.subscribe(self._changed)

    def _slow_start(self) -> None:
        if self._quiet:
            self._quiet = False
            self.changed.emit()

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.CONNECTION in change:
            if self._state.connection != "starting":
                self._quiet = False
            self.changed.emit()

    def _shown(self) -> bool:
        return self._state.connection != "ready" and not (
            self._quiet and self._state.connection == "starting"
        )

    def _state_name(self) -> str:
        return self._state.connection

    def _error(self) -> str:
        return self._state.connection_error

    state = Property(str, _state_name, notify=changed)
    shown = Property(bool, _shown, notify=changed)
    error = Property(str, _error, notify=changed)

    @Slot()
    def retry(self) -> None:
        self._ask(it.Retry())
