"""The link to one remote host (contract section 14): kept connected while any session is
attached to it, reconnecting with back-off when it is lost; what the host sends is
checked against the bounds and forwarded under the local session ids.

After a reconnect the link catches up (`catch_up`) before it says "connected"; what the
remote sends meanwhile waits and goes through the same gates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol, TypeVar

from host.protocol import errors, methods as rpc, models as m
from host.protocol.methods import Method
from host.protocol.remote import RemoteEndpoint, parse_endpoint
from host.remote.bounds import (
    MAX_QUEUED,
    MAX_QUEUED_BYTES,
    MAX_REMOTE_APPROVALS,
    cut,
    unbounded,
    weight,
)
from host.remote.catch_up import TODOS, Mirror, catch_up
from host.remote.connection import RacpConnection, RemoteDown
from host.remote.whole import localised

log = logging.getLogger(__name__)

P = TypeVar("P", bound=m.Wire)
R = TypeVar("R", bound=m.Wire)

FIRST_RETRY_S = 0.5
MAX_RETRY_S = 30.0
HEALTHY_S = 30.0  # a link that lasted this long resets the back-off
# a host that does not answer at all (down, restarting, its socket gone) is tried again
# at least this often, so it is linked within about a second of being back
DOWN_RETRY_S = 1.0
CONNECT_WAIT_S = 9.0  # what an attach waits for a host it has not reached yet
IDLE_CLOSE_S = 60.0  # a host no session is attached to (after listing its sessions)
CALL_S = 30.0


def after_loss(delay: float, lasted: float) -> tuple[float, float]:
    """After a link that lasted `lasted` seconds was lost: how long to wait before the
    next attempt, and the back-off after that. Only a healthy link (HEALTHY_S or more)
    resets the back-off: a peer that breaks each link right after its handshake is not
    reconnected ever faster."""
    if lasted >= HEALTHY_S:
        return 0.0, FIRST_RETRY_S
    return delay, min(delay * 2, MAX_RETRY_S)


def after_no_answer(pause: float) -> float:
    """After an attempt nothing answered (the host down or restarting): the pause before
    the next one grows from FIRST_RETRY_S but never past DOWN_RETRY_S, so a host that is
    back is linked within about a second."""
    return min(pause * 2, DOWN_RETRY_S)


class Owner(Protocol):
    """The registry of links, as a link reaches it."""

    remote_approvals: dict[str, RemoteHost]
    remote_asked: dict[str, list[m.ApprovalRequested]]  # as told here, by approval id
    remote_forms: dict[str, RemoteHost]  # an agent's ask waiting on a host, by ask id
    remote_form_sessions: dict[str, str]  # ... and its remote session, by ask id

    def drop(self, host: RemoteHost) -> None: ...
    def publish_session(self, local_id: str) -> None: ...
    def publish(self, note: rpc.Notification[Any], params: m.Wire) -> None: ...


class RemoteHost:
    """The link to one endpoint and the sessions attached through it."""

    def __init__(self, endpoint: str, owner: Owner) -> None:
        self.endpoint = endpoint
        self.parsed: RemoteEndpoint = parse_endpoint(endpoint)
        self._owner = owner
        self.state: m.RemoteState = "connecting"
        self.error: str | None = None
        self.capabilities: tuple[str, ...] = ()
        self.locals: dict[str, set[str]] = {}  # remote session id -> local session ids
        self.mirrors: dict[str, Mirror] = {}
        self.connection: RacpConnection | None = None
        self._wake = asyncio.Event()
        self._attempt: asyncio.Future[None] | None = None
        self._lost: asyncio.Future[str] | None = None
        self._task: asyncio.Task[None] | None = None
        self._queued: list[tuple[RacpConnection, str, m.Wire]] = []
        self._queued_bytes = 0
        self._idle: asyncio.TimerHandle | None = None
        self._closed = False

    # --- lifetime ---------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None and not self._closed:
            self._task = asyncio.ensure_future(self._run())

    def close(self) -> None:
        self._closed = True
        if self._idle is not None:
            self._idle.cancel()
        if self._task is not None:
            self._task.cancel()
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def attach(self, remote_id: str, local_id: str) -> None:
        self.locals.setdefault(remote_id, set()).add(local_id)
        self.mirrors.setdefault(remote_id, Mirror())
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def detach(self, local_id: str) -> None:
        for remote_id, local_ids in list(self.locals.items()):
            local_ids.discard(local_id)
            if not local_ids:
                del self.locals[remote_id]
                self.mirrors.pop(remote_id, None)
        self.close_when_idle()

    def close_when_idle(self) -> None:
        if not self.locals and self._idle is None and not self._closed:
            self._idle = asyncio.get_running_loop().call_later(IDLE_CLOSE_S, self._close_idle)

    def _close_idle(self) -> None:
        self._idle = None
        if not self.locals:
            self._owner.drop(self)

    # --- calls ------------------------------------------------------------------------

    async def ready(self, timeout: float = CONNECT_WAIT_S) -> RacpConnection:
        """The live connection, trying now if there is none; -32012 with the reason if
        the host cannot be reached within `timeout`."""
        self.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.connection is None:
            if self._attempt is None or self._attempt.done():
                self._attempt = loop.create_future()
            attempt = self._attempt
            self._wake.set()
            try:
                await asyncio.wait_for(asyncio.shield(attempt), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise self.unreachable() from None
            if self.connection is None:
                raise self.unreachable()
        return self.connection

    def live(self) -> RacpConnection:
        """The live connection, or -32012 at once (a reconnect is tried now)."""
        if self.connection is None:
            self._wake.set()
            raise self.unreachable()
        return self.connection

    def unreachable(self) -> errors.RemoteUnreachable:
        why = self.error or "it is not connected yet"
        return errors.RemoteUnreachable(
            f"the remote host {self.parsed.label()} is unreachable: {why}",
            {"endpoint": self.endpoint, "state": self.state},
        )

    async def call(
        self,
        method: Method[P, R],
        params: P,
        connection: RacpConnection | None = None,
    ) -> R:
        """`method` on the live connection (or `connection`); a connection that goes
        meanwhile is -32012 with the reason."""
        try:
            return await (connection or self.live()).call(method, params, CALL_S)
        except RemoteDown as down:
            raise errors.RemoteUnreachable(
                f"the remote host {self.parsed.label()} is unreachable: {down.reason}"
            ) from None

    # --- the connection loop ----------------------------------------------------------

    async def _run(self) -> None:
        delay = FIRST_RETRY_S  # after a link is lost soon after it was made: grows
        down = FIRST_RETRY_S  # while nothing answers: at most DOWN_RETRY_S
        while not self._closed:
            loop = asyncio.get_running_loop()
            lost: asyncio.Future[str] = loop.create_future()

            def gone(reason: str, future: asyncio.Future[str] = lost) -> None:
                if not future.done():
                    future.set_result(reason)

            connection = RacpConnection(self.parsed, self._receive, gone)
            try:
                hello = await connection.open()
                self.capabilities = tuple(hello.capabilities)
                await catch_up(self, connection)
            except (RemoteDown, errors.RpcError, TimeoutError) as exc:
                connection.close()
                self._clear_queue()
                reason = getattr(exc, "reason", None) or getattr(exc, "message", None) or str(exc)
                log.info("%s is unreachable: %s", self.parsed.label(), reason)
                self._set_state("unreachable", reason)
                self._attempt_done()
                await self._pause(down)
                down = after_no_answer(down)
                continue
            down = FIRST_RETRY_S
            self.connection = connection
            self._drain(connection)
            self._set_state("connected", None)
            self._attempt_done()
            log.info("connected to %s (capabilities %s)", self.parsed.label(), self.capabilities)
            connected_at = loop.time()
            reason = await lost
            self.connection = None
            log.warning("lost %s: %s", self.parsed.label(), reason)
            self._set_state("unreachable", reason)
            pause, delay = after_loss(delay, loop.time() - connected_at)
            if pause:
                await self._pause(pause)

    async def _pause(self, delay: float) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), delay)

    def _attempt_done(self) -> None:
        if self._attempt is not None and not self._attempt.done():
            self._attempt.set_result(None)

    def _set_state(self, state: m.RemoteState, error: str | None) -> None:
        if (state, error) == (self.state, self.error):
            return
        self.state, self.error = state, error
        for local_ids in list(self.locals.values()):
            for local_id in local_ids:
                self._owner.publish_session(local_id)

    # --- notifications from the remote ------------------------------------------------

    def _receive(self, connection: RacpConnection, name: str, params: m.Wire) -> None:
        if self.connection is connection:
            self._handle(name, params)
            return
        # catching up: held until the link is whole, within a count and a weight; a
        # remote flooding its own catch-up loses the link, and says why
        if isinstance(params, m.MessageAppended):  # held as it would be forwarded
            params = params.model_copy(update={"message": cut(params.message)})
        heavy = weight(params)
        if len(self._queued) >= MAX_QUEUED or self._queued_bytes + heavy > MAX_QUEUED_BYTES:
            reason = (
                f"sent over {len(self._queued)} notifications"
                f" ({self._queued_bytes / 1048576:.0f} MiB) before its catch-up was"
                " answered"
            )
            log.warning("%s %s; the link is dropped", self.parsed.label(), reason)
            self._clear_queue()
            connection.drop(f"the remote host {reason}")
            return
        self._queued.append((connection, name, params))
        self._queued_bytes += heavy

    def _clear_queue(self) -> None:
        self._queued.clear()
        self._queued_bytes = 0

    def _drain(self, connection: RacpConnection) -> None:
        queued = self._queued
        self._queued = []
        self._queued_bytes = 0
        if "sessions" in self.capabilities:  # a host that tells what waits as it is linked
            self._settle_approvals(
                {p.approval_id for _c, _n, p in queued if isinstance(p, m.ApprovalRequested)}
            )
            self._settle_forms({p.ask_id for _c, _n, p in queued if isinstance(p, m.AgentAsked)})
        for source, name, params in queued:
            if source is connection:
                self._handle(name, params)

    def _settle_approvals(self, still: set[str]) -> None:
        """The approvals this host asked that it did not ask again on a new link were
        settled there while the link was down (its turn ended, or was stopped): they
        wait here no longer."""
        for approval_id, host in list(self._owner.remote_approvals.items()):
            if host is self and approval_id not in still:
                del self._owner.remote_approvals[approval_id]
                self._owner.remote_asked.pop(approval_id, None)
                settled = {"approvalId": approval_id, "decision": "cancelled"}
                self._owner.publish(
                    rpc.APPROVALS_RESOLVED, m.ApprovalResolved.model_validate(settled)
                )

    def _settle_forms(self, still: set[str]) -> None:
        """As `_settle_approvals`, for the forms and URLs its agents asked: one not asked
        again was settled there (its turn ended), and is told here as cancelled."""
        for ask_id, host in list(self._owner.remote_forms.items()):
            if host is self and ask_id not in still:
                del self._owner.remote_forms[ask_id]
                remote_id = self._owner.remote_form_sessions.pop(ask_id, "")
                if remote_id in self.locals:
                    ended = m.AgentAnswered(ask_id=ask_id, session_id=remote_id, action="cancel")
                    self._told_as_local(rpc.AGENTS_ANSWERED.name, ended, remote_id)

    def _handle(self, name: str, params: m.Wire) -> None:
        problem = unbounded(params)
        if problem is not None:
            log.warning("%s sent %s %s; not forwarded", self.parsed.label(), name, problem)
            return
        if isinstance(params, m.MessageAppended):
            self.forward_message(params.session_id, params.message)
        elif isinstance(params, m.MessageDelta):
            if params.session_id in self.mirrors:
                for local_id in self.locals.get(params.session_id, ()):
                    delta = params.model_copy(update={"session_id": local_id})
                    self._owner.publish(rpc.MESSAGES_DELTA, delta)
        elif isinstance(params, m.Turn):
            self.forward_turn(params.session_id, params)
        elif isinstance(params, m.TodoSnapshot):
            if TODOS in self.capabilities:
                self.forward_todos(params.session_id, params)
        elif isinstance(params, m.Session):
            mirror = self.mirrors.get(params.id)
            if mirror is not None:
                mirror.session = params
                mirror.running_turn_id = params.running_turn_id
                for local_id in self.locals.get(params.id, ()):
                    self._owner.publish_session(local_id)
        elif isinstance(params, m.ApprovalRequested) and params.session_id in self.locals:
            # a remote turn's tool call waits for the user: asked here, answered there
            waiting = sum(1 for h in self._owner.remote_approvals.values() if h is self)
            if waiting >= MAX_REMOTE_APPROVALS:
                log.warning(
                    "%s has %d approvals waiting; another is refused", self.parsed.label(), waiting
                )
                return
            self._owner.remote_approvals[params.approval_id] = self
            told = [
                params.model_copy(update={"session_id": local_id})
                for local_id in self.locals[params.session_id]
            ]
            self._owner.remote_asked[params.approval_id] = told
            for asked in told:
                self._owner.publish(rpc.APPROVALS_REQUESTED, asked)
        elif isinstance(params, m.ApprovalResolved):
            if self._owner.remote_approvals.pop(params.approval_id, None) is self:
                self._owner.remote_asked.pop(params.approval_id, None)
                self._owner.publish(rpc.APPROVALS_RESOLVED, params)
        elif isinstance(params, m.AgentAsked) and params.session_id in self.locals:
            self._owner.remote_forms[params.ask_id] = self  # answered there (`answer`)
            self._owner.remote_form_sessions[params.ask_id] = params.session_id
            self._told_as_local(name, params, params.session_id)
        elif isinstance(params, m.AgentAnswered) and params.session_id in self.locals:
            self._owner.remote_forms.pop(params.ask_id, None)
            self._owner.remote_form_sessions.pop(params.ask_id, None)
            self._told_as_local(name, params, params.session_id)
        elif isinstance(params, m.SessionDeleted) and params.session_id in self.locals:
            log.warning("%s deleted session %s", self.parsed.label(), params.session_id)
        elif getattr(params, "session_id", None) in self.locals:
            # the rest of section 19: checkpoints, worktrees, the agent's controls, usage
            remote_id: str = getattr(params, "session_id")  # noqa: B009
            self._told_as_local(name, params, remote_id)

    def _told_as_local(self, name: str, params: m.Wire, remote_id: str) -> None:
        """A notification of a remote session told under each local id it has here."""
        note = rpc.NOTIFICATIONS[name]
        for local_id in self.locals[remote_id]:
            self._owner.publish(note, localised(params, remote_id, local_id))

    def forward_message(self, remote_id: str, message: m.Message) -> None:
        mirror = self.mirrors.get(remote_id)
        if mirror is None:
            return
        message = cut(message)
        if mirror.last_seq is not None and message.seq <= mirror.last_seq:
            return  # already forwarded (caught up, then notified)
        mirror.last_seq = message.seq
        for local_id in self.locals.get(remote_id, ()):
            local = message.model_copy(update={"session_id": local_id})
            self._owner.publish(
                rpc.MESSAGES_APPENDED, m.MessageAppended(session_id=local_id, message=local)
            )

    def forward_turn(self, remote_id: str, turn: m.Turn) -> None:
        mirror = self.mirrors.get(remote_id)
        if mirror is None:
            return
        mirror.seen_turns.add(turn.id)
        if turn.state == "running":
            mirror.running_turn_id = turn.id
        elif mirror.running_turn_id == turn.id:
            mirror.running_turn_id = None
        for local_id in self.locals.get(remote_id, ()):
            self._owner.publish(rpc.TURNS_CHANGED, turn.model_copy(update={"session_id": local_id}))

    def forward_todos(self, remote_id: str, snapshot: m.TodoSnapshot) -> None:
        mirror = self.mirrors.get(remote_id)
        if mirror is None:
            return
        if mirror.revision is not None and snapshot.revision <= mirror.revision:
            return  # stale or already forwarded
        mirror.revision = snapshot.revision
        if mirror.session is not None:
            mirror.session = mirror.session.model_copy(
                update={"todo_revision": snapshot.revision, "todo_updated_at": snapshot.updated_at}
            )
        for local_id in self.locals.get(remote_id, ()):
            local = snapshot.model_copy(update={"session_id": local_id})
            self._owner.publish(rpc.TODOS_CHANGED, local)
