"""The builtin TodoWrite tool: the only way a checklist is written."""

from __future__ import annotations

import apsw
from pydantic import TypeAdapter

from host.protocol.models import TodoItem
from host.todos.schema import TODO_WRITE_DESCRIPTION, TodoWriteArgs
from host.todos.service import TodoRefused, TodoService
from host.tools.context import ExecutionContext
from host.tools.registry import Tool, ToolFailed

NAME = "TodoWrite"
_ITEMS = TypeAdapter(tuple[TodoItem, ...])


def todo_write_tool(todos: TodoService) -> Tool:
    async def run(ctx: ExecutionContext, args: TodoWriteArgs) -> str:
        try:
            snapshot = todos.write(ctx, args)
        except TodoRefused as exc:
            raise ToolFailed(f"TodoWrite refused: {exc}") from None
        except apsw.Error as exc:  # rolled back: nothing was written
            raise ToolFailed(f"TodoWrite failed, nothing was written: {exc}") from None
        # the committed revision and the full list, named as the model named it
        items = _ITEMS.dump_json(snapshot.items, by_alias=True).decode()
        return f'{{"revision":{snapshot.revision},"todos":{items}}}'

    return Tool(NAME, TODO_WRITE_DESCRIPTION, TodoWriteArgs, run)
