"""The TodoWrite arguments (contract section 7). This one model validates every call and
generates the JSON schema that models are offered, so the two cannot drift apart."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from host.protocol.models import TodoItem, TodoStatus
from host.protocol.text import has_visible

MAX_ITEMS = 200
MAX_TEXT = 500


def _visible(text: str) -> str:
    if not has_visible(text):
        raise ValueError("the text has no visible character")
    return text


Text = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_TEXT),
    AfterValidator(_visible),
]


# The wire's TodoItem with the contract's limits: being a TodoItem, a validated item
# goes into the committed snapshot as it is.
class TodoWriteItem(TodoItem):
    """One step of the checklist. Only the schema's names are accepted (activeForm, not
    active_form): what the model is offered is exactly what is validated."""

    model_config = ConfigDict(validate_by_name=False, validate_by_alias=True)

    content: Text = Field(description="What the step is, in the imperative: 'Write the tests'.")
    status: TodoStatus = Field(description="pending, in_progress, completed or cancelled.")
    active_form: Text | None = Field(
        default=None,
        alias="activeForm",
        description="The step as it is being done: 'Writing the tests'.",
    )


class TodoWriteArgs(BaseModel):
    """The complete ordered checklist; it replaces the previous one."""

    model_config = ConfigDict(extra="forbid")

    todos: list[TodoWriteItem] = Field(max_length=MAX_ITEMS)

    @model_validator(mode="after")
    def _one_in_progress(self) -> TodoWriteArgs:
        running = [item.status for item in self.todos].count("in_progress")
        if running > 1:
            raise ValueError(f"at most one item may be in_progress, got {running}")
        return self


TODO_WRITE_DESCRIPTION = (
    "Keep the session's checklist for a multi-step task. Send the complete ordered list "
    "every time; it replaces the previous one. Mark exactly the step you are working on as "
    "in_progress (with activeForm), and mark steps completed as soon as they are done."
)


def todo_write_schema() -> dict[str, Any]:
    return TodoWriteArgs.model_json_schema(by_alias=True)
