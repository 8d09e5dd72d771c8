"""What the window holds of tool calls waiting for the user and of the tool sources."""

from nib_desktop.state.tuples import NamedTuple


class AgentOption(NamedTuple):
    """One answer an ACP agent offers for its permission request, under its own name."""

    option_id: str
    name: str
    kind: str  # allow_once, allow_always, reject_once, reject_always
    decision: str  # what it carries on the wire: allow_once, allow_session or deny


class Approval(NamedTuple):
    """A tool call waiting for the user (contract section 13). `options`: an ACP agent's
    own answers (section 15, refined); none for MCP and plugin tools, answered with
    Nib's three decisions."""

    approval_id: str
    session_id: str
    tool: str  # e.g. "get_current_time (time)" or a plugin tool's name
    arguments: str
    options: tuple[AgentOption, ...] = ()
    # what it asks to do, shown before the user answers: a diff or a command ("$ ls"),
    # as plain text, and which ("diff", "output"; "" for none)
    detail: str = ""
    detail_kind: str = ""

    def option(self, kinds: tuple[str, ...]) -> AgentOption | None:
        """The agent's first option of the first of `kinds` it offers."""
        return next((o for k in kinds for o in self.options if o.kind == k), None)


class ToolSource(NamedTuple):
    """One MCP server or plugin in the Tools view."""

    name: str
    kind: str  # "MCP server" or "plugin"
    state: str  # starting, ready, failed, disabled (plugins: ready or failed)
    error: str
    tools: str  # the tool names, comma separated
    accessible_name: str
