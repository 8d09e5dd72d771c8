"""What a provider is: given the conversation and the offered tools, a stream of text
deltas and complete tool calls for one model step."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

ChatMessage = dict[str, Any]
ToolSchema = dict[str, Any]


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ToolCallRequest:
    id: str
    name: str
    arguments: str


ModelEvent = TextDelta | ToolCallRequest


class ProviderError(Exception):
    """The model could not be asked or did not answer; the message is for the user."""


class Provider(Protocol):
    def stream(
        self, messages: list[ChatMessage], tools: list[ToolSchema]
    ) -> AsyncIterator[ModelEvent]: ...

    async def aclose(self) -> None: ...
