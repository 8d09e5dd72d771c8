"""Who is calling a tool: the session, the turn and the execution path."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class ToolOrigin(Enum):
    AGENT = "agent"
    PLAN = "plan"
    GOAL = "goal"
    DELEGATED = "delegated"
    PLUGIN = "plugin"
    MCP = "mcp"


@dataclass(frozen=True)
class ExecutionContext:
    session_id: str
    turn_id: str
    origin: ToolOrigin
