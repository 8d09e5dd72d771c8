"""The builtin Task tool: a delegated sub-agent on the same provider, whose final answer
is the tool result. The sub-agent runs on the delegated path and is offered no tools."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pydantic import BaseModel, ConfigDict, Field

from host.execution_path import ExecutionContext, ExecutionPath
from host.tools.registry import Tool, ToolFailed

NAME = "Task"
DESCRIPTION = "Delegate a self-contained task to a sub-agent and get its final answer."

# Runs the sub-agent in the given (delegated) context on the task's text; its final text.
RunDelegated = Callable[[ExecutionContext, str], Awaitable[str]]


class TaskArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1, max_length=500, description="A short label.")
    prompt: str = Field(min_length=1, max_length=100_000, description="The sub-agent's task.")


def task_tool(run_delegated: RunDelegated) -> Tool:
    async def run(ctx: ExecutionContext, args: TaskArgs) -> str:
        if ctx.path is not ExecutionPath.AGENT:
            raise ToolFailed(f"Task is only available on the agent path, not {ctx.path.value}")
        sub = ExecutionContext(ctx.session_id, ctx.turn_id, ExecutionPath.DELEGATED)
        return await run_delegated(sub, f"{args.description}\n\n{args.prompt}")

    return Tool(NAME, DESCRIPTION, TaskArgs, run)
