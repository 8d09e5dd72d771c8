"""Remote sessions served for real (contract section 14): every remote host the local host
links to, and the remote sessions' methods.

Every remote session is a local row (its endpoint and the remote's session id) and a
mirror of what its host last said (running turn, checklist revision, newest message).
Requests on a remote session are carried out on its host with the remote session id;
notifications from the host reach local clients under the local session id. Nothing of a
remote session's transcript or checklist is ever read from the local database.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.protocol.methods import Method
from host.remote.bounds import unbounded
from host.remote.catch_up import TODOS, Mirror, catch_up_session
from host.remote.connection import RemoteDown
from host.remote.link import RemoteHost
from host.remote.whole import NEEDS, lacking, localised
from host.sessions.library import export_target, write_export
from host.sessions.service import SessionService

P = TypeVar("P", bound=m.Wire)
R = TypeVar("R", bound=m.Wire)


class RemoteSessions:
    """Every remote host the local host links to, and the remote sessions' methods."""

    def __init__(self, sessions: SessionService, publisher: Publisher) -> None:
        self._sessions = sessions
        self._publisher = publisher
        self._hosts: dict[str, RemoteHost] = {}
        self._where: dict[str, tuple[RemoteHost, str]] = {}  # local id -> host, remote id
        self.remote_approvals: dict[str, RemoteHost] = {}  # waiting on a remote host
        self.remote_asked: dict[str, list[m.ApprovalRequested]] = {}  # as told here
        self.remote_forms: dict[str, RemoteHost] = {}  # an agent's ask waiting on a host
        self.remote_form_sessions: dict[str, str] = {}  # ... and its remote session

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
                # its agent, folder and worktree are the remote machine's (section 19)
                update |= {"agent": remote.agent, "cwd": remote.cwd, "worktree": remote.worktree}
                parents = host.locals.get(remote.parent_id or "")
                if parents:  # a fork of a session linked here: its parent is that one
                    update["parent_id"] = min(parents)
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
                for need, asked in (
                    ("agents", params.agent != m.NIB_AGENT),
                    ("worktrees", params.worktree is not None),
                ):
                    if asked and need not in host.capabilities:
                        raise lacking(host.parsed.label(), need)
                # the agent, the folder and the worktree are the remote machine's
                create = params.model_copy(update={"remote": None})
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
                await catch_up_session(host, host.connection, remote_id, mirror, remote)
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

    async def answer(
        self, params: m.AnswerParams, local: Callable[[m.AnswerParams], m.OkResult]
    ) -> m.OkResult:
        """A form or URL a remote host's agent asked for is answered there; any other,
        here."""
        host = self.remote_forms.get(params.ask_id)
        if host is None:
            return local(params)
        return await host.call(rpc.AGENTS_ANSWER, params)

    def forget(self, local_id: str) -> None:
        """The local row of a remote session was deleted (the remote session stays)."""
        where = self._where.pop(local_id, None)
        if where is not None:
            where[0].detach(local_id)

    async def carry(self, method: Method[P, R], params: P) -> R:
        """`method` on a remote session, carried out on its host (section 19) and
        answered under the local id; -32011 naming what the host lacks."""
        session_id: str = getattr(params, "session_id")  # noqa: B009
        host, remote_id = self._where[session_id]
        need = NEEDS[method.name]
        if need:
            host.live()  # unreachable first: its capabilities may be stale
            if need not in host.capabilities:
                raise lacking(host.parsed.label(), need)
        if isinstance(params, m.ExportParams):
            return await self._export(params, host, remote_id)  # type: ignore[return-value]
        remote_params = params.model_copy(update={"session_id": remote_id})
        try:
            result = await host.call(method, remote_params)
        except errors.MethodNotFound:  # a host of this round without the project's method
            raise errors.RemoteSession(
                f"{host.parsed.label()} does not share {method.name} (an older Nib host)"
            ) from None
        problem = unbounded(result)
        if problem is not None:  # answered as the host would have refused to write it
            raise errors.RemoteUnreachable(f"{host.parsed.label()} answered {problem}")
        if isinstance(result, m.Session) and result.id != remote_id:  # a fork, a rewind
            return await self._adopt(host, result)  # type: ignore[return-value]
        if isinstance(result, m.Session) and isinstance(params, m.RenameParams):
            self._sessions.retitle(session_id, params.title)  # named by the user, here too
            return self._sessions.get(session_id)  # type: ignore[return-value]
        if isinstance(result, m.Session):
            return self._sessions.get(session_id)  # type: ignore[return-value]
        return localised(result, remote_id, session_id)

    async def agents(self, endpoint: str) -> m.AgentsList:
        """The agents of a remote host's own settings.json (section 19)."""
        host = self._host(endpoint.strip())
        try:
            connection = await host.ready()
            if "agents" not in host.capabilities:
                raise lacking(host.parsed.label(), "agents")
            return await host.call(rpc.AGENTS_LIST, m.AgentsListParams(), connection)
        finally:
            host.close_when_idle()

    async def check_folder(self, endpoint: str, cwd: str) -> m.FolderChecked:
        """A folder typed for a new session there, checked on that machine; a host that
        cannot check one (an older Nib host) is said to, and the folder is checked when
        the session is made."""
        host = self._host(endpoint.strip())
        try:
            connection = await host.ready()
            try:
                return await host.call(rpc.FOLDERS_CHECK, m.FolderCheckParams(cwd=cwd), connection)
            except errors.MethodNotFound:
                return m.FolderChecked(problem="", repository=False)
        finally:
            host.close_when_idle()

    async def _adopt(self, host: RemoteHost, remote: m.Session) -> m.Session:
        """A session the remote host made from one linked here (a fork, a rewind): a
        local row attached to it, told like any new session."""
        mirror = host.mirrors.setdefault(remote.id, Mirror())
        mirror.session, mirror.running_turn_id = remote, remote.running_turn_id
        local = self._sessions.create(
            m.CreateSessionParams(
                title=f"{remote.title} on {host.parsed.label()}"[:500],
                mode=remote.mode,
                remote=m.RemoteTarget(endpoint=host.endpoint, remote_session_id=remote.id),
            )
        )
        self._attach(local.id, host.endpoint, remote.id)
        if host.connection is not None and mirror.last_seq is None:
            with contextlib.suppress(RemoteDown, errors.RpcError):
                await catch_up_session(host, host.connection, remote.id, mirror, remote)
        return self._sessions.get(local.id)

    async def _export(self, params: m.ExportParams, host: RemoteHost, remote_id: str) -> m.Exported:
        """A remote session written as Markdown on this machine, where the user chose
        the file: its transcript, checklist and history read from its host."""
        target = export_target(params)
        here = params.session_id
        messages: list[m.Message] = []
        before: int | None = None
        while True:
            asked = m.MessageListParams(session_id=remote_id, before_seq=before, limit=200)
            page = await host.call(rpc.MESSAGES_LIST, asked)
            messages[:0] = page.messages
            if not page.has_more or not page.messages:
                break
            before = page.messages[0].seq
        ref = m.SessionRef(session_id=remote_id)
        snapshot = await host.call(rpc.TODOS_GET, ref)
        revisions: list[m.TodoRevision] = []
        older: int | None = None
        while True:
            history = m.TodoHistoryParams(session_id=remote_id, before_revision=older, limit=100)
            listed = await host.call(rpc.TODOS_HISTORY, history)
            revisions.extend(listed.revisions)
            if not listed.has_more or not listed.revisions:
                break
            older = listed.revisions[-1].revision
        return write_export(
            target,
            self._sessions.get(here),
            [localised(message, remote_id, here) for message in messages],
            localised(snapshot, remote_id, here),
            [localised(revision, remote_id, here) for revision in revisions[::-1]],
        )

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
