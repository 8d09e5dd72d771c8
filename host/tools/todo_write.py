"""The builtin TodoWrite tool: the only way a checklist is written."""

from __future__ import annotations

import logging

import apsw
from pydantic import TypeAdapter

from host.execution_path import ExecutionContext
from host.protocol.models import TodoItem
from host.store.errors import environment_problem
from host.todos.schema import TODO_WRITE_DESCRIPTION, TodoWriteArgs
from host.todos.service import TodoRefused, TodoService
from host.tools.registry import Tool, ToolFailed

NAME = "TodoWrite"
log = logging.getLogger(__name__)
_ITEMS = TypeAdapter(tuple[TodoItem, ...])


def todo_write_tool(todos: TodoService) -> Tool:
    async def run(ctx: ExecutionContext, args: TodoWriteArgs) -> str:
        try:
            snapshot = todos.write(ctx, args)
        except TodoRefused as exc:
            raise ToolFailed(f"TodoWrite refused: {exc}") from None
        except apsw.Error as exc:  # rolled back: nothing was written
            reason = environment_problem(exc)
            if reason is None:  # a bug: its traceback goes to the log, not to the model
                log.exception("TodoWrite failed in storage")
                reason = "an internal error (see the host log)"
            raise ToolFailed(f"TodoWrite failed, nothing was written: {reason}") from None
        # the committed revision and the full list, named as the model named it
        items = _ITEMS.dump_json(snapshot.items, by_alias=True).decode()
        return f'{{"revision":{snapshot.revision},"todos":{items}}}'

    return Tool(NAME, TODO_WRITE_DESCRIPTION, TodoWriteArgs, run)
