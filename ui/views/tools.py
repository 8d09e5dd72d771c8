"""The Tools view: every ACP agent, MCP server and plugin with its state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.tool_types import ToolSource
from nib_desktop.state.types import AgentChoice
from ui.views.rows import ToolSourceModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

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
        if store.TOOLS not in change and store.AGENTS not in change:
            return
        sources = agent_sources(self._state.agents) + self._state.tools
        self.model.set_rows(list(sources))
        failed = sum(1 for s in sources if s.state == "failed")
        if failed != self._failed:
            self._failed = failed
            self.failedChanged.emit()

    def _sources(self) -> ToolSourceModel:
        return self.model

    def _failed_count(self) -> int:
        return self._failed

    @Slot(str)
    def retry(self, name: str) -> None:
        """A failed MCP server, started again now."""
        self._ask(it.RetryServer(name))

    @Slot(str, bool)
    def setDisabled(self, name: str, disabled: bool) -> None:
        """An MCP server disabled (or enabled again) in settings.json."""
        self._ask(it.DisableServer(name, disabled))

    @Slot()
    def openSettings(self) -> None:
        """settings.json, in the desktop's editor for it."""
        self._ask(it.OpenSettings())

    sources = Property(ToolSourceModel, _sources, constant=True)
    failed = Property(int, _failed_count, notify=failedChanged)  # agents, servers, plugins


_AGENT_STATES = {"idle": "not started", "starting": "starting…"}


def agent_sources(agents: tuple[AgentChoice, ...]) -> tuple[ToolSource, ...]:
    """The agents as the Tools view lists them, before the MCP servers and plugins."""
    rows = []
    for agent in agents:
        words = f"ACP agent {agent.name}, {_AGENT_STATES.get(agent.state, agent.state)}"
        if agent.error:
            words += f": {agent.error}"
        elif agent.version:
            words += f", {agent.version}"
        rows.append(ToolSource(agent.name, "ACP agent", agent.state, agent.error,
                               agent.version, words))  # fmt: skip
    return tuple(rows)
