"""The tool registry: every call goes through `execute` with its execution context.

Arguments are validated by the tool's pydantic model; a validation error or a refusal
becomes a tool error the model can read and correct, never an exception for the turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from host.execution_path import ExecutionContext
from host.protocol import models as m


@dataclass(frozen=True)
class ToolSpec:
    """A tool as a model is offered it: its name, what it does, its JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any] = field(hash=False)

    @classmethod
    def of(cls, name: str, description: str, args: type[BaseModel]) -> ToolSpec:
        """A tool validated by `args`: its schema generated from that model."""
        return cls(name, description, args.model_json_schema(by_alias=True))


class ToolResult(NamedTuple):
    content: str
    is_error: bool = False
    todo: m.TodoCommit | None = None  # what a checklist write committed


class ToolFailed(Exception):
    """A tool could not do what was asked; the message goes back to the model."""


class Tool(NamedTuple):
    name: str
    description: str
    args: type[BaseModel]
    run: Callable[[ExecutionContext, Any], Awaitable[str | ToolResult]]

    def spec(self) -> ToolSpec:
        """The tool as a model is offered it, its schema generated from the validating
        model."""
        return ToolSpec.of(self.name, self.description, self.args)


def describe_validation(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if errors and errors[0]["type"] == "json_invalid":
        return f"arguments are not valid JSON: {errors[0]['msg']}"
    if errors and errors[0]["type"] == "model_type" and not errors[0]["loc"]:
        return "arguments must be a JSON object"
    lines = []
    for err in errors:
        where = ".".join(str(part) for part in err["loc"]) or "arguments"
        lines.append(f"{where}: {err['msg']}")
    return "invalid arguments: " + "; ".join(lines)


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools = {tool.name: tool for tool in tools}

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def specs(self, names: Iterable[str]) -> tuple[ToolSpec, ...]:
        return tuple(self._tools[name].spec() for name in names)

    async def execute(
        self, ctx: ExecutionContext, name: str, arguments: str | dict[str, Any]
    ) -> ToolResult:
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(f"unknown tool {name!r}", is_error=True)
        try:
            if isinstance(arguments, str):  # as models send them: parsed and checked in one go
                args = tool.args.model_validate_json(arguments.strip() or "{}")
            else:
                args = tool.args.model_validate(arguments)
        except ValidationError as exc:
            return ToolResult(describe_validation(exc), is_error=True)
        try:
            result = await tool.run(ctx, args)
        except ToolFailed as exc:
            return ToolResult(str(exc), is_error=True)
        return result if isinstance(result, ToolResult) else ToolResult(result)
