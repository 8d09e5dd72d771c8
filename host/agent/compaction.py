"""Long sessions (contract section 12): the context budget and compaction.

Each model step re-sends the whole conversation. Before a step whose request would pass
COMPACT_AT of the model's window (`NIB_CONTEXT_TOKENS`, else a known window for the
model, else DEFAULT_WINDOW), or once when the endpoint answers that the context is too
long, the conversation so far is summarised by the same model with COMPACT_PROMPT. The
summary is stored as a message with role "summary" that stands for every message before
it; the model continues from the summary, the committed checklist and a short request to
go on. The stored transcript keeps every message.

Tokens are counted with the model's own vocabulary where it is known (o200k_base or
cl100k_base for OpenAI's models, through the offline `bpe-openai` tokenizer, each distinct
text counted once); for any other model they are estimated at three characters a token,
a deliberate overestimate for English and code. The prompts are in `host.agent.prompts`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import NamedTuple

from host.agent import prompts
from host.agent.providers.base import (
    AssistantMessage,
    ChatMessage,
    SystemMessage,
    ToolMessage,
    UserMessage,
)
from host.config import Settings
from host.tools.registry import ToolSpec

COMPACT_AT = 0.8
DEFAULT_WINDOW = 32_000
CHARS_PER_TOKEN = 3
# Known windows, by model name prefix (the longest prefix wins).
WINDOWS = {
    "gpt-4o": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-5": 400_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "gpt-4-turbo": 128_000,
    "gpt-3.5-turbo": 16_385,
    "llama3": 8_192,
    "qwen2.5": 32_768,
}


def context_window(settings: Settings) -> int:
    if settings.context_tokens:
        return settings.context_tokens
    model = (settings.model or "").lower()
    matches = [prefix for prefix in WINDOWS if model.startswith(prefix)]
    return WINDOWS[max(matches, key=len)] if matches else DEFAULT_WINDOW


# vocabularies of known model families, by name prefix (the longest prefix wins)
ENCODINGS = {
    "gpt-4o": "o200k_base", "gpt-4.1": "o200k_base", "gpt-5": "o200k_base",
    "o1": "o200k_base", "o3": "o200k_base", "o4-mini": "o200k_base",
    "gpt-4": "cl100k_base", "gpt-3.5-turbo": "cl100k_base",
}  # fmt: skip
PER_MESSAGE = 5  # the chat format's own tokens around each message
SLICE = 100_000  # characters counted at a time


class TokenCounter:
    """Tokens of a conversation for one model: exact where its vocabulary is known, else
    the estimate. Each distinct text is counted once (a turn re-sends the same messages
    every step)."""

    def __init__(self, model: str | None) -> None:
        self.exact = False
        self._encode: Callable[[str], list[int]] | None = None
        name = (model or "").lower()
        matches = [prefix for prefix in ENCODINGS if name.startswith(prefix)]
        if matches:
            try:
                from bpe_openai import get_encoding

                self._encode = get_encoding(ENCODINGS[max(matches, key=len)]).encode
                self.exact = True
            except Exception:  # not installed (e.g. a minimal bundle): the estimate
                self._encode = None
        self._cache: dict[str, int] = {}
        self.scale = 1.0  # the estimate corrected by what the endpoint reported

    def calibrate(self, estimated: int, reported: int) -> None:
        """The endpoint counted `reported` prompt tokens where the estimate said
        `estimated`: later estimates follow (an average that leans to the newest, never
        below the bare estimate's own safety margin shrinking under half)."""
        if self.exact or estimated <= 0 or reported <= 0:
            return
        seen = reported / (estimated / self.scale)
        self.scale = max(0.5, 0.5 * self.scale + 0.5 * seen)

    def text(self, text: str) -> int:
        if self._encode is None:
            return int((len(text) // CHARS_PER_TOKEN + 1) * self.scale)
        counted = self._cache.get(text)
        if counted is None:
            if len(self._cache) > 4096:
                self._cache.clear()
            counted = self._cache[text] = self._count(text)
        return counted

    def _count(self, text: str) -> int:
        """The vocabulary's count, a slice at a time (the tokenizer refuses very long
        input); the estimate if it fails."""
        assert self._encode is not None
        try:
            return sum(len(self._encode(text[i : i + SLICE])) for i in range(0, len(text), SLICE))
        except Exception:
            return len(text) // CHARS_PER_TOKEN + 1

    def conversation(self, messages: list[ChatMessage], tools: tuple[ToolSpec, ...] = ()) -> int:
        total = 0
        for message in messages:
            total += self.text(message.content) + PER_MESSAGE
            if isinstance(message, AssistantMessage):
                total += sum(
                    self.text(c.name) + self.text(c.arguments) + 8 for c in message.tool_calls
                )
        total += sum(
            self.text(json.dumps(t.parameters)) + self.text(t.description) + 12 for t in tools
        )
        return total


class Budget(NamedTuple):
    window: int  # the model's context window, in tokens
    counter: TokenCounter


def render(messages: list[ChatMessage], limit_chars: int) -> str:
    """The conversation as text for the summarising request, its newest part kept when
    it is longer than `limit_chars`."""
    lines: list[str] = []
    for message in messages:
        if isinstance(message, UserMessage):
            lines.append(f"User: {message.content}")
        elif isinstance(message, AssistantMessage):
            calls = "; ".join(f"{c.name}({c.arguments[:400]})" for c in message.tool_calls)
            lines.append(f"Assistant: {message.content}" + (f" [called {calls}]" if calls else ""))
        elif isinstance(message, ToolMessage):
            lines.append(f"Tool result: {message.content[:1000]}")
        elif isinstance(message, SystemMessage):
            lines.append(f"Context: {message.content[:2000]}")
    text = "\n".join(lines)
    return text if len(text) <= limit_chars else "…" + text[-limit_chars:]


def summary_message(summary: str) -> SystemMessage:
    return SystemMessage(prompts.SUMMARY_HEADING + summary)
