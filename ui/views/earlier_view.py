"""An agent's own earlier sessions in the window (contract section 20): listed for a
folder, paged as the agent pages them, each marked when it is in Nib already; the one
chosen opened as a Nib session. Read-only over the state; every action is an intent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.earlier import Earlier, ImportEarlier, ListEarlier
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.store import AppState, Change
from ui.views.rows import EarlierModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class EarlierView(QObject):
    changed = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        self.model = EarlierModel(self)
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if store.EARLIER in change:
            self.model.set_rows(list(self._state.earlier.rows))
            self.changed.emit()

    @Slot(str)
    def choose(self, agent: str) -> None:
        """The agent whose earlier sessions the dialog lists next."""
        self._ask(ev.EarlierListed(Earlier(agent)))

    @Slot(str)
    def listFor(self, folder: str) -> None:
        held = self._state.earlier
        if held.agent:
            self._ask(ListEarlier(held.agent, folder))

    @Slot()
    def more(self) -> None:
        held = self._state.earlier
        if held.agent and held.cursor:
            self._ask(ListEarlier(held.agent, held.folder, more=True))

    @Slot(int)
    def open(self, index: int) -> None:
        held = self._state.earlier
        if 0 <= index < len(held.rows):
            self._ask(ImportEarlier(held.agent, held.rows[index].agent_session_id, held.folder))

    def _agent(self) -> str:
        return self._state.earlier.agent

    def _note(self) -> str:
        held = self._state.earlier
        return "Asking the agent…" if held.loading else held.note

    def _has_more(self) -> bool:
        return bool(self._state.earlier.cursor)

    def _rows(self) -> EarlierModel:
        return self.model

    agent = Property(str, _agent, notify=changed)
    note = Property(str, _note, notify=changed)
    hasMore = Property(bool, _has_more, notify=changed)
    rows = Property(EarlierModel, _rows, constant=True)
