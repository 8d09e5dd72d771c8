"""Contract section 13's wire types: tools beyond the builtins (MCP servers, plugins) and
approvals, with an ACP agent's own options. Reached as `models.X`, like every wire type."""

from typing import Annotated, Literal

from pydantic import (
    StringConstraints,
)

from host.protocol.transcript_models import (
    ToolActivity,
)
from host.protocol.wire import Id, Wire

ServerState = Literal["starting", "ready", "failed", "disabled"]


Decision = Literal["allow_once", "allow_session", "deny"]


class ToolInfo(Wire):
    name: str
    description: str


class ServerInfo(Wire):
    name: str
    state: ServerState
    error: str | None
    tools: tuple[ToolInfo, ...]


class PluginInfo(Wire):
    name: str
    tools: tuple[ToolInfo, ...]
    error: str | None


class ToolsList(Wire):
    servers: tuple[ServerInfo, ...]
    plugins: tuple[PluginInfo, ...]


OptionKind = Literal["allow_once", "allow_always", "reject_once", "reject_always"]


# the decision an agent's option carries on the wire (section 15's mapping, refined)
OPTION_DECISION: dict[str, Decision] = {
    "allow_once": "allow_once", "allow_always": "allow_session",
    "reject_once": "deny", "reject_always": "deny",
}  # fmt: skip


MAX_APPROVAL_OPTIONS = 16


OptionName = Annotated[str, StringConstraints(max_length=200)]


class ApprovalOption(Wire):
    """One answer an ACP agent offers for its permission request, under its own name:
    the window shows these, never a label of Nib's (the project's, refining section 15)."""

    option_id: str
    name: OptionName
    kind: OptionKind


class ApprovalRespondParams(Wire):
    """`optionId` (the project's) picks one of the agent's options exactly; `decision`
    must then be the one that option carries (OPTION_DECISION)."""

    approval_id: Id
    decision: Decision
    option_id: Id | None = None


class ApprovalRequested(Wire):
    approval_id: str
    session_id: str
    turn_id: str
    tool: str
    arguments: str  # as the model wrote them: shown as plain text
    # an ACP agent's own answers (empty for MCP and plugin tools: Nib's three decisions)
    options: tuple[ApprovalOption, ...] = ()
    # what an ACP agent's request asks to do (the project's): its diffs, a command's
    # text, the places it touches, as a finished call's result carries them
    activity: ToolActivity | None = None


class Stale(Wire):
    """The project's `host.stale`: a notification that would have outgrown the frame
    limit was not sent; what it told changed, and is fetched again."""

    notification: str


class ApprovalResolved(Wire):
    approval_id: str
    decision: Literal["allow_once", "allow_session", "deny", "cancelled"]
