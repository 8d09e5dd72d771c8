"""The offline demo agent: deterministic, no account, no network.

It turns the user's text into a checklist and works through it with TodoWrite, one call
per step change, through the same tool path as any model. A list in the text (numbered or
bulleted lines) keeps its items, up to MAX_LISTED; prose of three to eight sentences gives
one step per sentence; anything shorter gets a five-step breakdown of the request. Items
numbered inside one line ("Add a dark mode: 1. add the setting 2. theme the sidebar") are
a list too.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from host.agent import prompts
from host.agent.providers import demo_tools
from host.agent.providers.base import (
    ChatMessage,
    ModelEvent,
    ModelRequest,
    SystemMessage,
    TextDelta,
    ToolCallRequest,
    ToolMessage,
    UserMessage,
)
from host.agent.providers.demo_steps import (
    MAX_LISTED,
    active_form,
    continues,
    listed_items,
    plan_steps,
)
from host.execution_path import ExecutionPath
from host.protocol import feedback
from host.protocol.text import shorten

_CHECKLIST_LINE = re.compile(r"^\d+\. \[(\w+)\] (.*)$")


def _last_user_index(messages: tuple[ChatMessage, ...]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], UserMessage):
            return index
    return -1


def _listing(messages: tuple[ChatMessage, ...]) -> list[tuple[str, str]]:
    """The committed checklist the host gave before the request, (content, status)."""
    listed = next(
        (
            m.content
            for m in reversed(messages)
            if isinstance(m, SystemMessage) and m.content.startswith(prompts.CHECKLIST_HEADING)
        ),
        "",
    )
    items = [_CHECKLIST_LINE.match(line) for line in listed.splitlines()]
    return [(match.group(2), match.group(1)) for match in items if match]


def _item(content: str, status: str) -> dict[str, Any]:
    item: dict[str, Any] = {"content": content, "status": status}
    if status == "in_progress":
        item["activeForm"] = active_form(content)
    return item


def _progressions(items: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Each checklist the demo writes from `items` on: the list as it is with its first
    unfinished step started, then that step completed and the next started, to the end."""
    writes: list[list[tuple[str, str]]] = []
    held = list(items)
    while True:
        running = next((i for i, (_c, s) in enumerate(held) if s == "in_progress"), -1)
        waiting = next((i for i, (_c, s) in enumerate(held) if s == "pending"), -1)
        if running >= 0:
            held[running] = (held[running][0], "completed")
        if waiting >= 0:
            held[waiting] = (held[waiting][0], "in_progress")
        if running < 0 and waiting < 0:
            return writes or [held]
        writes.append(list(held))


class DemoProvider:
    # one write with every step pending, a start and an end per step, the final answer:
    # the longest list it accepts always fits in a turn, whatever NIB_MAX_STEPS says
    min_steps = 2 * MAX_LISTED + 2

    def __init__(self, step_delay_s: float) -> None:
        self._delay = step_delay_s

    async def aclose(self) -> None:
        return None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        messages = request.messages
        first = messages[0] if messages else None
        if isinstance(first, SystemMessage) and first.content == prompts.COMPACT:
            yield TextDelta(self._summary(messages))
            return
        start = _last_user_index(messages)
        asked = messages[start] if start >= 0 else None
        steps = plan_steps(asked.content if isinstance(asked, UserMessage) else "")
        base = 0  # TodoWrites done before the last user message (none, unless compacted)
        if isinstance(asked, UserMessage) and continues(asked.content):
            # carry the committed checklist on (the host gave it just before the request)
            resumed, done_before = self._resumed(messages[:start])
            if resumed or asked.content == prompts.CONTINUE:
                steps, base = resumed, done_before
        if request.path is ExecutionPath.MCP:  # a model call an MCP server asked for
            text = asked.content if isinstance(asked, UserMessage) else ""
            yield TextDelta(f"A demo answer to: {shorten(text, 200)}")
            return
        if not request.offers("TodoWrite"):
            yield TextDelta(self._without_tools(request.path, steps))
            return
        told = feedback.parse(asked.content) if isinstance(asked, UserMessage) else None
        if base and told is None and any(s == "cancelled" for _c, s in _listing(messages[:start])):
            told = (_listing(messages[:start]), [])  # a list the user changed, carried on
        if told is not None:  # the user's feedback on the plan: follow it
            async for event in self._follow(*told, messages[start + 1 :]):
                yield event
            return
        if isinstance(asked, UserMessage) and not listed_items(asked.content):
            # a request, not a list of steps: a tool it names is used (a list is worked
            # through as a checklist, even if a step's words name a tool)
            used = False
            async for event in self._use_tool(asked.content, request, messages[start + 1 :]):
                used = True
                yield event
            if used:
                return
        results = [msg for msg in messages[start + 1 :] if isinstance(msg, ToolMessage)]
        if results and results[-1].is_error:
            reason = results[-1].content
            yield TextDelta(f"I could not update the checklist ({reason}), so I stopped.")
            return
        done = base + len(results)
        total = 1 + 2 * len(steps)
        if done >= total:
            yield TextDelta(f"Done: all {len(steps)} steps are completed.")
            return
        if done > 0:
            # unpaced, it still lets every other client be served between its steps
            await asyncio.sleep(self._delay)
        if done == 0:
            yield TextDelta(f"I'll work through this in {len(steps)} steps.")
        elif done == base and base > 0:
            compacted = isinstance(asked, UserMessage) and asked.content == prompts.CONTINUE
            if compacted:
                yield TextDelta("Picking up from the checklist after compacting the context.")
            else:
                yield TextDelta("Picking up from the first unfinished step.")
        yield ToolCallRequest(
            f"demo-{done}", "TodoWrite", json.dumps({"todos": self._checklist(steps, done)})
        )

    async def _follow(
        self,
        items: list[tuple[str, str]],
        asks: list[feedback.PlanAsk],
        since: tuple[ChatMessage, ...],
    ) -> AsyncIterator[ModelEvent]:
        """The checklist as the user's feedback asks, written first, then each
        unfinished step worked through (a step in progress starts again)."""
        asked = [
            (c, "pending" if s == "in_progress" else s) for c, s in feedback.apply(items, asks)
        ]
        writes = _progressions(asked)
        results = [msg for msg in since if isinstance(msg, ToolMessage)]
        if results and results[-1].is_error:
            yield TextDelta(
                f"I could not update the checklist ({results[-1].content}), so I stopped."
            )
            return
        if len(results) >= len(writes):
            yield TextDelta(f"Done: the checklist is as you asked, {len(asked)} steps.")
            return
        if results:
            await asyncio.sleep(self._delay)
        else:
            noted = [f"Noted on “{a.step}”: {a.text}" for a in asks if a.kind == "comment"]
            opening = (
                "I'll change the plan as you asked." if asks else "Picking up from the checklist."
            )
            yield TextDelta("\n".join([opening, *noted]))
        todos = [_item(content, status) for content, status in writes[len(results)]]
        yield ToolCallRequest(
            f"demo-feedback-{len(results)}", "TodoWrite", json.dumps({"todos": todos})
        )

    async def _use_tool(
        self, text: str, request: ModelRequest, since: tuple[ChatMessage, ...]
    ) -> AsyncIterator[ModelEvent]:
        """A tool the request names: called once, then its answer given (nothing if the
        request names none, and the checklist work goes on as usual)."""
        spec = demo_tools.pick_tool(text, request.tools, {"TodoWrite", "Task"})
        if spec is None:
            return
        result = next(
            (
                msg
                for msg in since
                if isinstance(msg, ToolMessage) and msg.call_id.startswith(demo_tools.CALL_PREFIX)
            ),
            None,
        )
        name = demo_tools.own_name(spec)
        if result is None:
            arguments = demo_tools.arguments(spec, text)
            yield TextDelta(f"I'll ask the {name} tool.")
            yield ToolCallRequest(f"{demo_tools.CALL_PREFIX}0", spec.name, json.dumps(arguments))
            return
        if self._delay:
            await asyncio.sleep(min(self._delay, 0.5))
        if result.is_error:
            yield TextDelta(f"The {name} tool did not answer: {shorten(result.content, 500)}")
        else:
            yield TextDelta(f"The {name} tool says:\n{shorten(result.content, 2000)}")

    @staticmethod
    def _summary(messages: tuple[ChatMessage, ...]) -> str:
        """A deterministic compaction summary: how much it stands for and the request."""
        text = messages[-1].content if messages else ""
        lines = [line for line in text.splitlines() if line.strip()]
        request = next((line[len("User: ") :] for line in lines if line.startswith("User: ")), "")
        # no count of its own: the window counts the stored messages, the same everywhere
        return (
            f"The demo agent summarised the conversation so far. The request was: "
            f"{shorten(request, 300)}. The checklist below says where the work stands."
        )

    @staticmethod
    def _resumed(messages: tuple[ChatMessage, ...]) -> tuple[list[str], int]:
        """After a compaction: the steps and the TodoWrites done, from the committed
        checklist the host gave (one write with every step pending, then a start and an
        end per step)."""
        found = _listing(messages)
        steps = [content for content, _status in found]
        completed = sum(1 for _, status in found if status == "completed")
        running = any(status == "in_progress" for _, status in found)
        return steps, 1 + 2 * completed + (1 if running else 0)

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
