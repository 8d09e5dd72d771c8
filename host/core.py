"""The host-core assembled: database, services, agent runtime, and the dispatcher that
serves the contract's methods. `host.process` puts it behind a socket."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import apsw

from host.agent.runtime import AgentRuntime
from host.events import Publisher
from host.protocol import methods as rpc
from host.protocol import models as m
from host.rpc import Dispatcher, Handler
from host.sessions.service import SessionService
from host.store.db import open_database
from host.todos.service import TodoService


class HostCore:
    def __init__(self, data_dir: Path, db: apsw.Connection | None = None) -> None:
        self.data_dir = data_dir
        self.db = db if db is not None else open_database(data_dir)
        self.publisher = Publisher()
        self.sessions = SessionService(self.db, self.publisher)
        self.todos = TodoService(self.db, self.publisher)
        self.runtime = AgentRuntime(data_dir, self.sessions, self.todos)
        self.interrupted_turns = self.sessions.fail_interrupted_turns()
        self.on_shutdown_requested: Callable[[], None] = lambda: None

    def dispatcher(self) -> Dispatcher:
        s = self.sessions
        handlers: dict[rpc.Method[Any, Any], Handler] = {
            rpc.SHUTDOWN: self._shutdown,
            rpc.SESSIONS_CREATE: s.create,
            rpc.SESSIONS_LIST: lambda _p: m.SessionList(sessions=s.list()),
            rpc.SESSIONS_GET: lambda p: s.get(p.session_id),
            rpc.SESSIONS_FORK: s.fork,
            rpc.SESSIONS_DELETE: self._delete,
            rpc.TURNS_START: self.runtime.start,
            rpc.TURNS_CANCEL: self.runtime.cancel,
            rpc.TURNS_LIST: lambda p: m.TurnList(turns=s.turns(p.session_id, p.limit)),
            rpc.MESSAGES_LIST: s.message_page,
            rpc.SESSIONS_COMPACT: self.runtime.compact_session,
            rpc.TODOS_GET: lambda p: self.todos.snapshot(p.session_id),
            rpc.TODOS_HISTORY: self.todos.history,
        }
        return Dispatcher(handlers)

    def close(self) -> None:
        self.db.close()

    def _shutdown(self, _params: m.Empty) -> m.OkResult:
        self.on_shutdown_requested()
        return m.OkResult()

    async def _delete(self, params: m.SessionRef) -> m.Deleted:
        session = self.sessions.get(params.session_id)
        if session.running_turn_id is not None:
            await self.runtime.cancel(
                m.TurnRef(session_id=session.id, turn_id=session.running_turn_id)
            )
        self.sessions.delete(params.session_id)
        return m.Deleted()
