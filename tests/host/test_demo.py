from __future__ import annotations

import asyncio
import json

import pytest

from host.agent.providers.base import (
    ModelRequest,
    SystemMessage,
    TextDelta,
    ToolCallRequest,
    UserMessage,
)
from host.agent.providers.demo import DemoProvider, active_form, plan_steps
from host.execution_path import ExecutionPath
from host.tools.registry import ToolSpec


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("Write the migration tests", "Writing the migration tests"),
        ("Run the suite", "Running the suite"),
        ("Add a column", "Adding a column"),
        ("Tidy up", "Tidying up"),
        ("Update the docs", "Updating the docs"),
        ("42 things", "Working on: 42 things"),
    ],
)
def test_active_form(content, expected) -> None:
    assert active_form(content) == expected


def test_numbered_and_bulleted_lines_become_steps() -> None:
    assert plan_steps("Do this:\n1. First\n2) Second\n- Third\n* Fourth") == [
        "First", "Second", "Third", "Fourth",
    ]  # fmt: skip


def test_two_listed_items_get_a_review_step() -> None:
    assert plan_steps("- a\n- b") == ["A", "B", "Review the result"]


def test_sentences_become_steps() -> None:
    assert plan_steps("Fix the bug. Add a test! Update the changelog.") == [
        "Fix the bug", "Add a test!", "Update the changelog",
    ]  # fmt: skip


def test_one_line_request_gets_a_breakdown_within_bounds() -> None:
    steps = plan_steps("make the app faster")
    assert 3 <= len(steps) <= 8
    assert "make the app faster" in steps[0]


def test_many_sentences_fall_back_to_the_breakdown() -> None:
    steps = plan_steps(" ".join(f"Sentence {i}." for i in range(12)))
    assert 3 <= len(steps) <= 8


def test_twenty_listed_items_are_kept() -> None:
    text = "\n".join(f"{i}. Step {i}" for i in range(1, 21))
    assert len(plan_steps(text)) == 20


def _answer(path: ExecutionPath, tools: tuple[ToolSpec, ...] = ()) -> list[object]:
    async def collect() -> list[object]:
        request = ModelRequest(
            path, (SystemMessage("You are an assistant."), UserMessage("a. b. c.")), tools
        )
        return [event async for event in DemoProvider(0).stream(request)]

    return asyncio.run(collect())


def test_the_mode_reaches_the_provider_explicitly() -> None:
    """Goal mode is told by the request's path, not guessed from the system prompt."""
    goal = _answer(ExecutionPath.GOAL)
    plan = _answer(ExecutionPath.PLAN)
    assert isinstance(goal[0], TextDelta) and goal[0].text.startswith("Proposed goal: A")
    assert isinstance(plan[0], TextDelta) and plan[0].text.startswith("Here is a plan")


def test_an_agent_request_with_todo_write_gets_a_typed_tool_call() -> None:
    spec = ToolSpec("TodoWrite", "checklist", {"type": "object"})
    events = _answer(ExecutionPath.AGENT, (spec,))
    call = events[-1]
    assert isinstance(call, ToolCallRequest) and call.name == "TodoWrite"
    assert json.loads(call.arguments)["todos"][0] == {"content": "A", "status": "pending"}
