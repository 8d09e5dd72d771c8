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
        self._failed = ""

    def _changed(self, event: ev.Event, change: Change) -> None:
        if not ({store.TOOLS, store.AGENTS, store.CURRENT, store.SESSIONS} & change.aspects):
            return
        if store.TOOLS in change or store.AGENTS in change:
            self.model.set_rows(list(agent_sources(self._state.agents) + self._state.tools))
        failed = self._failed_words()
        if failed != self._failed:
            self._failed = failed
            self.failedChanged.emit()

    def _failed_words(self) -> str:
        """What failed of what the shown session uses, in words ("" for nothing): an
        agent's session, its agent; a session of the host's own agent, the MCP servers
        and plugins its turns call. Another session's trouble is not said here."""
        shown = self._state.shown
        if shown is not None and shown.agent:
            agent = next((a for a in self._state.agents if a.name == shown.agent), None)
            return f"{shown.agent} failed" if agent is not None and agent.state == "failed" else ""
        failed = sum(1 for s in self._state.tools if s.state == "failed")
        if not failed:
            return ""
        return "A tool server failed" if failed == 1 else f"{failed} tool servers failed"

    def _sources(self) -> ToolSourceModel:
        return self.model

    def _failed_text(self) -> str:
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
    # what failed of what the shown session uses, in words ("" for nothing)
    failed = Property(str, _failed_text, notify=failedChanged)


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
        rows.append(
            ToolSource(agent.name, "ACP agent", agent.state, agent.error, agent.version, words)
        )
    return tuple(rows)
