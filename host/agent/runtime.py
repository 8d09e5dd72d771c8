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
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from host.agent import prompts
from host.agent.providers import make_provider
from host.agent.providers.base import ChatMessage, Provider, ProviderError, TextDelta
from host.config import Settings, SettingsError, load_settings
from host.protocol import errors
from host.protocol import models as m
from host.sessions.service import SessionService
from host.todos.service import TodoService
from host.tools.context import ExecutionContext, ToolOrigin
from host.tools.registry import Tool, ToolFailed, ToolRegistry
from host.tools.todo_write import NAME as TODO_WRITE
from host.tools.todo_write import todo_write_tool

log = logging.getLogger(__name__)

TASK = "Task"
AGENT_TOOLS = (TODO_WRITE, TASK)
_ORIGIN_BY_MODE = {"agent": ToolOrigin.AGENT, "plan": ToolOrigin.PLAN, "goal": ToolOrigin.GOAL}


class TaskArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1, max_length=500, description="A short label.")
    prompt: str = Field(min_length=1, max_length=100_000, description="The sub-agent's task.")


class StepLimitReached(Exception):
    pass


class AgentRuntime:
    def __init__(self, data_dir: Path | None, sessions: SessionService, todos: TodoService) -> None:
        self._data_dir = data_dir
        self._sessions = sessions
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.registry = ToolRegistry([todo_write_tool(todos), self._task_tool()])
        self._providers: dict[str, Provider] = {}
        # One provider per distinct settings, kept across turns: building an HTTP client
        # (TLS context, connection pool) costs more than a whole model step.
        self._cache: dict[Settings, Provider] = {}

    @property
    def running(self) -> int:
        return len(self._tasks)

    def start(self, params: m.StartTurnParams) -> m.Turn:
        turn, _message = self._sessions.begin_turn(params.session_id, params.text)
        session = self._sessions.get(params.session_id)
        task = asyncio.ensure_future(self._run(session, turn))
        self._tasks[turn.id] = task
        task.add_done_callback(lambda _t: self._tasks.pop(turn.id, None))
        return turn

    async def cancel(self, params: m.TurnRef) -> m.Turn:
        turn = self._sessions.get_turn(params.session_id, params.turn_id)
        task = self._tasks.get(turn.id)
        if turn.state != "running" or task is None:
            raise errors.TurnNotFound(f"turn {turn.id} is not running (it is {turn.state})")
        task.cancel()
        await asyncio.wait({task})
        return self._sessions.get_turn(params.session_id, params.turn_id)

    async def shutdown(self) -> None:
        """Cancel every running turn and wait for each to be ended as cancelled."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
        for provider in self._cache.values():
            await _close_quietly(provider)
        self._cache.clear()

    def _provider(self, settings: Settings) -> Provider:
        provider = self._cache.get(settings)
        if provider is None:
            provider = self._cache[settings] = make_provider(settings)
        return provider

    # ---------------------------------------------------------------------------------

    async def _run(self, session: m.Session, turn: m.Turn) -> None:
        ctx = ExecutionContext(session.id, turn.id, _ORIGIN_BY_MODE[session.mode])
        state, error = "completed", None
        try:
            settings = load_settings(self._data_dir)
            provider = self._provider(settings)
            self._providers[turn.id] = provider
            tools = list(AGENT_TOOLS) if session.mode == "agent" else []
            history = [{"role": "system", "content": prompts.BY_MODE[session.mode]}]
            history += _chat_history(self._sessions.messages(session.id))
            await self._loop(ctx, provider, history, tools, settings.max_steps, record=True)
        except asyncio.CancelledError:
            state, error = "cancelled", None
        except (ProviderError, SettingsError) as exc:
            state, error = "failed", str(exc)
        except StepLimitReached as exc:
            state, error = "failed", str(exc)
        except Exception as exc:
            log.exception("turn %s failed", turn.id)
            state, error = "failed", f"internal error: {type(exc).__name__}: {exc}"
        finally:
            self._providers.pop(turn.id, None)
            self._sessions.end_turn(session.id, turn.id, state, error)

    async def _loop(
        self,
        ctx: ExecutionContext,
        provider: Provider,
        history: list[ChatMessage],
        tools: list[str],
        max_steps: int,
        record: bool,
    ) -> str:
        schemas = self.registry.schemas(tools)
        for _step in range(max_steps):
            text: list[str] = []
            calls: list[m.ToolCall] = []
            async for event in provider.stream(history, schemas):
                if isinstance(event, TextDelta):
                    text.append(event.text)
                else:
                    calls.append(
                        m.ToolCall(id=event.id, name=event.name, arguments=event.arguments)
                    )
            content = "".join(text)
            history.append(_assistant(content, calls))
            if record:
                self._sessions.append_message(
                    ctx.session_id, ctx.turn_id, "assistant", content, tuple(calls)
                )
            if not calls:
                return content
            for call in calls:
                result = await self.registry.execute(ctx, call.name, call.arguments)
                shown = f"error: {result.content}" if result.is_error else result.content
                history.append({"role": "tool", "tool_call_id": call.id, "content": shown})
                if record:
                    self._sessions.append_message(
                        ctx.session_id,
                        ctx.turn_id,
                        "tool",
                        result.content,
                        tool_call_id=call.id,
                        is_error=result.is_error,
                    )
        raise StepLimitReached(
            f"stopped after {max_steps} model steps without a final answer "
            "(raise NIB_MAX_STEPS if the task needs more)"
        )

    def _task_tool(self) -> Tool:
        async def run(ctx: ExecutionContext, args: TaskArgs) -> str:
            if ctx.origin is not ToolOrigin.AGENT:
                raise ToolFailed(
                    f"Task is only available on the agent path, not {ctx.origin.value}"
                )
            provider = self._providers.get(ctx.turn_id)
            if provider is None:
                raise ToolFailed("Task can only run inside a running turn")
            sub = ExecutionContext(ctx.session_id, ctx.turn_id, ToolOrigin.DELEGATED)
            history: list[ChatMessage] = [
                {"role": "system", "content": prompts.DELEGATED},
                {"role": "user", "content": f"{args.description}\n\n{args.prompt}"},
            ]
            settings = load_settings(self._data_dir)
            return await self._loop(sub, provider, history, [], settings.max_steps, record=False)

        return Tool(
            TASK,
            "Delegate a self-contained task to a sub-agent and get its final answer.",
            TaskArgs,
            run,
        )


def _assistant(content: str, calls: list[m.ToolCall]) -> ChatMessage:
    message: ChatMessage = {"role": "assistant", "content": content or None}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    return message


def _chat_history(messages: tuple[m.Message, ...]) -> list[ChatMessage]:
    history: list[ChatMessage] = []
    for message in messages:
        if message.role == "user":
            history.append({"role": "user", "content": message.content})
        elif message.role == "assistant":
            history.append(_assistant(message.content, list(message.tool_calls)))
        else:
            content = f"error: {message.content}" if message.is_error else message.content
            history.append(
                {"role": "tool", "tool_call_id": message.tool_call_id, "content": content}
            )
    return _drop_unanswered(history)


def _drop_unanswered(history: list[ChatMessage]) -> list[ChatMessage]:
    """A turn cut short can leave tool calls without results, which models refuse; answer
    them as interrupted so the conversation stays valid."""
    out: list[ChatMessage] = []
    pending: list[str] = []
    for message in history:
        if message["role"] != "tool" and pending:
            out.extend(
                {"role": "tool", "tool_call_id": cid, "content": "error: interrupted"}
                for cid in pending
            )
            pending = []
        if message["role"] == "assistant":
            pending = [call["id"] for call in message.get("tool_calls", [])]
        elif message["role"] == "tool" and message["tool_call_id"] in pending:
            pending.remove(message["tool_call_id"])
        out.append(message)
    out.extend(
        {"role": "tool", "tool_call_id": cid, "content": "error: interrupted"} for cid in pending
    )
    return out


async def _close_quietly(provider: Provider) -> None:
    try:
        await provider.aclose()
    except Exception:
        log.debug("closing the provider failed", exc_info=True)
