"""Contract section 15's wire types: the configured external ACP agents and their state.
Reached as `models.X`, like every wire type."""

from typing import Annotated, Literal

from pydantic import StringConstraints

from host.protocol.wire import Wire

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


class AgentSessionsParams(Wire):
    """`agents.sessions` (section 20): the agent's own sessions for a folder."""

    agent: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
    cwd: Annotated[str, StringConstraints(min_length=1, max_length=4096)] | None = None
    cursor: Annotated[str, StringConstraints(max_length=2000)] | None = None


class AgentSessionInfo(Wire):
    agent_session_id: str
    title: str | None
    cwd: str
    updated_at: str | None
    imported: str | None  # the Nib session bound to it


class AgentSessions(Wire):
    sessions: tuple[AgentSessionInfo, ...]
    next_cursor: str | None


class ImportParams(Wire):
    agent: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
    agent_session_id: Annotated[str, StringConstraints(min_length=1, max_length=500)]
    cwd: Annotated[str, StringConstraints(min_length=1, max_length=4096)]
