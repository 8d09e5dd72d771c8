"""The Tools view: every MCP server and plugin with its state."""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, Signal
from PySide6.QtQml import QmlElement

from nib_desktop.state import events as ev
from nib_desktop.state import store
from nib_desktop.state.intents import Ask
from nib_desktop.state.store import AppState, Change
from ui.views.rows import ToolSourceModel, qml_uncreatable

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class ToolsView(QObject):
    failedChanged = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)
        self.model = ToolSourceModel(self)
        self._failed = 0

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.TOOLS not in change:
            return
        sources = self._state.tools
        self.model.set_rows(list(sources))
        failed = sum(1 for s in sources if s.state == "failed")
        if failed != self._failed:
            self._failed = failed
            self.failedChanged.emit()

    def _sources(self) -> ToolSourceModel:
        return self.model

    def _failed_count(self) -> int:
        return self._failed

    sources = Property(ToolSourceModel, _sources, constant=True)
    failed = Property(int, _failed_count, notify=failedChanged)  # servers and plugins
