"""Approvals (contract section 13): an MCP or plugin call waits for the user unless its
server is configured `"approval": "allow"` or the user allowed that tool for the session.

A waiting call is announced with `approvals.requested`; `approvals.respond` decides it
(and `approvals.resolved` tells every client); cancelling the turn resolves its pending
approvals as "cancelled". "Allow for this session" lasts while the host runs.
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
    answer: asyncio.Future[str]


class Approvals:
    def __init__(self, publisher: Publisher) -> None:
        self._publisher = publisher
        self._pending: dict[str, _Pending] = {}
        # (session id, tool, input): what "allow for the session" covers
        self._allowed: set[tuple[str, str, str]] = set()

    async def ask(
        self, ctx: ExecutionContext, tool: str, arguments: str, same_input: bool = False
    ) -> str:
        """The user's decision for this call: "allow_once", "allow_session" or "deny".
        Cancelled with the turn, the approval is resolved as "cancelled". An allowance for
        the session covers this tool (a name the host knows: an MCP or plugin tool), or
        with `same_input` this `tool` and exactly these `arguments` (an ACP agent's call,
        whose title is the agent's free text): never a call the user did not see."""
        key = (ctx.session_id, tool, arguments if same_input else "")
        if key in self._allowed:
            return "allow_session"
        shown = arguments
        if len(shown) > MAX_SHOWN_ARGUMENTS:
            shown = shown[:MAX_SHOWN_ARGUMENTS] + f"… ({len(arguments)} characters in all)"
        request = m.ApprovalRequested(
            approval_id=new_id(), session_id=ctx.session_id, turn_id=ctx.turn_id, tool=tool,
            arguments=shown,
        )  # fmt: skip
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._pending[request.approval_id] = _Pending(request, answer)
        self._publisher.publish(rpc.APPROVALS_REQUESTED, request)
        try:
            decision = await answer
        except asyncio.CancelledError:
            if self._pending.pop(request.approval_id, None) is not None:
                self._resolved(request.approval_id, "cancelled")
            raise
        if decision == "allow_session":
            self._allowed.add(key)
        return decision

    def respond(self, params: m.ApprovalRespondParams) -> m.OkResult:
        entry = self._pending.pop(params.approval_id, None)
        if entry is None or entry.answer.done():
            raise errors.ApprovalNotPending(
                f"approval {params.approval_id!r} is not waiting (unknown or already decided)"
            )
        entry.answer.set_result(params.decision)
        self._resolved(params.approval_id, params.decision)
        return m.OkResult()

    def _resolved(self, approval_id: str, decision: str) -> None:
        self._publisher.publish(
            rpc.APPROVALS_RESOLVED,
            m.ApprovalResolved.model_validate({"approvalId": approval_id, "decision": decision}),
        )
