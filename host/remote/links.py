"""Remote sessions served for real (contract section 14): one link per remote host, kept
connected while any session is attached to it, reconnecting with back-off when it is lost.

Every remote session is a local row (its endpoint and the remote's session id) and a
mirror of what its host last said (running turn, checklist revision, newest message).
Requests on a remote session are carried out on its host with the remote session id;
notifications from the host reach local clients under the local session id. Nothing of a
remote session's transcript or checklist is ever read from the local database.

After a reconnect the link catches up before it says "connected": the transcript from the
newest message it had forwarded, the turn that was running, and the checklist, each gated
(message seq, checklist revision) so that nothing is forwarded twice or out of order; what
the remote sends meanwhile waits and goes through the same gates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from host.events import Publisher
from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.methods import Method
from host.protocol.remote import RemoteEndpoint, parse_endpoint
from host.remote.connection import RacpConnection, RemoteDown
from host.sessions.service import SessionService

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
TODOS = "todos"
# What a remote may push, bounded as local writes are (a remote is untrusted input):
MAX_REVISION = 2**31 - 1  # a checklist revision (the window's integers)
MAX_ITEMS, MAX_TEXT = 200, 500  # section 7's limits on a forwarded checklist
MAX_ID = 200  # ids and timestamps
MAX_MESSAGE = 1024 * 1024  # characters of one forwarded transcript message
MAX_REMOTE_APPROVALS = 100  # approvals one remote host may have waiting here
MAX_ERROR = 2000  # characters of a remote turn's error
MAX_QUEUED = 2000  # notifications held while a link catches up
MAX_QUEUED_BYTES = 16 * 1024 * 1024  # and what they may weigh together (text, roughly)


@dataclass
class Mirror:
    """What the local host knows of one remote session."""

    session: m.Session | None = None
    last_seq: int | None = None  # the newest message forwarded (None: not known yet)
    revision: int | None = None  # the newest checklist revision forwarded
    running_turn_id: str | None = None
    seen_turns: set[str] = field(default_factory=set)


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


class RemoteHost:
    """The link to one endpoint and the sessions attached through it."""

    def __init__(self, endpoint: str, owner: RemoteSessions) -> None:
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
                await self._catch_up(connection)
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

    # --- catching up ------------------------------------------------------------------

    async def _catch_up(self, connection: RacpConnection) -> None:
        for remote_id in list(self.locals):
            mirror = self.mirrors.setdefault(remote_id, Mirror())
            try:
                ref = m.SessionRef(session_id=remote_id)
                session = await connection.call(rpc.SESSIONS_GET, ref)
            except errors.SessionNotFound:
                log.warning("%s has no session %s any more", self.parsed.label(), remote_id)
                continue
            await self.catch_up_session(connection, remote_id, mirror, session)

    async def catch_up_session(
        self, connection: RacpConnection, remote_id: str, mirror: Mirror, session: m.Session
    ) -> None:
        """Forward what `remote_id` did since the mirror was last told (nothing the first
        time: a client loads what exists when it shows the session)."""
        was_running = mirror.running_turn_id
        first = mirror.last_seq is None
        # the transcript since the newest message forwarded
        missed: list[m.Message] = []
        before: int | None = None
        while True:
            page = await connection.call(
                rpc.MESSAGES_LIST,
                m.MessageListParams(session_id=remote_id, before_seq=before, limit=200),
            )
            if first:
                mirror.last_seq = page.messages[-1].seq if page.messages else 0
                break
            newer = [msg for msg in page.messages if msg.seq > (mirror.last_seq or 0)]
            missed[:0] = newer
            if len(newer) < len(page.messages) or not page.has_more or not page.messages:
                break
            before = page.messages[0].seq
        for message in missed:
            self._forward_message(remote_id, message)
        problem = _unbounded(session)
        if problem is not None:  # its row stays as last told (or as stored here)
            log.warning("%s sent its session %s; not used", self.parsed.label(), problem)
            return
        # turns that ended (or started and ended) while the link was down
        recent = m.TurnListParams(session_id=remote_id, limit=5)
        turns = await connection.call(rpc.TURNS_LIST, recent)
        for turn in reversed(turns.turns):
            known = turn.id in mirror.seen_turns
            if not first and (turn.id == was_running or not known) and turn.state != "running":
                self._forward_turn(remote_id, turn)
            mirror.seen_turns.add(turn.id)
        mirror.session = session
        mirror.running_turn_id = session.running_turn_id
        if session.running_turn_id is not None and session.running_turn_id != was_running:
            running = next((t for t in turns.turns if t.id == session.running_turn_id), None)
            if running is not None and not first:
                self._forward_turn(remote_id, running)
        if TODOS in connection.capabilities:
            snapshot = await connection.call(rpc.TODOS_GET, m.SessionRef(session_id=remote_id))
            if _unbounded(snapshot) is None:
                self._forward_todos(remote_id, snapshot)

    # --- notifications from the remote ------------------------------------------------

    def _receive(self, connection: RacpConnection, name: str, params: m.Wire) -> None:
        if self.connection is connection:
            self._handle(name, params)
            return
        # catching up: held until the link is whole, within a count and a weight; a
        # remote flooding its own catch-up loses the link, and says why
        if isinstance(params, m.MessageAppended):  # held as it would be forwarded
            params = params.model_copy(update={"message": _cut(params.message)})
        weight = _weight(params)
        if len(self._queued) >= MAX_QUEUED or self._queued_bytes + weight > MAX_QUEUED_BYTES:
            reason = (f"sent over {len(self._queued)} notifications"
                      f" ({self._queued_bytes / 1048576:.0f} MiB) before its catch-up was"
                      " answered")  # fmt: skip
            log.warning("%s %s; the link is dropped", self.parsed.label(), reason)
            self._clear_queue()
            connection.drop(f"the remote host {reason}")
            return
        self._queued.append((connection, name, params))
        self._queued_bytes += weight

    def _clear_queue(self) -> None:
        self._queued.clear()
        self._queued_bytes = 0

    def _drain(self, connection: RacpConnection) -> None:
        queued = self._queued
        self._queued = []
        self._queued_bytes = 0
        for source, name, params in queued:
            if source is connection:
                self._handle(name, params)

    def _handle(self, name: str, params: m.Wire) -> None:
        problem = _unbounded(params)
        if problem is not None:
            log.warning("%s sent %s %s; not forwarded", self.parsed.label(), name, problem)
            return
        if isinstance(params, m.MessageAppended):
            self._forward_message(params.session_id, params.message)
        elif isinstance(params, m.MessageDelta):
            if params.session_id in self.mirrors:
                for local_id in self.locals.get(params.session_id, ()):
                    local = params.model_copy(update={"session_id": local_id})
                    self._owner.publish(rpc.MESSAGES_DELTA, local)
        elif isinstance(params, m.Turn):
            self._forward_turn(params.session_id, params)
        elif isinstance(params, m.TodoSnapshot):
            if TODOS in self.capabilities:
                self._forward_todos(params.session_id, params)
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
                log.warning("%s has %d approvals waiting; another is refused",
                            self.parsed.label(), waiting)  # fmt: skip
                return
            self._owner.remote_approvals[params.approval_id] = self
            for local_id in self.locals[params.session_id]:
                self._owner.publish(
                    rpc.APPROVALS_REQUESTED, params.model_copy(update={"session_id": local_id})
                )
        elif isinstance(params, m.ApprovalResolved):
            if self._owner.remote_approvals.pop(params.approval_id, None) is self:
                self._owner.publish(rpc.APPROVALS_RESOLVED, params)
        elif isinstance(params, m.SessionDeleted) and params.session_id in self.locals:
            log.warning("%s deleted session %s", self.parsed.label(), params.session_id)

    def _forward_message(self, remote_id: str, message: m.Message) -> None:
        mirror = self.mirrors.get(remote_id)
        if mirror is None:
            return
        message = _cut(message)
        if mirror.last_seq is not None and message.seq <= mirror.last_seq:
            return  # already forwarded (caught up, then notified)
        mirror.last_seq = message.seq
        for local_id in self.locals.get(remote_id, ()):
            local = message.model_copy(update={"session_id": local_id})
            self._owner.publish(
                rpc.MESSAGES_APPENDED, m.MessageAppended(session_id=local_id, message=local)
            )

    def _forward_turn(self, remote_id: str, turn: m.Turn) -> None:
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

    def _forward_todos(self, remote_id: str, snapshot: m.TodoSnapshot) -> None:
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


def _cut(message: m.Message) -> m.Message:
    """A remote's message as it is forwarded: its first MAX_MESSAGE characters."""
    if len(message.content) <= MAX_MESSAGE:
        return message
    whole = len(message.content)
    content = message.content[:MAX_MESSAGE] + f"… ({whole} characters in all)"
    return message.model_copy(update={"content": content})


def _weight(params: m.Wire) -> int:
    """Roughly what a notification held in memory weighs: its text, in characters, and
    256 for the rest of it."""
    if isinstance(params, m.MessageAppended):
        message = params.message
        calls = sum(len(c.arguments) + len(c.name) for c in message.tool_calls)
        return 256 + len(message.content) + calls
    if isinstance(params, m.TodoSnapshot):
        return 256 + sum(len(i.content) + len(i.active_form or "") for i in params.items)
    if isinstance(params, m.ApprovalRequested):
        return 256 + len(params.arguments) + len(params.tool)
    if isinstance(params, m.Session):
        return 256 + len(params.title) + len(params.updated_at)
    if isinstance(params, m.Turn):
        return 256 + len(params.error or "")
    return 256


def _unbounded(params: m.Wire) -> str | None:
    """What makes a remote's notification unusable here (beyond what a local write may
    be, or the window's integers), in words; None when it is within bounds."""
    if isinstance(params, m.TodoSnapshot):
        if not 0 <= params.revision <= MAX_REVISION:
            return f"with revision {params.revision}, out of range"
        if len(params.items) > MAX_ITEMS:
            return f"with {len(params.items)} items (at most {MAX_ITEMS})"
        for item in params.items:
            if not item.content.strip() or len(item.content) > MAX_TEXT:
                return f"with an item of {len(item.content)} characters (1 to {MAX_TEXT})"
            if item.active_form is not None and len(item.active_form) > MAX_TEXT:
                return f"with an activeForm of {len(item.active_form)} characters"
    elif isinstance(params, m.Session):
        if not 0 <= params.todo_revision <= MAX_REVISION:
            return f"with revision {params.todo_revision}, out of range"
        fields = (params.id, params.created_at, params.updated_at, params.todo_updated_at or "",
                  params.running_turn_id or "", params.parent_id or "")  # fmt: skip
        if len(params.title) > MAX_TEXT or any(len(f) > MAX_ID for f in fields):
            return "with a field over its size"
    elif isinstance(params, m.Turn):
        if len(params.error or "") > MAX_ERROR or any(
            len(f) > MAX_ID for f in (params.id, params.started_at, params.finished_at or "")
        ):
            return "with a field over its size"
    elif isinstance(params, m.ApprovalRequested) and (
        len(params.arguments) > MAX_MESSAGE or len(params.tool) > MAX_TEXT
    ):
        return "with a field over its size"
    return None


class RemoteSessions:
    """Every remote host the local host links to, and the remote sessions' methods."""

    def __init__(self, sessions: SessionService, publisher: Publisher) -> None:
        self._sessions = sessions
        self._publisher = publisher
        self._hosts: dict[str, RemoteHost] = {}
        self._where: dict[str, tuple[RemoteHost, str]] = {}  # local id -> host, remote id
        self.remote_approvals: dict[str, RemoteHost] = {}  # waiting on a remote host

    def start(self) -> None:
        """Link to every host a stored remote session names (in the running loop)."""
        for session in self._sessions.list():
            if session.remote is not None:
                self._attach(session.id, session.remote.endpoint, session.remote.remote_session_id)
        for host in self._hosts.values():
            host.start()

    async def close(self) -> None:
        for host in list(self._hosts.values()):
            host.close()
        self._hosts.clear()

    def drop(self, host: RemoteHost) -> None:
        host.close()
        if self._hosts.get(host.endpoint) is host:
            del self._hosts[host.endpoint]

    # --- what the session service shows -------------------------------------------------

    def overlay(self, session: m.Session) -> m.Session:
        """A remote session as its host last told: how it is reached, its running turn
        and (with "todos") its checklist revision."""
        if session.remote is None:
            return session
        host = self._hosts.get(session.remote.endpoint.strip())
        if host is None:
            return session
        info = session.remote.model_copy(
            update={"state": host.state, "error": host.error, "capabilities": host.capabilities}
        )
        update: dict[str, Any] = {"remote": info}
        mirror = host.mirrors.get(session.remote.remote_session_id)
        if mirror is not None:
            update["running_turn_id"] = mirror.running_turn_id
            remote = mirror.session
            if remote is not None:
                update["updated_at"] = max(session.updated_at, remote.updated_at)
                suffix = f" on {host.parsed.label()}"
                if session.title.endswith(suffix):  # named after it: follows its renames
                    update["title"] = f"{remote.title}{suffix}"[:500]
                if TODOS in host.capabilities:
                    update["todo_revision"] = remote.todo_revision
                    update["todo_updated_at"] = remote.todo_updated_at
        return session.model_copy(update=update)

    def publish_session(self, local_id: str) -> None:
        with contextlib.suppress(errors.SessionNotFound):
            self._publisher.publish(rpc.SESSIONS_CHANGED, self._sessions.get(local_id))

    def publish(self, note: rpc.Notification[Any], params: m.Wire) -> None:
        self._publisher.publish(note, params)

    # --- methods --------------------------------------------------------------------

    def is_remote(self, session_id: str) -> bool:
        return session_id in self._where

    async def create(self, params: m.CreateSessionParams) -> m.Session:
        """Attach a remote session (checked on its host when that can be reached now), or
        create one there; the local row is written only once the remote one exists."""
        target = params.remote
        assert target is not None
        endpoint = target.endpoint.strip()
        host = self._host(endpoint)
        remote: m.Session | None = None
        try:
            if target.remote_session_id is None:
                connection = await host.ready()
                create = m.CreateSessionParams(title=params.title, mode=params.mode)
                remote = await host.call(rpc.SESSIONS_CREATE, create, connection)
            else:
                try:
                    connection = await host.ready()
                except errors.RemoteUnreachable:
                    connection = None  # attached anyway: it is linked when it comes back
                if connection is not None:
                    ref = m.SessionRef(session_id=target.remote_session_id)
                    try:
                        remote = await host.call(rpc.SESSIONS_GET, ref, connection)
                    except errors.SessionNotFound:
                        raise errors.SessionNotFound(
                            f"{host.parsed.label()} has no session {target.remote_session_id!r}"
                        ) from None
        except BaseException:
            host.close_when_idle()
            raise
        remote_id = remote.id if remote is not None else target.remote_session_id
        assert remote_id is not None
        label = host.parsed.label()
        named = remote.title if remote is not None else remote_id
        title = params.title or f"{named} on {label}"
        mirror = host.mirrors.setdefault(remote_id, Mirror())
        if remote is not None:
            mirror.session = remote
            mirror.running_turn_id = remote.running_turn_id
        local = self._sessions.create(
            m.CreateSessionParams(
                title=title[:500],
                mode=remote.mode if remote is not None else params.mode,
                remote=m.RemoteTarget(endpoint=endpoint, remote_session_id=remote_id),
            )
        )
        self._attach(local.id, endpoint, remote_id)
        if host.connection is not None and remote is not None and mirror.last_seq is None:
            with contextlib.suppress(RemoteDown, errors.RpcError):
                await host.catch_up_session(host.connection, remote_id, mirror, remote)
        host.start()
        return self._sessions.get(local.id)

    async def remote_sessions(self, params: m.RemoteSessionsParams) -> m.SessionList:
        host = self._host(params.endpoint.strip())
        try:
            connection = await host.ready()
            return await host.call(rpc.SESSIONS_LIST, m.Empty(), connection)
        finally:
            host.close_when_idle()

    async def respond(
        self,
        params: m.ApprovalRespondParams,
        local: Callable[[m.ApprovalRespondParams], m.OkResult],
    ) -> m.OkResult:
        """An approval asked by a remote host is answered there; any other, here."""
        host = self.remote_approvals.get(params.approval_id)
        if host is None:
            return local(params)
        return await host.call(rpc.APPROVALS_RESPOND, params)

    def forget(self, local_id: str) -> None:
        """The local row of a remote session was deleted (the remote session stays)."""
        where = self._where.pop(local_id, None)
        if where is not None:
            where[0].detach(local_id)

    async def forward(self, method: Method[P, R], params: P) -> R:
        """`method` for a remote session, carried out on its host."""
        session_id: str = getattr(params, "session_id")  # noqa: B009
        host, remote_id = self._where[session_id]
        if method in (rpc.TODOS_GET, rpc.TODOS_HISTORY):
            host.live()  # unreachable first: capabilities may be stale
            if TODOS not in host.capabilities:
                raise errors.RemoteSession(
                    f"the checklist of this session is not shared by {host.parsed.label()}"
                    " (its host speaks RACP v1 without the todos capability)"
                )
        remote_params = params.model_copy(update={"session_id": remote_id})
        result = await host.call(method, remote_params)
        problem = _unbounded(result)
        if problem is not None:  # answered as the host would have refused to write it
            raise errors.RemoteUnreachable(f"{host.parsed.label()} answered {problem}")
        return _localised(result, session_id)

    # ---------------------------------------------------------------------------------

    def _host(self, endpoint: str) -> RemoteHost:
        host = self._hosts.get(endpoint)
        if host is None:
            host = self._hosts[endpoint] = RemoteHost(endpoint, self)
        return host

    def _attach(self, local_id: str, endpoint: str, remote_id: str) -> None:
        host = self._host(endpoint.strip())
        host.attach(remote_id, local_id)
        self._where[local_id] = (host, remote_id)


def _localised(result: R, session_id: str) -> R:
    """A remote's answer with the local session id wherever it names the session."""
    here = {"session_id": session_id}
    if "session_id" in type(result).model_fields:  # Turn, TodoSnapshot
        return result.model_copy(update=here)
    for name in ("turns", "messages", "revisions"):  # TurnList, MessageList, TodoHistory
        if name in type(result).model_fields:
            rows = tuple(row.model_copy(update=here) for row in getattr(result, name))
            return result.model_copy(update={name: rows})
    return result
