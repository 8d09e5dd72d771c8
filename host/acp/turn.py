"""One turn on an ACP agent (contract section 15): which agent-side session it continues
(`session/load` after a restart where the agent can, else a new one with the unfinished
checklist at the head of the first prompt), the prompt, Stop, and how the prompt's end
becomes the turn's end."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from acp import RequestError, text_block
from acp.client.connection import ClientSideConnection
from acp.schema import AcpMcpServer, EnvVariable, HttpMcpServer, McpServerStdio, SseMcpServer

from host.acp.attachments import blocks
from host.acp.fork import carried
from host.acp.process import AgentFailure, AgentProcess
from host.acp.recorder import Recorder
from host.protocol import models as m
from host.sessions.service import SessionService
from host.todos.service import TodoService

log = logging.getLogger(__name__)
SESSION_NEW_S = 60.0  # a session/new unanswered this long fails the turn, in words

CANCEL_GRACE_S = 5.0  # after session/cancel, how long the prompt's own answer is awaited
AUTH_REQUIRED = -32000
STOP_WORDS = {
    "max_tokens": "the agent reached its token limit",
    "max_turn_requests": "the agent reached its limit of model requests for one turn",
    "refusal": "the agent refused to go on",
}


class AgentTurn:
    """A turn's prompt on one agent's process."""

    def __init__(
        self,
        process: AgentProcess,
        sessions: SessionService,
        todos: TodoService,
        data_dir: Path | None,
        opened: Callable[[AgentProcess, str, Any], None],
    ) -> None:
        self._opened = opened  # an agent-side session's answer: its modes and options
        self._process = process
        self._sessions = sessions
        self._todos = todos
        self._data_dir = data_dir

    async def prompt(
        self,
        session: m.Session,
        recorder: Recorder,
        text: str,
        attachments: tuple[m.FileAttachment | m.ImageAttachment, ...] = (),
    ) -> tuple[str, str | None]:
        """The turn's prompt to the agent, to its end: the turn's state and error."""
        process = self._process
        conn = await process.ensure_started()
        try:
            async with process.opening(session.id):
                agent_session, fresh = await self._open(conn, session, recorder)
            process.routing.unprompted.discard(agent_session)
            # the checklist is given again when the agent's session starts empty, and when
            # the agent said it compacted its context since it was last prompted
            compacted = not fresh and self._sessions.transcript.compacted_lately(session.id)
            if fresh or compacted:
                from host.agent.conversation import checklist_context

                listed = checklist_context(self._todos.snapshot(session.id), always=compacted)
                if listed is not None:
                    text = f"{listed}\n\n{text}"
            if fresh and session.parent_id is not None:  # a fork the agent did not fork
                text = self._carried(session, recorder) + text
            content = [text_block(text), *blocks(session, attachments, process.offers.prompt_kinds)]
            prompt = asyncio.ensure_future(conn.prompt(session_id=agent_session, prompt=content))
            try:
                await asyncio.wait({prompt})
            except asyncio.CancelledError:
                await self._cancel(conn, agent_session, recorder, prompt)
                raise
            answer = prompt.result()
        except (ConnectionError, RequestError) as exc:
            raise AgentFailure(await process.gone_reason(exc)) from None
        stop = answer.stop_reason
        if stop == "end_turn":
            return "completed", None
        if stop == "cancelled":
            return "cancelled", None
        return "failed", f"{session.agent}: {STOP_WORDS.get(stop, f'it stopped ({stop})')}"

    async def _cancel(
        self,
        conn: ClientSideConnection,
        agent_session: str,
        recorder: Recorder,
        prompt: asyncio.Future[Any],
    ) -> None:
        """Stop: `session/cancel`, every waiting approval answered as cancelled, and the
        prompt's own answer awaited a little (the agent's last updates come before it)."""
        for task in list(recorder.permissions):
            task.cancel()
        with contextlib.suppress(ConnectionError, RequestError):
            await conn.cancel(session_id=agent_session)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.wait({prompt}), CANCEL_GRACE_S)
        prompt.cancel()

    async def open_ahead(self, session: m.Session) -> None:
        """The agent-side session opened before its first prompt (the window shows the
        session): the agent's modes, options and commands are told at once. Its first
        prompt still carries what an empty session is given."""
        conn = await self._process.ensure_started()
        try:
            async with self._process.opening(session.id):
                await self._open(conn, session, None)
        except (ConnectionError, RequestError) as exc:
            raise AgentFailure(await self._process.gone_reason(exc)) from None

    async def _open(
        self, conn: ClientSideConnection, session: m.Session, recorder: Recorder | None
    ) -> tuple[str, bool]:
        """The agent-side session this turn prompts (None: opened ahead of any turn), and
        whether it starts empty and unprompted (its first prompt then carries the
        unfinished checklist, and a fork's its conversation); one the agent forked itself
        knows what its parent did."""
        process = self._process
        stored = self._sessions.agent_session(session.id)
        if stored is not None and stored in process.routing.owned:
            return stored, stored in process.routing.unprompted
        cwd = session.cwd or str(Path.home())
        servers = self._mcp_servers()
        if stored is not None and process.offers.load_session:
            process.routing.owned[stored] = session.id
            if recorder is not None:  # its replay of the history is not stored again
                recorder.loading = True
            else:
                process.routing.quiet.add(session.id)
            try:
                loaded = await conn.load_session(cwd=cwd, session_id=stored, mcp_servers=servers)
                self._opened(process, session.id, loaded)
                return stored, False
            except RequestError as exc:
                log.info("agent %s could not load session %s: %s", process.name, stored, exc)
                process.routing.owned.pop(stored, None)
            finally:
                if recorder is not None:
                    recorder.loading = False
                process.routing.quiet.discard(session.id)
        parent = self._sessions.agent_session(session.parent_id) if session.parent_id else None
        forked = False  # by the agent itself: it knows all the parent's session did
        try:
            with process.routing.opening():
                answer: Any = None
                if (
                    parent is not None
                    and process.offers.fork_session
                    and not self._sessions.rewound(session.id)
                ):
                    answer = await self._fork(conn, parent, cwd, servers)
                if answer is None:
                    answer = await asyncio.wait_for(
                        conn.new_session(cwd=cwd, mcp_servers=servers), SESSION_NEW_S
                    )
                else:
                    forked = True
                    said = (
                        f"Forked: {process.name} goes on from a copy of its own "
                        "session (session/fork), with all it knew."
                    )
                    if recorder is not None:
                        recorder.say(said)
                    else:  # opened ahead: a note of the session's, before its turns
                        self._sessions.transcript.append(
                            session.id, None, "tool", said, kind="plan"
                        )
                process.routing.adopt(answer.session_id, session.id)
                if not forked:
                    process.routing.unprompted.add(answer.session_id)
        except TimeoutError:
            raise AgentFailure(
                f"it did not answer session/new within {SESSION_NEW_S:.0f} s"
            ) from None
        except RequestError as exc:
            if exc.code == AUTH_REQUIRED:
                raise AgentFailure(auth_words(process)) from None
            raise
        self._sessions.set_agent_session(session.id, answer.session_id)
        self._opened(process, session.id, answer)
        return answer.session_id, not forked

    async def _fork(
        self, conn: ClientSideConnection, parent: str, cwd: str, servers: list[Any]
    ) -> Any:
        """The parent's agent-side session forked by the agent (`session/fork`), or None
        when it refuses (the fork then carries the conversation in its first prompt)."""
        try:
            return await asyncio.wait_for(
                conn.fork_session(session_id=parent, cwd=cwd, mcp_servers=servers), SESSION_NEW_S
            )
        except (RequestError, TimeoutError) as exc:
            log.info("agent %s did not fork session %s: %s", self._process.name, parent, exc)
            return None

    def _carried(self, session: m.Session, recorder: Recorder) -> str:
        """The conversation a fork copied, compacted for the head of its first prompt (the
        agent's new session has none of it), and a line saying so."""
        copied = [x for x in self._sessions.transcript.all(session.id) if x.turn_id is None]
        head, count = carried(copied)
        if count:
            recorder.say(
                f"Forked: {self._process.name} does not offer session/fork, so its "
                f"first prompt carries the earlier conversation, compacted "
                f"({count} messages)."
            )
        return head

    def _mcp_servers(self) -> list[HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio]:
        """The stdio MCP servers of section 13, for the agent to start itself."""
        from host.tools.mcp_config import StdioEntry, load_servers

        servers: list[HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio] = []
        for server in load_servers(self._data_dir):
            entry = server.entry
            if isinstance(entry, StdioEntry) and not entry.disabled:
                env = [EnvVariable(name=k, value=v) for k, v in entry.env.items()]
                servers.append(
                    McpServerStdio(
                        name=server.name, command=entry.command, args=list(entry.args), env=env
                    )
                )
        return servers


def auth_words(process: AgentProcess) -> str:
    methods = ", ".join(f"“{name}”" for name in process.offers.auth_methods)
    if not methods:
        return "authentication required: sign in to the agent, then send again"
    return (
        "authentication required: sign in with one of the agent's methods "
        f"({methods}) from the palette (“Sign in to …”), then send again"
    )
