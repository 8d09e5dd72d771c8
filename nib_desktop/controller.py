"""The main-window controller as QML sees it: one registered type with an explicit set of
properties and slots.

It holds what the window shows (the sessions, the current session, its transcript, the
connection state) and the renderer's snapshot store and dock model. `todosChanged` is the
one typed signal through which checklist snapshots reach the store. The host-facing half,
`nib_desktop.bridge.HostBridge`, attaches itself and carries out the slots; this module
imports nothing of the host, so the window can be on screen before the protocol loads.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from ui.models import (
    SessionListModel,
    SessionRow,
    TodoDockModel,
    TranscriptModel,
    qml_uncreatable,
)
from ui.snapshots import SnapshotStore

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


class Actions(Protocol):
    """What the slots ask of the bridge."""

    def new_session(self, mode: str) -> None: ...
    def attach_remote(self, endpoint: str, remote_session_id: str) -> None: ...
    def fork(self) -> None: ...
    def delete_session(self, session_id: str) -> None: ...
    def select_session(self, session_id: str) -> None: ...
    def send(self, text: str) -> None: ...
    def cancel(self) -> None: ...
    def retry(self) -> None: ...
    def recover(self, session_id: str) -> None: ...


@QmlElement
@qml_uncreatable("made by the application")
class MainController(QObject):
    todosChanged = Signal(object)  # ui.snapshots.Snapshot, in commit order
    connectionChanged = Signal()
    currentChanged = Signal()
    notice = Signal(str)  # a short message for the user (a failed action)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._actions: Actions | None = None
        self.store = SnapshotStore(self._recover)
        self.todosChanged.connect(self.store.apply)
        self.sessions_model = SessionListModel(self)
        self.transcript_model = TranscriptModel(self)
        self.dock_model = TodoDockModel(self.store, self)
        self._current: SessionRow | None = None
        self._state = "starting"
        self._error = ""

    def attach(self, actions: Actions) -> None:
        self._actions = actions

    # --- what the bridge sets ---------------------------------------------------------

    @property
    def connection_state(self) -> str:
        return self._state

    def set_connection(self, state: str, error: str = "") -> None:
        if (state, error) != (self._state, self._error):
            self._state, self._error = state, error
            self.connectionChanged.emit()

    def set_current(self, current: SessionRow | None) -> None:
        """The session on screen (a row of the sessions list), or none."""
        previous, self._current = self._current, current
        if current is None:
            self.dock_model.show_session(None, False, False)
        elif previous is None or previous.sessionId != current.sessionId:
            self.dock_model.show_session(current.sessionId, current.remote, current.running)
        else:
            self.dock_model.set_running(current.running)
        if previous != current:
            self.currentChanged.emit()

    def _recover(self, session_id: str) -> None:
        if self._actions is not None:
            self._actions.recover(session_id)

    # --- what QML reads -----------------------------------------------------------------

    def _get_sessions(self) -> SessionListModel:
        return self.sessions_model

    def _get_transcript(self) -> TranscriptModel:
        return self.transcript_model

    def _get_dock(self) -> TodoDockModel:
        return self.dock_model

    def _get_state(self) -> str:
        return self._state

    def _get_error(self) -> str:
        return self._error

    def _get_current_id(self) -> str:
        return self._current.sessionId if self._current else ""

    def _get_current_title(self) -> str:
        return self._current.title if self._current else ""

    def _get_current_mode(self) -> str:
        return self._current.mode if self._current else "agent"

    def _get_current_remote(self) -> bool:
        return self._current is not None and self._current.remote

    def _get_current_running(self) -> bool:
        return self._current is not None and self._current.running

    sessions = Property(SessionListModel, _get_sessions, constant=True)
    transcript = Property(TranscriptModel, _get_transcript, constant=True)
    dock = Property(TodoDockModel, _get_dock, constant=True)
    connectionState = Property(str, _get_state, notify=connectionChanged)
    connectionError = Property(str, _get_error, notify=connectionChanged)
    currentSessionId = Property(str, _get_current_id, notify=currentChanged)
    currentTitle = Property(str, _get_current_title, notify=currentChanged)
    currentMode = Property(str, _get_current_mode, notify=currentChanged)
    currentRemote = Property(bool, _get_current_remote, notify=currentChanged)
    currentRunning = Property(bool, _get_current_running, notify=currentChanged)

    # --- the slots QML may call (nothing happens until the bridge is attached) ---------

    @Slot(str)
    def newSession(self, mode: str) -> None:
        if self._actions is not None:
            self._actions.new_session(mode)

    @Slot(str, str)
    def attachRemote(self, endpoint: str, remote_session_id: str) -> None:
        if self._actions is not None and endpoint.strip() and remote_session_id.strip():
            self._actions.attach_remote(endpoint, remote_session_id)

    @Slot()
    def forkSession(self) -> None:
        if self._actions is not None:
            self._actions.fork()

    @Slot(str)
    def deleteSession(self, session_id: str) -> None:
        if self._actions is not None:
            self._actions.delete_session(session_id)

    @Slot(str)
    def selectSession(self, session_id: str) -> None:
        if self._actions is not None:
            self._actions.select_session(session_id)

    @Slot(str, result=bool)
    def send(self, text: str) -> bool:
        """Start a turn with `text`; False (and the text stays) if it cannot be sent."""
        current = self._current
        busy = current is not None and (current.running or current.remote)
        if self._actions is None or not text.strip() or busy or self._state != "ready":
            return False
        self._actions.send(text)
        return True

    @Slot()
    def cancelTurn(self) -> None:
        if self._actions is not None:
            self._actions.cancel()

    @Slot()
    def retry(self) -> None:
        if self._actions is not None:
            self._actions.retry()
