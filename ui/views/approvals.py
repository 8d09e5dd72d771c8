"""Tool calls waiting for the user: the one the composer shows (the shown session's
oldest) and how many wait elsewhere."""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import events as ev
from nib_desktop.state import intents as it
from nib_desktop.state import store
from nib_desktop.state.intents import Ask
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.types import Approval
from ui.views.rows import qml_uncreatable

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class ApprovalsView(QObject):
    changed = Signal()
    announced = Signal(str)  # said to assistive technology when a call waits here

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.APPROVALS not in change and store.CURRENT not in change:
            return
        if isinstance(event, ev.ApprovalRequested) and event.approval.session_id == (
            self._state.current
        ):
            self.announced.emit(f"{event.approval.tool} waits for your approval")
        self.changed.emit()

    def _shown(self) -> Approval | None:
        shown = self._state.current
        return next((a for a in self._state.approvals if a.session_id == shown), None)

    def _id(self) -> str:
        waiting = self._shown()
        return waiting.approval_id if waiting else ""

    def _tool(self) -> str:
        waiting = self._shown()
        return waiting.tool if waiting else ""

    def _arguments(self) -> str:
        waiting = self._shown()
        return waiting.arguments if waiting else ""

    def _elsewhere(self) -> int:
        shown = self._state.current
        return sum(1 for a in self._state.approvals if a.session_id != shown)

    approvalId = Property(str, _id, notify=changed)
    tool = Property(str, _tool, notify=changed)
    arguments = Property(str, _arguments, notify=changed)
    elsewhere = Property(int, _elsewhere, notify=changed)

    @Slot(str)
    def respond(self, decision: str) -> None:
        """Decide the call shown: allow_once, allow_session or deny."""
        waiting = self._shown()
        if waiting is not None:
            self._ask(it.Answer(waiting.approval_id, decision))
