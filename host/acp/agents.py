"""The configured ACP agents (contract section 15): one process per agent (`process.py`),
several sessions on each, and the turns on them (`turn.py`), ended here whatever happens."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from host.acp.config import check_agent, load_agents
from host.acp.process import AgentFailure, AgentProcess
from host.acp.recorder import Recorder
from host.acp.turn import AgentTurn
from host.events import Publisher
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import methods as rpc
from host.protocol import models as m
from host.sessions.service import SessionService
from host.store.errors import StorageFailure
from host.todos.service import TodoService

if TYPE_CHECKING:
    from host.tools.approvals import Approvals

log = logging.getLogger(__name__)


class Agents:
    """Every configured agent, the running turns of their sessions, and `agents.list`."""

    def __init__(
        self,
        data_dir: Path | None,
        sessions: SessionService,
        todos: TodoService,
        publisher: Publisher,
        approvals: Callable[[], Approvals],
    ) -> None:
        self._data_dir = data_dir
        self.sessions = sessions
        self._todos = todos
        self._publisher = publisher
        self.approvals = approvals
        self._processes: dict[str, AgentProcess] = {}
        self._running: dict[str, Recorder] = {}  # Nib session id -> its turn's recorder
        self._stopping: set[asyncio.Future[None]] = set()  # agents removed from settings
        self._reload()

    def _reload(self) -> None:
        """Settings are read again whenever agents are listed or a turn starts; a changed
        command is used the next time the agent starts."""
        configs = load_agents(self._data_dir)
        names = {config.name for config in configs}
        for name in [n for n in self._processes if n not in names]:
            gone = self._processes.pop(name)
            if gone.conn is not None:
                self._stopping.add(asyncio.ensure_future(gone.stop()))
        for config in configs:
            known = self._processes.get(config.name)
            if known is None:
                self._processes[config.name] = AgentProcess(config, self)
            else:
                known.config = config

    def listing(self) -> m.AgentsList:
        self._reload()
        return m.AgentsList(agents=tuple(p.entry() for p in self._processes.values()))

    def changed(self) -> None:
        """An agent's state changed: told as it stands (the settings are not read again)."""
        listing = m.AgentsList(agents=tuple(p.entry() for p in self._processes.values()))
        self._publisher.publish(rpc.AGENTS_CHANGED, listing)

    def check(self, name: str) -> None:
        """-32602 for an agent a session cannot be created on."""
        self._reload()
        check_agent([p.config for p in self._processes.values()], name)

    def running(self, session_id: str) -> Recorder | None:
        return self._running.get(session_id)

    async def close(self) -> None:
        processes = list(self._processes.values())
        if processes:
            await asyncio.gather(*(process.stop() for process in processes))
        if self._stopping:
            await asyncio.wait(self._stopping)

    # --- a turn ------------------------------------------------------------------------

    async def run(self, session: m.Session, turn: m.Turn, text: str) -> None:
        """The turn on the session's agent, ended here whatever happens."""
        ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
        recorder = Recorder(self.sessions, self._todos, ctx)
        self._running[session.id] = recorder
        state, error = "completed", None
        try:
            self._reload()
            process = self._processes.get(session.agent)
            if process is None:
                raise AgentFailure("this agent is no longer configured in settings.json")
            driver = AgentTurn(process, self.sessions, self._todos, self._data_dir)
            state, error = await driver.prompt(session, recorder, text)
        except asyncio.CancelledError:
            state, error = "cancelled", None
        except AgentFailure as exc:
            state, error = "failed", f"{session.agent}: {exc}"
        except StorageFailure as exc:
            if exc.reason is None:
                log.exception("turn %s failed in storage", turn.id)
            state, error = "failed", f"storage: {exc.reason or exc.kind}"
        except Exception as exc:
            log.exception("turn %s on agent %s failed", turn.id, session.agent)
            state, error = "failed", f"internal error: {type(exc).__name__}: {exc}"
        finally:
            recorder.close()
            self._running.pop(session.id, None)
            self.sessions.turns.end(session.id, turn.id, state, error)
