"""A session's conversation summarised (contract section 12): during a turn, before the
next request would fill the model's context window (everything after the system prompt
becomes a stored summary, the committed checklist and the user's newest request); and
on demand (`sessions.compact`, "/compact"), one at a time per session."""

from __future__ import annotations

import logging
from collections.abc import Callable

from host.agent import prompts
from host.agent.compaction import CHARS_PER_TOKEN, context_window, render, summary_message
from host.agent.conversation import chat_history, checklist_context
from host.agent.providers.base import (
    ChatMessage,
    ModelRequest,
    Provider,
    ProviderError,
    SystemMessage,
    TextDelta,
    UserMessage,
)
from host.config import Secrets, Settings
from host.execution_path import PATH_BY_MODE, ExecutionContext, ExecutionPath
from host.protocol import errors, models as m
from host.protocol.text import valid_text
from host.sessions.service import SessionService
from host.todos.service import TodoService

log = logging.getLogger(__name__)


async def ask(provider: Provider, path: ExecutionPath, system: str, text: str) -> str:
    """One tool-less model step's text."""
    parts: list[str] = []
    request = ModelRequest(path, (SystemMessage(system), UserMessage(text)), ())
    async for event in provider.stream(request):
        if isinstance(event, TextDelta):
            parts.append(event.text)
    return valid_text("".join(parts)).strip()


class Compaction:
    def __init__(
        self,
        sessions: SessionService,
        todos: TodoService,
        settings: Callable[[], Settings],
        provider: Callable[[Settings], Provider],
        secrets: Secrets,
    ) -> None:
        self._sessions, self._todos, self._secrets = sessions, todos, secrets
        self._settings, self._provider = settings, provider
        self._compacting: set[str] = set()  # sessions whose compaction waits for its summary

    def busy(self, session_id: str) -> bool:
        return session_id in self._compacting

    async def in_turn(
        self, ctx: ExecutionContext, provider: Provider, history: list[ChatMessage], window: int
    ) -> int:
        """Replace everything after the system prompt by a stored summary, the committed
        checklist, the user's newest request (never summarised: it is what the turn is
        for) and, when the turn had gone on after it, a request to go on; the number of
        messages summarised."""
        last = max(
            (i for i, msg in enumerate(history) if isinstance(msg, UserMessage)),
            default=len(history),
        )
        request, tail = history[last : last + 1], history[last + 1 :]
        rest = history[1:last] + tail  # everything but the system prompt and the request
        older = [
            msg
            for msg in rest
            if not isinstance(msg, SystemMessage) or msg.content.startswith(prompts.SUMMARY_HEADING)
        ]
        if not older:
            raise ProviderError("the request does not fit the model's context window")
        text = render(rest, int(window * CHARS_PER_TOKEN * 0.5))
        summary = await ask(provider, ctx.path, prompts.COMPACT, text)
        if not summary:
            raise ProviderError("the model gave an empty summary when asked to compact")
        self._sessions.transcript.append(ctx.session_id, ctx.turn_id, "summary", summary)
        compacted: list[ChatMessage] = [history[0], summary_message(summary)]
        checklist = checklist_context(self._todos.snapshot(ctx.session_id), always=True)
        if checklist is not None:
            compacted.append(SystemMessage(checklist))
        compacted += request
        if tail or not request:
            compacted.append(UserMessage(prompts.CONTINUE))
        history[:] = compacted
        log.info("turn %s: compacted %d messages", ctx.turn_id, len(older))
        return len(older)

    async def compact_session(self, params: m.SessionRef) -> m.CompactResult:
        """`sessions.compact`: summarise the session's conversation now."""
        session = self._sessions.require_local(params.session_id)
        if session.agent != m.NIB_AGENT:
            raise errors.InvalidParams(
                f"this session runs on the agent {session.agent!r}, which keeps its own context"
            )
        if session.running_turn_id is not None:
            raise errors.TurnRunning("a turn is running in this session; compact after it")
        if session.id in self._compacting:
            raise errors.TurnRunning("this session is being compacted already")
        self._compacting.add(session.id)
        try:
            return await self._now(session)
        finally:
            self._compacting.discard(session.id)

    async def _now(self, session: m.Session) -> m.CompactResult:
        history: list[ChatMessage] = [SystemMessage(prompts.BY_MODE[session.mode])]
        history += chat_history(self._sessions.transcript.all(session.id))
        older = [msg for msg in history[1:] if not isinstance(msg, SystemMessage)]
        if not older:
            return m.CompactResult(summarised_messages=0)
        settings = self._settings()
        provider = self._provider(settings)
        path = PATH_BY_MODE[session.mode]
        text = render(history[1:], int(context_window(settings) * CHARS_PER_TOKEN * 0.5))
        try:
            summary = await ask(provider, path, prompts.COMPACT, text)
        except ProviderError as exc:
            reason = self._secrets.redact(str(exc))
            raise errors.InternalError(f"compaction failed: {reason}") from None
        if not summary:
            raise errors.InternalError("compaction failed: the model gave an empty summary")
        stored = self._sessions.transcript.append(session.id, None, "summary", summary)
        # the count the transcript shows: every stored message before the summary
        return m.CompactResult(summarised_messages=stored.seq - 1)
