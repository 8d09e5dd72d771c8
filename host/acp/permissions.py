"""An agent's permission request (`session/request_permission`, contract section 15)
answered: it becomes an approval in the composer under the agent's own option names,
and the user's decision goes back as the agent's option that carries it; and the SDK's
client side, which refuses what Nib does not offer (terminals)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from acp import RequestError
from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)
from pydantic import ValidationError

from host.acp.tool_activity import as_text
from host.acp.updates import ToolFields, read_tool_call
from host.acp.with_turn import while_turn_runs
from host.protocol import models as m
from host.protocol.text import shorten, valid_text

if TYPE_CHECKING:
    from host.acp.recorder import Recorder
    from host.tools.approvals import Approvals
    from host.tools.asks import Asks


class Agents(Protocol):
    def running(self, session_id: str) -> Recorder | None: ...
    def approvals(self) -> Approvals: ...
    def asks(self) -> Asks: ...


class Owned(Protocol):
    owned: dict[str, str]  # agent-side session id: Nib's


class AgentProcess(Protocol):
    """What answering a permission request needs of the agent's process."""

    routing: Owned
    agents: Agents

    def break_off(self, why: str) -> None: ...


MAX_NAME = 200  # characters of an agent's name, version or tool title kept


async def answer_permission(
    process: AgentProcess,
    session_id: str,
    tool_call: ToolCallUpdate,
    options: list[PermissionOption],
) -> RequestPermissionResponse:
    cancelled = RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
    nib_session = process.routing.owned.get(session_id)
    if nib_session is None:
        process.break_off("it asked permission for a session it does not own")
        return cancelled
    recorder = process.agents.running(nib_session)
    if recorder is None or recorder.loading or getattr(recorder, "replaying", False):
        process.break_off("it asked permission when no turn of that session was running")
        return cancelled
    title = shorten(tool_call.title or tool_call.kind or "a tool", MAX_NAME)
    raw = "" if tool_call.raw_input is None else as_text(tool_call.raw_input)
    offered = offered_options(options)
    try:
        fields = read_tool_call(tool_call.model_dump(by_alias=True, exclude_none=True))
    except ValidationError:  # asked all the same: by its title and input only
        fields = ToolFields(tool_call_id=tool_call.tool_call_id)
    asked = recorder.asked(fields)
    answered = await while_turn_runs(
        recorder,
        process.agents.approvals().ask_agent(recorder.ctx, title, raw, offered, asked),
    )
    if answered is None:
        return cancelled
    decision, picked = answered
    kinds = {o.option_id: o.kind for o in options}
    if decision == "deny" or kinds.get(picked or "", "").startswith("reject"):
        # the user's own answer where they picked one of the agent's ("No, keep planning")
        names = {o.option_id: o.name for o in offered}
        said = names.get(picked or "", "")
        recorder.denied(str(tool_call.tool_call_id or ""), title, said)
    option = picked or choose(options, decision)
    if option is None:
        return cancelled
    return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=option))


# a decision -> the option kinds that carry it, the closest first
_OPTIONS = {
    "allow_once": ("allow_once", "allow_always"),
    "allow_session": ("allow_always", "allow_once"),
    "deny": ("reject_once", "reject_always"),
}


def offered_options(options: list[PermissionOption]) -> tuple[m.ApprovalOption, ...]:
    """The agent's options as the approval shows them: under its own names (valid text,
    one line, cut to fit), at most MAX_APPROVAL_OPTIONS, each id once. An id that could
    not be answered exactly (not valid text, or longer than an id may be) is left out:
    the decision then falls back to the closest option, as section 15 says."""
    offered: dict[str, m.ApprovalOption] = {}
    for option in options[: m.MAX_APPROVAL_OPTIONS]:
        ident = option.option_id
        if not ident or len(ident) > 200 or valid_text(ident) != ident:
            continue
        name = shorten(valid_text(option.name), 200) or option.kind.replace("_", " ")
        offered.setdefault(ident, m.ApprovalOption(option_id=ident, name=name, kind=option.kind))
    return tuple(offered.values())


def choose(options: list[PermissionOption], decision: str) -> str | None:
    """The agent's option for the user's decision (section 15), or None when it offered
    none of that kind (a refusal is then a cancelled request)."""
    for kind in _OPTIONS.get(decision, ()):
        for option in options:
            if option.kind == kind:
                return option.option_id
    return None


class SdkClient:
    """What the SDK calls for the agent's requests (updates come through the transport)."""

    def __init__(self, process: AgentProcess) -> None:
        self._process = process

    async def request_permission(
        self,
        options: list[PermissionOption],
        session_id: str,
        tool_call: ToolCallUpdate,
        **_kwargs: Any,
    ) -> RequestPermissionResponse:
        return await answer_permission(self._process, session_id, tool_call, options)

    async def create_elicitation(self, message: str, mode: Any, **_kwargs: Any) -> Any:
        """A form or a URL the agent needs the user to fill in or open (host/acp/elicitation)."""
        from host.acp.elicitation import answer_elicitation

        return await answer_elicitation(self._process, message, mode)

    async def session_update(self, session_id: str, update: Any, **_kwargs: Any) -> None:
        """Never reached: `LineTransport` hands updates to the process in order."""

    def on_connect(self, _conn: Any) -> None:
        pass

    # Terminals are not advertised (clientCapabilities.terminal is false): the SDK would
    # answer these as if done (null, {}), so each is refused as unknown, as fs/* is.
    async def create_terminal(self, *_args: Any, **_kwargs: Any) -> Any:
        raise RequestError.method_not_found("terminal/create")

    async def terminal_output(self, *_args: Any, **_kwargs: Any) -> Any:
        raise RequestError.method_not_found("terminal/output")

    async def release_terminal(self, *_args: Any, **_kwargs: Any) -> Any:
        raise RequestError.method_not_found("terminal/release")

    async def wait_for_terminal_exit(self, *_args: Any, **_kwargs: Any) -> Any:
        raise RequestError.method_not_found("terminal/wait_for_exit")

    async def kill_terminal(self, *_args: Any, **_kwargs: Any) -> Any:
        raise RequestError.method_not_found("terminal/kill")
