"""The execution path of a tool call (contract section 7): who is calling, for which
session and turn. TodoWrite is carried out only on the agent path; plan, goal, delegated
sub-agents, plugins and MCP servers (their tools and the model calls they request) run on
paths of their own, where it is refused."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class ExecutionPath(Enum):
    AGENT = "agent"
    PLAN = "plan"
    GOAL = "goal"
    DELEGATED = "delegated"
    PLUGIN = "plugin"
    MCP = "mcp"


PATH_BY_MODE = {
    "agent": ExecutionPath.AGENT,
    "plan": ExecutionPath.PLAN,
    "goal": ExecutionPath.GOAL,
}


class ExecutionContext(NamedTuple):
    session_id: str
    turn_id: str
    path: ExecutionPath
