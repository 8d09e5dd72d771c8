"""Turns: each runs the agent loop as an asyncio task in the host.

A step asks the provider for text and tool calls, stores the assistant's message, then
runs each call through the tool registry with the turn's execution context and stores the
result. The loop ends when the model answers without tool calls (completed), on
cancellation (cancelled), or on a provider error or the step limit (failed, with a
readable error).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from host.agent import prompts
from host.agent.compacting import Compaction
from host.agent.compaction import (
    COMPACT_AT,
    Budget,
    TokenCounter,
    context_window,
)
from host.agent.conversation import (
    attached_to,
    chat_history,
    inject_checklist,
    own_activity,
)
from host.agent.providers import make_provider
from host.agent.providers.base import (
    AssistantMessage,
    ChatMessage,
    ContextTooLong,
    ModelRequest,
    Provider,
    ProviderError,
    SystemMessage,
    TextDelta,
    ToolCallRequest,
    ToolMessage,
    Usage,
    UserMessage,
)
from host.config import Secrets, Settings, SettingsError, load_settings
from host.events import Publisher
from host.execution_path import PATH_BY_MODE, ExecutionContext
from host.protocol import errors, methods as rpc, models as m
from host.protocol.text import valid_text
from host.sessions.service import SessionService
from host.sessions.streaming import TextStream
from host.store.errors import StorageFailure
from host.todos.service import TodoService
from host.tools import task, todo_write
from host.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from host.tools.external import ExternalTools

log = logging.getLogger(__name__)

AGENT_TOOLS = (todo_write.NAME, task.NAME)
SAMPLING_STEPS = 4  # model steps one sampling request may take (refused tool calls included)


class StepLimitReached(Exception):
    pass


class TurnRun(NamedTuple):
    """What a running turn was started with: its settings (read once) and its provider;
    a delegated Task and an MCP server's sampling in it use the same."""

    settings: Settings
    provider: Provider


Attachments = tuple[m.FileAttachment | m.ImageAttachment, ...]


class ExternalAgents(Protocol):
    """Where turns of sessions on external agents run (contract section 15): the
    assembly hands the runtime a maker for it, called on first use."""

    async def run(
        self, session: m.Session, turn: m.Turn, text: str, attachments: Attachments = ()
    ) -> None: ...

    def check_attachments(self, session: m.Session, attachments: Attachments) -> None:
        """-32602 for an attachment that cannot go to the session's agent (section 17)."""

    async def close(self) -> None: ...


class AgentRuntime:
    def __init__(
        self,
        data_dir: Path | None,
        sessions: SessionService,
        todos: TodoService,
        publisher: Publisher | None = None,
        secrets: Secrets | None = None,
    ) -> None:
        self._data_dir = data_dir
        self._secrets = secrets or Secrets()
        self._sessions = sessions
        self._todos = todos
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.registry = ToolRegistry(
            [todo_write.todo_write_tool(todos), task.task_tool(self._run_delegated)]
        )
        # MCP servers' and plugins' tools, offered to Agent turns after the builtins (made
        # on first use: at host start that is once the host is ready)
        self._publisher = publisher or Publisher()
        self._external: ExternalTools | None = None
        self._runs: dict[str, TurnRun] = {}  # the running turns' settings and provider
        # One provider per distinct settings, kept across turns: building an HTTP client
        # (TLS context, connection pool) costs more than a whole model step.
        self._cache: dict[Settings, Provider] = {}
        self._agents: ExternalAgents | None = None
        self._make_agents: Callable[[], ExternalAgents] | None = None
        self.compaction = Compaction(sessions, todos, self._settings, self._provider, self._secrets)
        # the folder's turn-start checkpoint (section 16) is taken before the agent is
        # prompted: `HostCore` sets what waits for it
        self.before_prompt: Callable[[str], Awaitable[None]] = _nothing

    def agents_from(self, make: Callable[[], ExternalAgents]) -> None:
        self._make_agents = make

    @property
    def agents(self) -> ExternalAgents:
        if self._agents is None:
            if self._make_agents is None:
                raise errors.InvalidParams("this host runs no external agents")
            self._agents = self._make_agents()
        return self._agents

    @property
    def external(self) -> ExternalTools:
        if self._external is None:
            from host.tools.external import ExternalTools

            self._external = ExternalTools(
                self._data_dir, self._publisher, self.registry, AGENT_TOOLS, self._sample
            )
        return self._external

    def start(self, params: m.StartTurnParams) -> m.Turn:
        if self.compaction.busy(params.session_id):  # one operation at a time per session
            raise errors.TurnRunning("this session is being compacted; send once that is done")
        held = self._sessions.require_local(params.session_id)
        external = held.agent != m.NIB_AGENT
        agents = self.agents if external else None  # made first: a failure begins no turn
        if agents is not None:
            agents.check_attachments(held, params.attachments)
        elif params.attachments:
            raise errors.InvalidParams("attachments go only to an external agent's session")
        turn, _message = self._sessions.turns.begin(
            params.session_id, params.text, attached_to(params.attachments)
        )
        session = self._sessions.get(params.session_id)
        if agents is not None:
            work = agents.run(session, turn, params.text, params.attachments)
        else:
            work = self._run(session, turn)
        task_ = asyncio.ensure_future(self._after_checkpoint(session, turn, work))
        self._tasks[turn.id] = task_
        task_.add_done_callback(lambda _t: self._tasks.pop(turn.id, None))
        return turn

    async def _after_checkpoint(
        self, session: m.Session, turn: m.Turn, work: Coroutine[Any, Any, None]
    ) -> None:
        """`work` (which ends the turn whatever happens) once the turn-start checkpoint is
        taken; a turn stopped meanwhile is ended here."""
        try:
            await self.before_prompt(turn.id)
        except asyncio.CancelledError:
            work.close()
            self._sessions.turns.end(session.id, turn.id, "cancelled", None)
            raise
        await work

    async def cancel(self, params: m.TurnRef) -> m.Turn:
        turn = self._sessions.turns.get(params.session_id, params.turn_id)
        task_ = self._tasks.get(turn.id)
        if turn.state != "running" or task_ is None:
            raise errors.TurnNotFound(f"turn {turn.id} is not running (it is {turn.state})")
        task_.cancel()
        await asyncio.wait({task_})
        return self._sessions.turns.get(params.session_id, params.turn_id)

    async def finish_running(self) -> None:
        """Wait until no turn is running (those that start meanwhile included)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks.values()))

    async def shutdown(self) -> None:
        """Cancel every running turn and wait for each to be ended as cancelled."""
        tasks = list(self._tasks.values())
        for task_ in tasks:
            task_.cancel()
        if tasks:
            await asyncio.wait(tasks)
        for provider in self._cache.values():
            await _close_quietly(provider)
        self._cache.clear()
        if self._external is not None:
            await self._external.close()
        if self._agents is not None:
            await self._agents.close()

    def _settings(self) -> Settings:
        """Settings read from the environment and settings.json, once per turn or
        compaction; the key is hidden from logs and errors from then on."""
        return self._secrets.remember(load_settings(self._data_dir))

    def _provider(self, settings: Settings) -> Provider:
        provider = self._cache.get(settings)
        if provider is None:
            provider = self._cache[settings] = make_provider(settings)
        return provider

    # ---------------------------------------------------------------------------------

    async def _run(self, session: m.Session, turn: m.Turn) -> None:
        ctx = ExecutionContext(session.id, turn.id, PATH_BY_MODE[session.mode])
        state, error = "completed", None
        try:
            settings = self._settings()
            provider = self._provider(settings)
            self._runs[turn.id] = TurnRun(settings, provider)
            tools = AGENT_TOOLS if session.mode == "agent" else ()
            if session.mode == "agent":
                await self.external.prepare()
            history: list[ChatMessage] = [SystemMessage(prompts.BY_MODE[session.mode])]
            history += chat_history(self._sessions.transcript.all(session.id))
            if session.mode == "agent":
                inject_checklist(history, self._todos.snapshot(session.id))
            steps = max(settings.max_steps, provider.min_steps)
            budget = Budget(context_window(settings), TokenCounter(settings.model))
            await self._loop(
                ctx,
                provider,
                history,
                tools,
                steps,
                record=True,
                budget=budget,
                external=session.mode == "agent",
            )
        except asyncio.CancelledError:
            state, error = "cancelled", None
            # a request in flight may hold its HTTP connection open: the provider is closed
            # (the next turn makes a new one), so the endpoint sees the call end now
            run = self._runs.get(turn.id)
            used = run.provider if run is not None else None
            if used is not None and self._providers_shared(used) == 1:
                for key in [k for k, v in self._cache.items() if v is used]:
                    del self._cache[key]
                await _close_quietly(used)
        except (ProviderError, SettingsError, StepLimitReached) as exc:
            state, error = "failed", self._secrets.redact(str(exc))
        except StorageFailure as exc:
            if exc.reason is None:
                log.exception("turn %s failed in storage", turn.id)
            state, error = "failed", f"storage: {exc.reason or exc.kind}"
        except Exception as exc:
            log.exception("turn %s failed", turn.id)
            state, error = "failed", f"internal error: {type(exc).__name__}: {exc}"
        finally:
            self._runs.pop(turn.id, None)
            self._sessions.turns.end(session.id, turn.id, state, error)

    def _providers_shared(self, provider: Provider) -> int:
        """How many running turns use `provider`."""
        return sum(1 for run in self._runs.values() if run.provider is provider)

    @staticmethod
    async def _step(
        provider: Provider,
        request: ModelRequest,
        text: list[str],
        calls: list[ToolCallRequest],
        stream: TextStream | None = None,
    ) -> int | None:
        """One model step into `text` and `calls` (and its text told on `stream`); the
        prompt tokens the endpoint counted for it, when it says."""
        reported = None
        async for event in provider.stream(request):
            if isinstance(event, TextDelta):
                text.append(event.text)
                if stream is not None:
                    stream.add(event.text)
            elif isinstance(event, Usage):
                reported = event.prompt_tokens
            else:
                calls.append(event)
        return reported

    async def _sample(
        self,
        ctx: ExecutionContext,
        messages: list[tuple[str, str]],
        system: str | None,
    ) -> str:
        """A model call an MCP server asked for during one of the turn's calls, on the MCP
        path: offered no tools, and any tool call the model makes anyway goes through the
        registry on that path (TodoWrite refuses it) and its refusal back to the model."""
        run = self._runs.get(ctx.turn_id)
        if run is None:
            raise ProviderError("sampling is only answered during a running turn")
        provider = run.provider
        history: list[ChatMessage] = [SystemMessage(system or prompts.SAMPLING)]
        for role, text in messages:
            history.append(UserMessage(text) if role == "user" else AssistantMessage(text))
        return await self._loop(ctx, provider, history, (), SAMPLING_STEPS, record=False)

    async def _run_delegated(self, ctx: ExecutionContext, text: str) -> str:
        run = self._runs.get(ctx.turn_id)
        if run is None:
            raise ProviderError("Task can only run inside a running turn")
        history: list[ChatMessage] = [SystemMessage(prompts.DELEGATED), UserMessage(text)]
        return await self._loop(
            ctx, run.provider, history, (), run.settings.max_steps, record=False
        )

    async def _loop(
        self,
        ctx: ExecutionContext,
        provider: Provider,
        history: list[ChatMessage],
        tools: tuple[str, ...],
        max_steps: int,
        record: bool,
        budget: Budget | None = None,
        external: bool = False,
    ) -> str:
        """Model steps until an answer without tool calls. With a `window` (the recorded
        turn's path), the conversation is compacted before a step that would not fit, and
        once when the endpoint says the context is too long."""
        specs = self.registry.specs(tools)
        if external:  # MCP and plugin tools, for the agent's own turn only
            specs += tuple(self.external.specs())
        for _step in range(max_steps):
            estimated = budget.counter.conversation(history, specs) if budget else 0
            if budget and estimated > COMPACT_AT * budget.window:
                await self.compaction.in_turn(ctx, provider, history, budget.window)
                estimated = budget.counter.conversation(history, specs)
            text: list[str] = []
            calls: list[ToolCallRequest] = []
            # the recorded turn's text is told as it arrives (section 16)
            told = self._sessions.transcript.tell_delta
            stream = TextStream(told, ctx.session_id, ctx.turn_id, "text") if record else None
            try:
                reported = await self._step(
                    provider, ModelRequest(ctx.path, tuple(history), specs), text, calls, stream
                )
            except ContextTooLong:
                if budget is None or text or calls:
                    raise
                await self.compaction.in_turn(ctx, provider, history, budget.window)
                estimated = budget.counter.conversation(history, specs)
                reported = await self._step(
                    provider, ModelRequest(ctx.path, tuple(history), specs), text, calls, stream
                )
            if budget and reported is not None:  # this turn's own count: calibrates its budget
                budget.counter.calibrate(estimated, reported)
            if budget and record:  # how full the context is, for the composer (the project's)
                used = reported if reported is not None else estimated
                self._publisher.publish(
                    rpc.SESSIONS_USAGE,
                    m.SessionUsage(session_id=ctx.session_id, used=used, size=budget.window),
                )
            # text from the endpoint made valid Unicode once whole (an emoji's two halves
            # may come in two chunks; a lone half becomes U+FFFD), as its deltas told it
            content = stream.take() if stream is not None else valid_text("".join(text))
            cleaned = [
                ToolCallRequest(c.id, valid_text(c.name), valid_text(c.arguments)) for c in calls
            ]
            if content != "".join(text) or cleaned != calls:
                log.warning(
                    "turn %s: the endpoint sent text that is not valid Unicode; it was repaired",
                    ctx.turn_id,
                )
            calls = cleaned
            history.append(AssistantMessage(content, tuple(calls)))
            if record:
                self._sessions.transcript.append(
                    ctx.session_id,
                    ctx.turn_id,
                    "assistant",
                    content,
                    tuple(m.ToolCall(id=c.id, name=c.name, arguments=c.arguments) for c in calls),
                )
            if not calls:
                return content
            for call in calls:
                if external and self.external.owns(call.name):
                    result = await self.external.execute(ctx, call.name, call.arguments)
                else:
                    result = await self.registry.execute(ctx, call.name, call.arguments)
                history.append(ToolMessage(call.id, result.content, result.is_error))
                if record:
                    self._sessions.transcript.append(
                        ctx.session_id,
                        ctx.turn_id,
                        "tool",
                        result.content,
                        tool_call_id=call.id,
                        is_error=result.is_error,
                        todo=result.todo,
                        activity=None if result.todo else own_activity(result),
                    )
        raise StepLimitReached(
            f"stopped after {max_steps} model steps without a final answer "
            "(raise NIB_MAX_STEPS if the task needs more)"
        )


async def _nothing(_turn_id: str) -> None:
    return None


async def _close_quietly(provider: Provider) -> None:
    try:
        await provider.aclose()
    except Exception:
        log.debug("closing the provider failed", exc_info=True)
