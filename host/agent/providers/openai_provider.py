"""Any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, LM Studio, vLLM,
llama.cpp server) through the official SDK, streaming or not, with tool calls.

Retries: the SDK retries 408/409/429/5xx and connection errors with exponential backoff
and jitter, `NIB_MAX_RETRIES` times; each request is bounded by `NIB_REQUEST_TIMEOUT_S`.
Cancelling the turn's task closes the open stream.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import openai

from host.agent.providers.base import (
    ChatMessage,
    ContextTooLong,
    ModelEvent,
    ModelRequest,
    ProviderError,
    SystemMessage,
    TextDelta,
    ToolCallRequest,
    ToolMessage,
    Usage,
    UserMessage,
)
from host.config import Settings
from host.protocol.text import shorten
from host.tools.registry import ToolSpec

# The SDK's and httpx's debug logs carry request details; keep them quiet.
logging.getLogger("openai").setLevel(logging.WARNING)
logging.getLogger("httpx").setLevel(logging.WARNING)


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class OpenAIProvider:
    min_steps = 0  # a real model's steps are bounded by NIB_MAX_STEPS alone

    def __init__(self, settings: Settings) -> None:
        if not settings.openai_base_url:
            raise ProviderError(
                "the openai provider needs NIB_OPENAI_BASE_URL (e.g. https://api.openai.com/v1 "
                "or http://127.0.0.1:11434/v1 for Ollama)"
            )
        if not settings.model:
            raise ProviderError("the openai provider needs NIB_MODEL, the model's name")
        self._base_url = settings.openai_base_url
        self._model = settings.model
        self._stream = settings.stream
        self._timeout = settings.request_timeout_s
        # Local servers take any key; the SDK insists on one being set.
        self._client = openai.AsyncOpenAI(
            base_url=settings.openai_base_url,
            api_key=settings.openai_api_key or "no-key",
            timeout=settings.request_timeout_s,
            max_retries=settings.max_retries,
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """The step's events; a `Usage` when the endpoint reports it (whole answers
        always, streams when the server adds usage to its last chunk)."""
        kwargs: dict[str, Any] = {
            "model": self._model,
            "messages": [wire_message(message) for message in request.messages],
        }
        if request.tools:
            kwargs["tools"] = [wire_tool(tool) for tool in request.tools]
        try:
            if self._stream:
                async for event in self._streamed(kwargs):
                    yield event
            else:
                for event in await self._whole(kwargs):
                    yield event
        except openai.APITimeoutError:
            raise ProviderError(
                f"model endpoint timed out after {self._timeout:g} s: {self._base_url}"
            ) from None
        except openai.APIConnectionError as exc:
            cause = exc.__cause__ or exc
            raise ProviderError(f"model endpoint unreachable: {self._base_url} ({cause})") from None
        except openai.BadRequestError as exc:
            text = f"{getattr(exc, 'code', '')} {exc.message}".lower()
            if "context_length" in text or "context length" in text or "maximum context" in text:
                raise ContextTooLong(
                    f"the model's context is full: {shorten(exc.message, 200)}"
                ) from None
            raise ProviderError(
                f"model endpoint answered HTTP {exc.status_code}: {shorten(exc.message, 300)}"
            ) from None
        except openai.APIStatusError as exc:
            raise ProviderError(
                f"model endpoint answered HTTP {exc.status_code}: {shorten(exc.message, 300)}"
            ) from None
        except openai.OpenAIError as exc:
            raise ProviderError(f"model endpoint error: {shorten(str(exc), 300)}") from None

    async def _streamed(self, kwargs: dict[str, Any]) -> AsyncIterator[ModelEvent]:
        calls: dict[int, _PartialCall] = {}
        stream = await self._client.chat.completions.create(stream=True, **kwargs)
        async with stream:
            async for chunk in stream:
                usage = getattr(chunk, "usage", None)
                if usage is not None and getattr(usage, "prompt_tokens", None):
                    yield Usage(int(usage.prompt_tokens))
                if not chunk.choices:
                    continue
                delta = chunk.choices[0].delta
                if delta.content:
                    yield TextDelta(delta.content)
                for part in delta.tool_calls or ():
                    call = calls.setdefault(part.index, _PartialCall())
                    if part.id:
                        call.id = part.id
                    if part.function is not None:
                        if part.function.name:
                            call.name += part.function.name
                        if part.function.arguments:
                            call.arguments.append(part.function.arguments)
        for index in sorted(calls):
            call = calls[index]
            yield ToolCallRequest(call.id or f"call_{index}", call.name, "".join(call.arguments))

    async def _whole(self, kwargs: dict[str, Any]) -> list[ModelEvent]:
        response = await self._client.chat.completions.create(**kwargs)
        usage = getattr(response, "usage", None)
        events: list[ModelEvent] = []
        if usage is not None and getattr(usage, "prompt_tokens", None):
            events.append(Usage(int(usage.prompt_tokens)))
        if not response.choices:
            return events
        message = response.choices[0].message
        if message.content:
            events.append(TextDelta(message.content))
        for index, call in enumerate(message.tool_calls or ()):
            function = getattr(call, "function", None)
            if function is None:
                continue
            events.append(
                ToolCallRequest(call.id or f"call_{index}", function.name, function.arguments)
            )
        return events


def wire_message(message: ChatMessage) -> dict[str, Any]:
    """One typed message in the Chat Completions format. A tool error reaches the model
    as its text after "error: ", so it can read what went wrong and correct the call."""
    if isinstance(message, SystemMessage):
        return {"role": "system", "content": message.content}
    if isinstance(message, UserMessage):
        return {"role": "user", "content": message.content}
    if isinstance(message, ToolMessage):
        content = f"error: {message.content}" if message.is_error else message.content
        return {"role": "tool", "tool_call_id": message.call_id, "content": content}
    wire: dict[str, Any] = {"role": "assistant", "content": message.content or None}
    if message.tool_calls:
        wire["tool_calls"] = [_wire_call(call) for call in message.tool_calls]
    return wire


def _wire_call(call: ToolCallRequest) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }


def wire_tool(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters,
        },
    }
