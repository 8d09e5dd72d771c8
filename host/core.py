"""The host-core assembled: database, services, agent runtime, and the dispatcher that
serves the contract's methods. `host.process` puts it behind a socket."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.config import Secrets
from host.events import Publisher
from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from host.sessions.service import SessionService
from host.store.db import Database, open_database

if TYPE_CHECKING:
    from host.acp.agents import Agents
    from host.agent.runtime import AgentRuntime
    from host.checkpoints.service import Checkpoints
    from host.remote.registry import RemoteSessions
    from host.rpc import Dispatcher, Handler
    from host.settings import Settings
    from host.todos.service import TodoService


def _folder(cwd: str) -> str:
    """A session's working folder (section 15): an absolute path to an existing folder."""
    path = Path(cwd)
    if not path.is_absolute():
        raise errors.InvalidParams(f"cwd must be an absolute path, not {cwd!r}")
    if not path.is_dir():
        raise errors.InvalidParams(f"cwd {cwd!r} is not an existing folder")
    return str(path)


class HostCore:
    """The host's parts. What answering `host.hello` and `sessions.list` needs (the
    database, the sessions) is made at once; the checklists, the agent runtime (models'
    providers, tools, MCP, compaction) and the remote links with `load_services`, which
    the process calls right after its ready line and anything else on first use."""

    def __init__(
        self,
        data_dir: Path,
        db: Database | None = None,
        secrets: Secrets | None = None,
        *,
        services_later: bool = False,
    ) -> None:
        self.data_dir = data_dir
        self.db = db if db is not None else open_database(data_dir)
        self.publisher = Publisher()
        self.sessions = SessionService(self.db, self.publisher)
        self.interrupted_turns = self.sessions.turns.fail_interrupted()
        self.on_shutdown_requested: Callable[[], None] = lambda: None
        self._secrets = secrets or Secrets()
        self._acp: Agents | None = None
        if not services_later:
            self.load_services()

    def load_services(self) -> None:
        """The checklists, the agent runtime and the remote links, each made once (their
        modules are about a third of the host's start, kept after its ready line)."""
        _ = self.todos, self.checkpoints, self.runtime, self.remotes

    @cached_property
    def checkpoints(self) -> Checkpoints:
        from host.checkpoints.service import Checkpoints

        return Checkpoints(self.data_dir, self.db, self.publisher, self.sessions.get)

    @cached_property
    def todos(self) -> TodoService:
        from host.todos.service import TodoService

        return TodoService(self.db, self.publisher)

    @cached_property
    def runtime(self) -> AgentRuntime:
        from host.agent.runtime import AgentRuntime

        runtime = AgentRuntime(
            self.data_dir, self.sessions, self.todos, self.publisher, self._secrets
        )
        runtime.agents_from(self._agents)
        runtime.before_prompt = self.checkpoints.before_prompt
        return runtime

    @cached_property
    def remotes(self) -> RemoteSessions:
        from host.remote.registry import RemoteSessions

        remotes = RemoteSessions(self.sessions, self.publisher)
        self.sessions.show_remote_with(remotes)  # remote sessions as their hosts tell
        return remotes

    def _agents(self) -> Agents:
        """The external ACP agents of section 15 (the SDK is loaded on first use)."""
        if self._acp is None:
            from host.acp.agents import Agents

            self._acp = Agents(self.data_dir, self.sessions, self.todos, self.publisher,
                               lambda: self.runtime.external.approvals)  # fmt: skip
        return self._acp

    @cached_property
    def settings(self) -> Settings:
        from host.settings import Settings

        return Settings(self.data_dir, self.publisher, self.settings_changed)

    async def settings_changed(self) -> None:
        """settings.json changed (`host.settings`): its servers and agents again."""
        await self.runtime.external.reload(self.data_dir)
        self.publisher.publish(rpc.AGENTS_CHANGED, self._agents_list(m.Empty()))

    def _agents_list(self, _params: m.Empty) -> m.AgentsList:
        """Before any agent was used, from the settings alone (the SDK stays unloaded:
        the window asks this at every connect)."""
        if self._acp is None:
            from host.acp.config import idle_listing, load_agents

            return idle_listing(load_agents(self.data_dir))
        return self._acp.listing()

    def dispatcher(self) -> Dispatcher:
        from host.rpc import Dispatcher  # (asyncio: after the ready line, see host.listening)

        s, remote = self.sessions, self._remote_or
        handlers: dict[rpc.Method[Any, Any], Handler] = {
            rpc.SHUTDOWN: self._shutdown,
            rpc.SESSIONS_CREATE: self._create,
            rpc.SESSIONS_LIST: lambda _p: m.SessionList(sessions=s.list()),
            rpc.SESSIONS_GET: lambda p: s.get(p.session_id),
            rpc.SESSIONS_FORK: s.fork,
            rpc.SESSIONS_DELETE: self._delete,
            # the runtime and the links are reached at each call (see load_services)
            rpc.TURNS_START: remote(rpc.TURNS_START, lambda p: self.runtime.start(p)),
            rpc.TURNS_CANCEL: remote(rpc.TURNS_CANCEL, lambda p: self.runtime.cancel(p)),
            rpc.TURNS_LIST: remote(
                rpc.TURNS_LIST, lambda p: m.TurnList(turns=s.turns.newest(p.session_id, p.limit))
            ),
            rpc.MESSAGES_LIST: remote(rpc.MESSAGES_LIST, s.transcript.page),
            rpc.SESSIONS_COMPACT: lambda p: self.runtime.compact_session(p),
            rpc.TODOS_GET: remote(rpc.TODOS_GET, lambda p: self.todos.snapshot(p.session_id)),
            rpc.TODOS_HISTORY: remote(rpc.TODOS_HISTORY, lambda p: self.todos.history(p)),
            rpc.REMOTE_SESSIONS: lambda p: self.remotes.remote_sessions(p),
            rpc.TOOLS_LIST: lambda _p: self.runtime.external.listing(),
            rpc.APPROVALS_RESPOND: lambda p: self.remotes.respond(
                p, self.runtime.external.approvals.respond
            ),
            rpc.AGENTS_LIST: self._agents_list,
            rpc.TOOLS_RETRY: lambda p: self.runtime.external.retry(p),
            rpc.CHECKPOINTS_LIST: lambda p: self.checkpoints.listing(p),
            rpc.CHANGES_GET: lambda p: self.checkpoints.changes(p),
            rpc.CHANGES_STEP: lambda p: self.checkpoints.step(p),
            rpc.CHANGES_RESTORE: lambda p: self.checkpoints.restore(p),
            rpc.SETTINGS_GET: lambda p: self.settings.get(p),
            rpc.SETTINGS_SET: lambda p: self.settings.set(p),
        }
        return Dispatcher(handlers)

    def _remote_or(self, method: rpc.Method[Any, Any], local: Handler) -> Handler:
        """`local` for a local session; for a remote one, the method on its host (section
        14), so nothing of a remote session is ever answered from the local database."""

        def handler(params: Any) -> m.Wire | Awaitable[m.Wire]:
            if self.remotes.is_remote(params.session_id):
                return self.remotes.forward(method, params)
            return local(params)

        return handler

    def _create(self, params: m.CreateSessionParams) -> m.Session | Awaitable[m.Session]:
        if params.cwd is not None:
            params = params.model_copy(update={"cwd": _folder(params.cwd)})
        if params.agent != m.NIB_AGENT:
            if params.mode != "agent" or params.remote is not None:
                raise errors.InvalidParams(
                    f"a session on the agent {params.agent!r} must be a local agent-mode session"
                )
            if self._acp is None:  # nothing of the SDK is loaded to check a name
                from host.acp.config import check_agent, load_agents

                check_agent(load_agents(self.data_dir), params.agent)
            else:
                self._acp.check(params.agent)
            if params.cwd is None:
                params = params.model_copy(update={"cwd": str(Path.home())})
        if params.remote is None:
            return self.sessions.create(params)
        return self.remotes.create(params)

    def close(self) -> None:
        self.db.close()

    def _shutdown(self, _params: m.Empty) -> m.OkResult:
        self.on_shutdown_requested()
        return m.OkResult()

    async def _delete(self, params: m.SessionRef) -> m.Deleted:
        """A remote session's local row goes; the session on its host stays, turn and
        all (another client may be using it)."""
        session = self.sessions.get(params.session_id)
        if session.origin == "local" and session.running_turn_id is not None:
            await self.runtime.cancel(
                m.TurnRef(session_id=session.id, turn_id=session.running_turn_id)
            )
        self.sessions.delete(params.session_id)
        self.remotes.forget(params.session_id)
        return m.Deleted()
