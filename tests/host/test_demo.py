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
from host.agent.providers.demo import DemoProvider
from host.agent.providers.demo_steps import active_form, inline_items, plan_steps
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


def test_the_empty_states_example_gives_exactly_its_three_steps() -> None:
    example = "Add a dark mode: 1. add the setting 2. theme the sidebar 3. write tests"
    assert plan_steps(example) == ["Add the setting", "Theme the sidebar", "Write tests"]
    assert plan_steps("Do it: 1) lint 2) test") == ["Lint", "Test"]
    # numbers that do not count up from 1 are not a list
    assert inline_items("Bump to version 2. then 4. later") == []
    assert inline_items("Sentence 1. Sentence 2. Sentence 3.") == []


def test_the_empty_state_shows_the_example_the_test_checks() -> None:
    from pathlib import Path

    qml = (Path(__file__).parents[2] / "ui" / "qml" / "Transcript.qml").read_text()
    assert "Add a dark mode: 1. add the setting 2. theme the sidebar 3. write tests" in qml


NOT_VERBS = [
    "Step",
    "On",
    "Two",
    "Item",
    "The",
    "A",
    "Database",
    "Tests",
    "README",
    "Then",
    "First",
    "Next",
    "Finally",
    "Everything",
    "Ok",
    "UI",
    "Bug",
    "Sidebar",
]


def test_progressive_forms_are_real_words() -> None:
    from host.agent.providers.demo_steps import _GERUNDS

    for word in NOT_VERBS:  # the forms "Steping", "Oning", "Twoing", "Iteming" are gone
        assert (
            active_form(f"{word} one thing")
            == f"Working on: {word[:1].lower()}{word[1:]} one thing"
        )
    for verb, gerund in _GERUNDS.items():
        form = active_form(f"{verb.capitalize()} the thing")
        assert form == f"{gerund.capitalize()} the thing"
        assert gerund.endswith("ing") and gerund[:2] == verb[:2]
        # the stem is the verb, less a silent e, with at most one doubled consonant
        stem = gerund[: -len("ing")]
        assert stem in (verb, verb[:-1], verb + verb[-1], verb[:-2] + "y"), (verb, gerund)
    for step in [*plan_steps("make the app faster"), "Review the result"]:
        assert not active_form(step).startswith("Working on"), step


def test_text_is_kept_whole_up_to_500_characters() -> None:
    long = "Write " + "x" * 494
    assert plan_steps(f"1. {long}\n2. Short")[0] == long
    assert len(plan_steps(f"1. {long}yyyy\n2. Short")[0]) == 500


def test_numbered_and_bulleted_lines_become_steps() -> None:
    assert plan_steps("Do this:\n1. First\n2) Second\n- Third\n* Fourth") == [
        "First",
        "Second",
        "Third",
        "Fourth",
    ]


def test_two_listed_items_are_two_steps_and_nothing_is_added() -> None:
    assert plan_steps("- a\n- b") == ["A", "B"]
    assert plan_steps("1. Add the column\n2. Write the tests") == [
        "Add the column",
        "Write the tests",
    ]


def test_sentences_become_steps() -> None:
    assert plan_steps("Fix the bug. Add a test! Update the changelog.") == [
        "Fix the bug",
        "Add a test!",
        "Update the changelog",
    ]


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


def test_the_demo_calls_a_tool_a_request_names_with_arguments_from_it() -> None:
    from host.agent.providers.demo_tools import arguments, pick_tool, time_zone
    from host.tools.registry import ToolSpec

    schema = {
        "type": "object",
        "properties": {"timezone": {"type": "string"}},
        "required": ["timezone"],
    }
    convert = {
        "type": "object",
        "required": ["source_timezone", "time", "target_timezone"],
        "properties": {
            "source_timezone": {"type": "string"},
            "time": {"type": "string"},
            "target_timezone": {"type": "string"},
        },
    }
    tools = (
        ToolSpec("TodoWrite", "", {}),
        ToolSpec("mcp__time__get_current_time", "", schema),
        ToolSpec("mcp__time__convert_time", "", convert),
    )
    spec = pick_tool("What time is it in Tokyo?", tools, {"TodoWrite"})
    assert spec is not None and spec.name == "mcp__time__get_current_time"
    assert arguments(spec, "What time is it in Tokyo?") == {"timezone": "Asia/Tokyo"}
    assert time_zone("in New York please") == "America/New_York"
    assert time_zone("nowhere at all") == "UTC"
    assert pick_tool("Add a dark mode", tools, {"TodoWrite"}) is None


def test_a_list_is_a_checklist_even_when_a_step_names_a_tool() -> None:
    import asyncio

    from host.agent.providers.base import ModelRequest, ToolCallRequest, UserMessage
    from host.agent.providers.demo import DemoProvider
    from host.execution_path import ExecutionPath
    from host.tools.registry import ToolSpec

    tools = (
        ToolSpec("TodoWrite", "", {}),
        ToolSpec("mcp__time__get_current_time", "", {"type": "object"}),
    )
    text = "1. Measure the time it takes\n2. Make it faster\n3. Write tests"

    async def first_call() -> ToolCallRequest:
        request = ModelRequest(ExecutionPath.AGENT, (UserMessage(text),), tools)
        events = [e async for e in DemoProvider(0).stream(request)]
        return next(e for e in events if isinstance(e, ToolCallRequest))

    assert asyncio.run(first_call()).name == "TodoWrite"
