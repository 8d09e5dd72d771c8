"""Long sessions (contract section 12): the context budget and compaction.

Each model step re-sends the whole conversation. Before a step whose request would pass
COMPACT_AT of the model's window (`NIB_CONTEXT_TOKENS`, else a known window for the
model, else DEFAULT_WINDOW), or once when the endpoint answers that the context is too
long, the conversation so far is summarised by the same model with COMPACT_PROMPT. The
summary is stored as a message with role "summary" that stands for every message before
it; the model continues from the summary, the committed checklist and a short request to
go on. The stored transcript keeps every message.

Tokens are estimated, not counted: three characters a token, plus a few per message, a
deliberate overestimate for English and code with the o200k and cl100k vocabularies (the
prompts are in `host.agent.prompts`).
"""

from __future__ import annotations

import json

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


def estimate_tokens(messages: list[ChatMessage], tools: tuple[ToolSpec, ...] = ()) -> int:
    chars = 0
    for message in messages:
        chars += len(message.content) + 16
        if isinstance(message, AssistantMessage):
            chars += sum(len(c.name) + len(c.arguments) + 24 for c in message.tool_calls)
    chars += sum(len(json.dumps(t.parameters)) + len(t.description) + 40 for t in tools)
    return chars // CHARS_PER_TOKEN + 1


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
