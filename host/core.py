"""The host-core assembled: database, services, agent runtime, and the dispatcher that
serves the contract's methods. `host.process` puts it behind a socket."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from host.config import Secrets
from host.events import Publisher
from host.protocol import methods as rpc, models as m
from host.sessions.service import SessionService
from host.store.db import Database, open_database

PRELOAD_AFTER_S = 1.0  # after the start, when the first clients have been answered

if TYPE_CHECKING:
    from host.acp.agents import Agents
    from host.agent.runtime import AgentRuntime
    from host.checkpoints.restoring import Restorer
    from host.checkpoints.service import Checkpoints
    from host.remote.registry import RemoteSessions
    from host.sessions.library import Library
    from host.settings import Settings
    from host.todos.service import TodoService
    from host.worktrees.attempts import Attempts
    from host.worktrees.service import Worktrees


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

    def begin(self) -> None:
        """What runs on the host's loop, started (right after the ready line): the
        services, the remote links, the MCP servers, the settings watch."""
        self.load_services()
        self.remotes.start()
        self.runtime.external.start()
        self.settings.watch()
        import asyncio  # on the loop by now: nothing before the ready line loads it

        asyncio.get_running_loop().call_later(PRELOAD_AFTER_S, self._preload_agents)
        from host.checkpoints.restoring import recover  # a restore a kill stopped, finished

        self._recovering = asyncio.ensure_future(recover(self.checkpoints, self._note))
        # The models of a window's first calls (`Loader.reload` asks the lists, then
        # `Loader.show_current` the shown session's reads), each otherwise built on its
        # first use (`defer_build`), about 7 ms in all: the host is usually ready before
        # the window asks, which then waits less for its answers.
        lists = (rpc.HELLO, rpc.SESSIONS_LIST, rpc.TOOLS_LIST, rpc.AGENTS_LIST, rpc.SETTINGS_GET)
        reads = (rpc.AGENTS_CONTROLS, rpc.TURNS_LIST, rpc.TODOS_GET, rpc.MESSAGES_LIST)
        for method in (*lists, *reads):
            method.params.model_rebuild()
            method.result.model_rebuild()

    def _note(self, session_id: str, said: str, failed: bool) -> None:
        """A line of the host's own in a session's transcript (no turn)."""
        self.sessions.transcript.append(
            session_id, None, "tool", said, is_error=failed, kind="plan"
        )

    def _preload_agents(self) -> None:
        """Where agents are configured, the ACP SDK is imported on a worker thread a moment
        after the start (about 0.7 s of imports): on the loop, at the first agent's turn,
        it kept every other client waiting that long."""
        import importlib
        import threading

        from host.acp.config import load_agents

        if self._acp is None and load_agents(self.data_dir):
            threading.Thread(
                target=importlib.import_module,
                args=("host.acp.agents",),
                name="acp-preload",
                daemon=True,
            ).start()

    async def end(self) -> None:
        """What `begin` started, stopped: running turns end, servers and links close."""
        await self.settings.close()
        await self.remotes.close()
        await self.runtime.shutdown()
        await self.checkpoints.close()
        await self.worktrees.close()
        await self.attempts.close()

    def load_services(self) -> None:
        """The checklists, the agent runtime and the remote links, each made once (their
        modules are about a third of the host's start, kept after its ready line)."""
        _ = self.todos, self.checkpoints, self.runtime, self.remotes, self.worktrees
        _ = self.attempts

    @cached_property
    def checkpoints(self) -> Checkpoints:
        from host.checkpoints.service import Checkpoints

        return Checkpoints(
            self.data_dir, self.db, self.publisher, self.sessions.get, self.todos.revisions
        )

    @cached_property
    def worktrees(self) -> Worktrees:
        from host.worktrees.service import Worktrees

        return Worktrees(self.data_dir, self.db, self.publisher, self.sessions, self.todos.snapshot)

    @cached_property
    def attempts(self) -> Attempts:
        from host.worktrees.attempts import Attempts

        return Attempts(
            self.db, self.publisher, self.sessions, self.todos.snapshot, self.worktrees.bases
        )

    @cached_property
    def restores(self) -> Restorer:
        from host.checkpoints.restoring import Restorer

        return Restorer(self.checkpoints)

    @cached_property
    def library(self) -> Library:
        from host.sessions.library import Library

        todos = self.todos
        return Library(self.db, self.publisher, self.sessions, todos.snapshot, todos.history)

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
        runtime.agents_from(self.agents)
        worktrees, checkpoints = self.worktrees, self.checkpoints

        async def before_prompt(turn_id: str) -> None:  # a worktree set up, its folder kept
            await worktrees.before_prompt(turn_id)
            await checkpoints.before_prompt(turn_id)

        runtime.before_prompt = before_prompt
        return runtime

    @cached_property
    def remotes(self) -> RemoteSessions:
        from host.remote.registry import RemoteSessions

        remotes = RemoteSessions(self.sessions, self.publisher)
        self.sessions.show_remote_with(remotes)  # remote sessions as their hosts tell
        return remotes

    def approvals_waiting(self) -> list[tuple[str, m.Wire]]:
        """Every approval still waiting, as `approvals.requested` again: a client that
        connects (a window back, a host linked again) is asked what is still asked."""
        waiting: list[m.ApprovalRequested] = []
        if "runtime" in self.__dict__:  # (no turn ran: nothing can wait)
            waiting += self.runtime.external.approvals.waiting()
        if "remotes" in self.__dict__:
            waiting += [told for asked in self.remotes.remote_asked.values() for told in asked]
        told: list[tuple[str, m.Wire]] = [(rpc.APPROVALS_REQUESTED.name, r) for r in waiting]
        if self.agents_loaded:  # what agents ask the user to fill in
            told += [(rpc.AGENTS_ASKED.name, asked) for asked in self.agents().asks().waiting()]
        return told

    @property
    def agents_loaded(self) -> bool:
        """Whether an external agent was used in this host's life (the SDK is loaded)."""
        return self._acp is not None

    def agents(self) -> Agents:
        """The external ACP agents of section 15 (the SDK is loaded on first use)."""
        if self._acp is None:
            from host.acp.agents import Agents

            self._acp = Agents(
                self.data_dir,
                self.sessions,
                self.todos,
                self.publisher,
                lambda: self.runtime.external.approvals,
            )
        return self._acp

    @cached_property
    def settings(self) -> Settings:
        from host.settings import Settings

        return Settings(self.data_dir, self.publisher, self.settings_changed)

    async def settings_changed(self) -> None:
        """settings.json changed (`host.settings`): its servers and agents again."""
        await self.runtime.external.reload(self.data_dir)
        self.publisher.publish(rpc.AGENTS_CHANGED, self.agents_listing())

    def agents_listing(self) -> m.AgentsList:
        """Before any agent was used, from the settings alone (the SDK stays unloaded:
        the window asks this at every connect)."""
        if self._acp is None:
            from host.acp.config import idle_listing, load_agents

            return idle_listing(load_agents(self.data_dir))
        return self._acp.listing()

    def check_agent(self, name: str) -> None:
        """-32602 for an agent a session cannot be created on."""
        if self._acp is None:  # nothing of the SDK is loaded to check a name
            from host.acp.config import check_agent, load_agents

            check_agent(load_agents(self.data_dir), name)
        else:
            self._acp.check(name)

    def close(self) -> None:
        self.db.close()
