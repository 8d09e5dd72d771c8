"""The offline demo agent: deterministic, no account, no network.

It turns the user's text into a checklist and works through it with TodoWrite, one call
per step change, through the same tool path as any model. A list in the text (numbered or
bulleted lines) keeps its items, up to MAX_LISTED; prose of three to eight sentences gives
one step per sentence; anything shorter gets a five-step breakdown of the request.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from host.agent.providers.base import (
    ChatMessage,
    ModelEvent,
    ModelRequest,
    TextDelta,
    ToolCallRequest,
    ToolMessage,
    UserMessage,
)
from host.execution_path import ExecutionPath
from host.protocol.text import LIST_ITEM

MAX_LISTED = 50
MIN_STEPS, MAX_SENTENCES = 3, 8
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_DOUBLE_FINAL = {"run", "set", "plan", "get", "put", "ship", "stop", "map", "wrap", "drop", "tag"}
_VERB_EXCEPTIONS = {"be": "Being", "see": "Seeing", "free": "Freeing", "agree": "Agreeing"}


def _clean(text: str, limit: int = 200) -> str:
    text = " ".join(text.split()).rstrip(".;:")
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text[:1].upper() + text[1:]


def _gerund(word: str) -> str:
    lower = word.lower()
    if lower in _VERB_EXCEPTIONS:
        return _VERB_EXCEPTIONS[lower]
    if lower in _DOUBLE_FINAL:
        stem = lower + lower[-1]
    elif lower.endswith("ie"):
        stem = lower[:-2] + "y"
    elif lower.endswith("e") and not lower.endswith(("ee", "ye", "oe")):
        stem = lower[:-1]
    else:
        stem = lower
    return (stem + "ing").capitalize()


def active_form(content: str) -> str:
    """'Write the migration tests' -> 'Writing the migration tests'."""
    first, _, rest = content.partition(" ")
    if not first.isalpha() or first.lower().endswith("ing"):
        return f"Working on: {content[:1].lower()}{content[1:]}"
    return f"{_gerund(first)} {rest}".strip()


def plan_steps(text: str) -> list[str]:
    lines = [LIST_ITEM.match(line) for line in text.splitlines()]
    listed = [_clean(match.group(1)) for match in lines if match]
    listed = [item for item in listed if item]
    if len(listed) >= 2:
        steps = listed[:MAX_LISTED]
        if len(steps) < MIN_STEPS:
            steps.append("Review the result")
        return steps
    sentences = [_clean(part) for part in _SENTENCE_END.split(text.strip())]
    sentences = [part for part in sentences if part]
    if MIN_STEPS <= len(sentences) <= MAX_SENTENCES:
        return sentences
    subject = _clean(text, 80) or "the request"
    subject = subject[:1].lower() + subject[1:]
    return [
        f"Read the request: {subject}",
        "Survey the code it touches",
        "Make the change",
        "Write tests for the change",
        "Run the checks and review the result",
    ]


def _last_user_index(messages: tuple[ChatMessage, ...]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], UserMessage):
            return index
    return -1


class DemoProvider:
    def __init__(self, step_delay_s: float) -> None:
        self._delay = step_delay_s

    async def aclose(self) -> None:
        return None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        messages = request.messages
        start = _last_user_index(messages)
        asked = messages[start] if start >= 0 else None
        steps = plan_steps(asked.content if isinstance(asked, UserMessage) else "")
        if not request.offers("TodoWrite"):
            yield TextDelta(self._without_tools(request.path, steps))
            return
        results = [msg for msg in messages[start + 1 :] if isinstance(msg, ToolMessage)]
        if results and results[-1].is_error:
            reason = results[-1].content
            yield TextDelta(f"I could not update the checklist ({reason}), so I stopped.")
            return
        done = len(results)
        total = 1 + 2 * len(steps)
        if done >= total:
            yield TextDelta(f"Done: all {len(steps)} steps are completed.")
            return
        if done > 0 and self._delay > 0:
            await asyncio.sleep(self._delay)
        if done == 0:
            yield TextDelta(f"I'll work through this in {len(steps)} steps.")
        yield ToolCallRequest(
            f"demo-{done}", "TodoWrite", json.dumps({"todos": self._checklist(steps, done)})
        )

    @staticmethod
    def _checklist(steps: list[str], action: int) -> list[dict[str, Any]]:
        """Action 0 writes every step pending; action 2i+1 starts step i; 2i+2 ends it."""
        items: list[dict[str, Any]] = []
        for index, content in enumerate(steps):
            item: dict[str, Any] = {"content": content, "status": "pending"}
            if action > 0:
                current, finishing = divmod(action - 1, 2)
                if index < current or (index == current and finishing):
                    item["status"] = "completed"
                elif index == current:
                    item["status"] = "in_progress"
                    item["activeForm"] = active_form(content)
            items.append(item)
        return items

    @staticmethod
    def _without_tools(path: ExecutionPath, steps: list[str]) -> str:
        numbered = "\n".join(f"{n}. {step}" for n, step in enumerate(steps, 1))
        if path is ExecutionPath.GOAL:
            return f"Proposed goal: {steps[0]}\nAcceptance criteria:\n" + "\n".join(
                f"- {step}" for step in steps[1:]
            )
        return f"Here is a plan; nothing has been changed yet.\n{numbered}"
