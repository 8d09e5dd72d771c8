from __future__ import annotations

import pytest
from pydantic import ValidationError

from host.todos.schema import MAX_ITEMS, MAX_TEXT, TodoWriteArgs, todo_write_schema


def item(content: str = "Step", status: str = "pending", **extra: object) -> dict:
    return {"content": content, "status": status, **extra}


def test_limits_are_accepted() -> None:
    args = TodoWriteArgs.model_validate(
        {"todos": [item("x" * MAX_TEXT, activeForm="y" * MAX_TEXT)] + [item()] * (MAX_ITEMS - 1)}
    )
    assert len(args.todos) == MAX_ITEMS


def test_content_is_trimmed_and_active_form_defaults_to_none() -> None:
    args = TodoWriteArgs.model_validate({"todos": [item("  Write tests \n")]})
    assert args.todos[0].content == "Write tests"
    assert args.todos[0].active_form is None


@pytest.mark.parametrize(
    ("todos", "fragment"),
    [
        ([item("x" * (MAX_TEXT + 1))], "at most 500"),
        ([item(activeForm="y" * (MAX_TEXT + 1))], "at most 500"),
        ([item("   ")], "at least 1"),
        ([item(activeForm=" \t")], "at least 1"),
        ([item()] * (MAX_ITEMS + 1), "at most 200"),
        ([item(status="in_progress"), item(status="in_progress")], "at most one item"),
        ([item(status="done")], "pending"),
        ([item(priority="high")], "Extra inputs"),
        ([{"status": "pending"}], "Field required"),
    ],
    ids=[
        "content too long",
        "activeForm too long",
        "blank content",
        "blank activeForm",
        "too many items",
        "two in progress",
        "unknown status",
        "unknown field",
        "no content",
    ],
)
def test_each_rule_refuses(todos, fragment) -> None:
    with pytest.raises(ValidationError) as info:
        TodoWriteArgs.model_validate({"todos": todos})
    assert fragment in str(info.value)


def test_unknown_top_level_field_is_refused() -> None:
    with pytest.raises(ValidationError):
        TodoWriteArgs.model_validate({"todos": [], "merge": True})


def test_schema_offered_to_models_comes_from_the_model() -> None:
    schema = todo_write_schema()
    item_schema = schema["$defs"]["TodoWriteItem"]
    assert set(item_schema["properties"]) == {"content", "status", "activeForm"}
    assert item_schema["required"] == ["content", "status"]
    assert item_schema["additionalProperties"] is False
    assert schema["properties"]["todos"]["maxItems"] == MAX_ITEMS
    assert item_schema["properties"]["content"]["maxLength"] == MAX_TEXT


@pytest.mark.parametrize("name", ["active_form", "activeform", "priority", "id"])
def test_names_outside_the_schema_are_refused(name) -> None:
    """Only what the model is offered is accepted: `activeForm`, never `active_form`."""
    item = {"content": "Write", "status": "in_progress", name: "Writing"}
    with pytest.raises(ValidationError, match=name):
        TodoWriteArgs.model_validate({"todos": [item]})
    schema_names = set(todo_write_schema()["$defs"]["TodoWriteItem"]["properties"])
    assert schema_names == {"content", "status", "activeForm"}
