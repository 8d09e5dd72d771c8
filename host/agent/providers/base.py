"""What a provider is: given one typed model request (the execution path, the
conversation and the offered tools), a stream of text deltas and complete tool calls for
one model step (and, where the endpoint reports it, the step's prompt token count).
Providers translate these types to their endpoint's wire format; nothing
outside a provider sees that format."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import NamedTuple, Protocol

from host.execution_path import ExecutionPath
from host.tools.registry import ToolSpec


class TextDelta(NamedTuple):
    text: str


class ToolCallRequest(NamedTuple):
    id: str
    name: str
    arguments: str


class Usage(NamedTuple):
    """The prompt tokens the endpoint counted for this step's request, when it says: part
    of the step's own stream, so two sessions' turns on one provider never mix theirs."""

    prompt_tokens: int


ModelEvent = TextDelta | ToolCallRequest | Usage


class SystemMessage(NamedTuple):
    content: str


class UserMessage(NamedTuple):
    content: str


class AssistantMessage(NamedTuple):
    content: str
    tool_calls: tuple[ToolCallRequest, ...] = ()


class ToolMessage(NamedTuple):
    call_id: str
    content: str
    is_error: bool = False


ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage


class ModelRequest(NamedTuple):
    path: ExecutionPath
    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...] = ()

    def offers(self, name: str) -> bool:
        return any(tool.name == name for tool in self.tools)


class ProviderError(Exception):
    """The model could not be asked or did not answer; the message is for the user."""


class ContextTooLong(ProviderError):
    """The endpoint refused the request as longer than the model's context window."""


class Provider(Protocol):
    # model steps the provider itself may need for one turn (0: no floor of its own);
    # the turn's step limit is never below it
    min_steps: int

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]: ...

    async def aclose(self) -> None: ...
