"""An agent's own earlier sessions (contract section 20): listed (`session/list`) and
imported as Nib sessions bound to them, the agent's replay (`session/load`) kept as the
transcript, its last plan the checklist's first revision; with `session/resume` only, a
session whose transcript says the history was not replayed.

An import runs as a turn of the new session, its notifications held until it is whole:
the session is not listed meanwhile, nothing of it is told, and an import that fails
part-way is deleted, so it leaves nothing visible."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from acp import RequestError

from host.acp.process import AgentFailure, AgentProcess
from host.acp.recorder import MAIN_PLAN, Recorder
from host.acp.updates import PlanSent, TextBlock, TextChunk, Update
from host.clock import new_id
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import errors, models as m
from host.protocol.text import shorten
from host.sessions.service import title_from

if TYPE_CHECKING:
    from host.events import Publisher
    from host.sessions.service import SessionService
    from host.todos.service import TodoService


class Agents(Protocol):
    """What importing needs of the configured agents."""

    sessions: SessionService

    @property
    def todos(self) -> TodoService: ...
    @property
    def publisher(self) -> Publisher: ...
    def check(self, name: str) -> None: ...
    def process(self, name: str) -> AgentProcess: ...
    def replaying(self, session_id: str, replay: Recorder | None) -> None: ...
    def opened(self, process: AgentProcess, session_id: str, answer: Any) -> None: ...


LOAD_S = 120.0  # a load that takes longer fails the import, in words
MAX_REPLAY_MESSAGES = 20_000  # what an import keeps of a replay, at most


class Replay(Recorder):
    """A replay stored as a turn's updates are, and also the user's own messages; its
    plans held, the last written once as the checklist's first revision."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.replaying = True
        self._user: list[str] = []
        self._user_id: str | None = None
        self._plan: list[Any] | None = None
        self.first_user = ""
        self.stored = 0

    def update(self, told: Update) -> None:
        if self.stored >= MAX_REPLAY_MESSAGES:
            return
        if isinstance(told, TextChunk) and told.session_update == "user_message_chunk":
            if told.message_id != self._user_id:
                self._user_done()
                self._user_id = told.message_id
            if isinstance(told.content, TextBlock):
                self.flush()
                self._user.append(told.content.text)
            return
        self._user_done()
        if isinstance(told, PlanSent):
            self._plan = told.entries
            return
        self.stored += 1
        super().update(told)

    def _user_done(self) -> None:
        text = "".join(self._user)
        self._user = []
        if text.strip():
            self.first_user = self.first_user or text
            self.stored += 1
            self._sessions.transcript.append(self.ctx.session_id, self.ctx.turn_id, "user", text)

    def close(self) -> None:
        self._user_done()
        super().close()
        if self._plan:
            self.plan(MAIN_PLAN, self._plan)


def bound_to(agents: Agents, agent: str, agent_session: str) -> m.Session | None:
    """The Nib session already bound to that agent-side session, if any."""
    for session in agents.sessions.list():
        if session.agent == agent and agents.sessions.agent_session(session.id) == agent_session:
            return session
    return None


async def listing(agents: Agents, params: m.AgentSessionsParams) -> m.AgentSessions:
    process = await _started(agents, params.agent)
    if not process.offers.list_sessions:
        raise errors.InvalidParams(
            f"{params.agent} does not list its sessions (it offers no session/list)"
        )
    conn = await process.ensure_started()
    try:
        answer = await asyncio.wait_for(
            conn.list_sessions(cwd=params.cwd, cursor=params.cursor), LOAD_S
        )
    except (RequestError, TimeoutError, ConnectionError) as exc:
        raise errors.AgentRefused(f"{params.agent} did not list its sessions: {exc}") from None
    found = []
    for info in answer.sessions[:200]:
        mine = bound_to(agents, params.agent, info.session_id)
        found.append(
            m.AgentSessionInfo(
                agent_session_id=shorten(info.session_id, 500),
                title=shorten(info.title, 500) if info.title else None,
                cwd=shorten(info.cwd, 4096),
                updated_at=shorten(info.updated_at, 100) if info.updated_at else None,
                imported=mine.id if mine is not None else None,
            )
        )
    cursor = answer.next_cursor
    return m.AgentSessions(
        sessions=tuple(found), next_cursor=shorten(cursor, 2000) if cursor else None
    )


async def import_session(agents: Agents, params: m.ImportParams) -> m.Session:
    """The agent-side session as a Nib session (the one already bound to it, if any)."""
    known = bound_to(agents, params.agent, params.agent_session_id)
    if known is not None:
        return known
    process = await _started(agents, params.agent)
    if not process.offers.load_session and not process.offers.resume_session:
        raise errors.InvalidParams(
            f"{params.agent} offers neither session/load nor session/resume: its sessions "
            "cannot be opened here"
        )
    sessions, publisher = agents.sessions, agents.publisher
    sid = new_id()
    publisher.hold(sid)
    sessions.hidden.add(sid)
    told = False
    try:
        created = m.CreateSessionParams(
            title="Imported session", agent=params.agent, cwd=params.cwd
        )
        sessions.create(created, session_id=sid)
        sessions.set_agent_session(sid, params.agent_session_id)
        turn = sessions.turns.open(sid)
        replay = Replay(sessions, agents.todos, ExecutionContext(sid, turn.id, ExecutionPath.AGENT))
        await _load(agents, process, replay, params)
        sessions.turns.end(sid, turn.id, "completed", None)
        title = title_from(replay.first_user) if replay.first_user else None
        if title:
            sessions.retitle(sid, title)
        told = True
    except BaseException:
        process.routing.owned.pop(params.agent_session_id, None)
        sessions.delete(sid)
        raise
    finally:
        sessions.hidden.discard(sid)
        publisher.release(sid, tell=told)
    return sessions.get(sid)


async def _load(
    agents: Agents, process: AgentProcess, replay: Replay, params: m.ImportParams
) -> None:
    conn = await process.ensure_started()
    sid = replay.ctx.session_id
    process.routing.owned[params.agent_session_id] = sid
    agents.replaying(sid, replay)
    try:
        answer: Any
        if process.offers.load_session:
            answer = await asyncio.wait_for(
                conn.load_session(
                    cwd=params.cwd, session_id=params.agent_session_id, mcp_servers=[]
                ),
                LOAD_S,
            )
        else:
            answer = await asyncio.wait_for(
                conn.resume_session(
                    cwd=params.cwd, session_id=params.agent_session_id, mcp_servers=[]
                ),
                LOAD_S,
            )
            replay.say(
                f"Imported from {params.agent} with session/resume: it does not replay its "
                "history, so what was said before is not shown here; the agent still knows it."
            )
        replay.close()
        agents.opened(process, sid, answer)
    except (RequestError, TimeoutError, ConnectionError) as exc:
        raise errors.AgentRefused(
            f"{params.agent} could not open its session {params.agent_session_id!r}: {exc}"
        ) from None
    finally:
        agents.replaying(sid, None)


async def _started(agents: Agents, agent: str) -> AgentProcess:
    if agent == m.NIB_AGENT:
        raise errors.InvalidParams("Nib's own sessions are already here: there is none to import")
    agents.check(agent)
    process = agents.process(agent)
    try:
        await process.ensure_started()
    except AgentFailure as exc:
        raise errors.InvalidParams(f"{agent} cannot start: {exc}") from None
    return process
