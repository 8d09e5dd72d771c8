"""The builtin TodoWrite tool: the only way a checklist is written."""

from __future__ import annotations

import json

import apsw

from host.todos.schema import TODO_WRITE_DESCRIPTION, TodoWriteArgs
from host.todos.service import TodoRefused, TodoService
from host.tools.context import ExecutionContext
from host.tools.registry import Tool, ToolFailed

NAME = "TodoWrite"


def todo_write_tool(todos: TodoService) -> Tool:
    async def run(ctx: ExecutionContext, args: TodoWriteArgs) -> str:
        try:
            snapshot = todos.write(ctx, args)
        except TodoRefused as exc:
            raise ToolFailed(f"TodoWrite refused: {exc}") from None
        except apsw.Error as exc:  # rolled back: nothing was written
            raise ToolFailed(f"TodoWrite failed, nothing was written: {exc}") from None
        wire = snapshot.to_wire()
        return json.dumps(
            {"revision": wire["revision"], "todos": wire["items"]}, ensure_ascii=False
        )

    return Tool(NAME, TODO_WRITE_DESCRIPTION, TodoWriteArgs, run)
