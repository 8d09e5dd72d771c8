"""Contract section 15's wire types: the configured external ACP agents and their state.
Reached as `models.X`, like every wire type."""

from __future__ import annotations

from typing import Literal

from host.protocol.wire import (
    MAX_WIRE_INT as MAX_WIRE_INT,
    Empty as Empty,
    Id as Id,
    Position as Position,
    Switch as Switch,
    Wire as Wire,
)

AgentState = Literal["idle", "starting", "ready", "failed"]


class AgentInfo(Wire):
    """What the agent said of itself in its `initialize` answer."""

    name: str
    version: str


class AgentEntry(Wire):
    name: str
    command: str
    state: AgentState
    error: str | None
    agent_info: AgentInfo | None


class AgentsList(Wire):
    agents: tuple[AgentEntry, ...]
