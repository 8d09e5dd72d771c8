"""Contract section 17's wire types: what an ACP agent offers to steer its sessions.
Reached as `models.X`, like every wire type."""

from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, StringConstraints, model_serializer

from host.protocol.wire import Id, Switch, Wire

# --- section 17: steering an external agent -----------------------------------------------


class ModeInfo(Wire):
    id: str
    name: str
    description: str = ""


class Modes(Wire):
    current: str
    available: tuple[ModeInfo, ...]


class Choice(Wire):
    value: str
    name: str
    description: str = ""


class OptionInfo(Wire):
    id: str
    name: str
    category: str | None = None
    type: Literal["select", "boolean"]
    current: str | bool
    choices: tuple[Choice, ...] = ()


class CommandInfo(Wire):
    name: str
    description: str = ""
    hint: str | None = None


class PromptKinds(Wire):
    image: bool = False
    audio: bool = False
    embedded_context: bool = False


class Cost(Wire):
    amount: float
    currency: str


class Usage(Wire):
    used: int | None = None
    size: int | None = None
    cost: Cost | None = None


class TerminalSignIn(Wire):
    """A sign-in method that runs the agent in a terminal (ACP's `terminal` auth, the
    project's field): the agent's own command with the method's arguments, and the
    environment to add (the agent's configured one and the method's)."""

    command: tuple[str, ...]
    env: dict[str, str] = Field(default_factory=dict)


class AuthInfo(Wire):
    id: str
    name: str
    description: str = ""
    terminal: TerminalSignIn | None = None  # the project's: a method run in a terminal

    @model_serializer(mode="wrap")
    def _as_told(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """As section 17 writes a method, `terminal` only where there is one."""
        told: dict[str, Any] = handler(self)
        if told.get("terminal", 0) is None:
            del told["terminal"]
        return told


class AgentControls(Wire):
    """What an ACP agent offers to steer one of its sessions, as it last told it."""

    session_id: Id
    modes: Modes | None = None
    options: tuple[OptionInfo, ...] = ()
    commands: tuple[CommandInfo, ...] = ()
    prompt: PromptKinds = PromptKinds()
    usage: Usage | None = None
    auth_methods: tuple[AuthInfo, ...] = ()


class SetModeParams(Wire):
    session_id: Id
    mode_id: Id


class SetOptionParams(Wire):
    session_id: Id
    option_id: Id
    value: Annotated[str, StringConstraints(min_length=1, max_length=500)] | Switch


class AuthenticateParams(Wire):
    agent: Id
    method_id: Id


class SessionUsage(Wire):
    """`sessions.usage` (the project's): how full the context of a session of the host's
    own agent is, in tokens, as its budget counts them after a model step."""

    session_id: str
    used: int
    size: int
