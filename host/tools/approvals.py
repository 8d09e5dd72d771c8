"""Approvals (contract section 13): an MCP or plugin call waits for the user unless its
server is configured `"approval": "allow"` or the user allowed that tool for the session.

A waiting call is announced with `approvals.requested`; `approvals.respond` decides it
(and `approvals.resolved` tells every client); cancelling the turn resolves its pending
approvals as "cancelled". "Allow for this session" lasts while the host runs.

An ACP agent's request carries the agent's own options (`ask_agent`): the user picks one
by its `optionId`, and the agent gets exactly that one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from host.clock import new_id
from host.events import Publisher
from host.execution_path import ExecutionContext
from host.protocol import errors, methods as rpc, models as m

MAX_SHOWN_ARGUMENTS = 4000  # characters of arguments an approval shows


@dataclass
class _Pending:
    request: m.ApprovalRequested
    answer: asyncio.Future[tuple[str, str | None]]  # the decision, the agent's option


class Approvals:
    def __init__(self, publisher: Publisher) -> None:
        self._publisher = publisher
        self._pending: dict[str, _Pending] = {}
        # (session id, tool, input): what "allow for the session" covers
        self._allowed: set[tuple[str, str, str]] = set()

    async def ask(self, ctx: ExecutionContext, tool: str, arguments: str) -> str:
        """The user's decision for an MCP or plugin call: "allow_once", "allow_session" or
        "deny". An allowance for the session covers this tool (a name the host knows)."""
        decision, _ = await self._ask(ctx, tool, arguments, (ctx.session_id, tool, ""), ())
        return decision

    async def ask_agent(
        self,
        ctx: ExecutionContext,
        tool: str,
        arguments: str,
        options: tuple[m.ApprovalOption, ...],
        asked: m.ToolActivity | None = None,
    ) -> tuple[str, str | None]:
        """An ACP agent's permission request: the decision and, where the user picked
        one, the agent's option. A call allowed for the session before (the contract's
        `allow_session`, no option picked) is covered only with this `tool` and exactly
        these `arguments` (the title is the agent's free text): never a call the user did
        not see. An agent's own option picked by the user leaves Nib nothing to remember:
        its lasting permissions are the agent's, kept as the agent scopes them."""
        key = (ctx.session_id, tool, arguments)
        return await self._ask(ctx, tool, arguments, key, options, asked)

    async def _ask(
        self,
        ctx: ExecutionContext,
        tool: str,
        arguments: str,
        key: tuple[str, str, str],
        options: tuple[m.ApprovalOption, ...],
        asked: m.ToolActivity | None = None,
    ) -> tuple[str, str | None]:
        """Cancelled with the turn, the approval is resolved as "cancelled"."""
        if key in self._allowed:
            return "allow_session", None
        shown = arguments
        if len(shown) > MAX_SHOWN_ARGUMENTS:
            shown = shown[:MAX_SHOWN_ARGUMENTS] + f"… ({len(arguments)} characters in all)"
        request = m.ApprovalRequested(
            approval_id=new_id(),
            session_id=ctx.session_id,
            turn_id=ctx.turn_id,
            tool=tool,
            arguments=shown,
            options=options,
            activity=asked,
        )
        answer: asyncio.Future[tuple[str, str | None]] = asyncio.get_running_loop().create_future()
        self._pending[request.approval_id] = _Pending(request, answer)
        self._publisher.publish(rpc.APPROVALS_REQUESTED, request)
        try:
            decision, option = await answer
        except asyncio.CancelledError:
            if self._pending.pop(request.approval_id, None) is not None:
                self._resolved(request.approval_id, "cancelled")
            raise
        if decision == "allow_session" and option is None:
            self._allowed.add(key)  # a picked agent option is the agent's to keep, not Nib's
        return decision, option

    def waiting(self) -> list[m.ApprovalRequested]:
        """Every approval still waiting for the user, oldest first (told again to a
        client that connects: section 19)."""
        return [entry.request for entry in self._pending.values() if not entry.answer.done()]

    def respond(self, params: m.ApprovalRespondParams) -> m.OkResult:
        entry = self._pending.get(params.approval_id)
        if entry is None or entry.answer.done():
            self._pending.pop(params.approval_id, None)
            raise errors.ApprovalNotPending(
                f"approval {params.approval_id!r} is not waiting (unknown or already decided)"
            )
        if params.option_id is not None:
            _check_option(entry.request, params)
        self._pending.pop(params.approval_id)
        entry.answer.set_result((params.decision, params.option_id))
        self._resolved(params.approval_id, params.decision)
        return m.OkResult()

    def _resolved(self, approval_id: str, decision: str) -> None:
        self._publisher.publish(
            rpc.APPROVALS_RESOLVED,
            m.ApprovalResolved.model_validate({"approvalId": approval_id, "decision": decision}),
        )


def _check_option(request: m.ApprovalRequested, params: m.ApprovalRespondParams) -> None:
    """An option the request offered, with the decision it carries: -32602 otherwise
    (the approval still waits)."""
    option = next((o for o in request.options if o.option_id == params.option_id), None)
    if option is None:
        offered = ", ".join(repr(o.option_id) for o in request.options) or "none"
        raise errors.InvalidParams(
            f"optionId {params.option_id!r} is not one this approval offers (offered: {offered})"
        )
    carries = m.OPTION_DECISION[option.kind]
    if params.decision != carries:
        raise errors.InvalidParams(
            f"option {option.name!r} is the agent's {option.kind} option: its decision is "
            f"{carries!r}, not {params.decision!r}"
        )
