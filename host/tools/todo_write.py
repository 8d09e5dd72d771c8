"""The builtin TodoWrite tool: the only way a checklist is written."""

from __future__ import annotations

import logging

from host.execution_path import ExecutionContext
from host.protocol import models as m
from host.store.errors import StorageFailure
from host.todos.schema import TODO_WRITE_DESCRIPTION, TodoWriteArgs
from host.todos.service import TodoRefused, TodoService
from host.tools.registry import Tool, ToolFailed, ToolResult

NAME = "TodoWrite"
log = logging.getLogger(__name__)


def todo_write_tool(todos: TodoService) -> Tool:
    async def run(ctx: ExecutionContext, args: TodoWriteArgs) -> ToolResult:
        try:
            written = todos.write(ctx, args)
        except TodoRefused as exc:
            raise ToolFailed(f"TodoWrite refused: {exc}") from None
        except StorageFailure as exc:  # rolled back: nothing was written
            reason = exc.reason
            if reason is None:  # a bug: its traceback goes to the log, not to the model
                log.exception("TodoWrite failed in storage")
                reason = "an internal error (see the host log)"
            raise ToolFailed(f"TodoWrite failed, nothing was written: {reason}") from None
        commit = m.TodoCommit(
            revision=written.snapshot.revision, items=len(written.snapshot.items), diff=written.diff
        )
        return ToolResult(result_text(written.snapshot, written.diff), todo=commit)

    return Tool(NAME, TODO_WRITE_DESCRIPTION, TodoWriteArgs, run)


def result_text(snapshot: m.TodoSnapshot, diff: m.TodoDiff) -> str:
    """What the model reads back: the revision and the progress in a sentence, and the
    items it removed unfinished, so it learns of its own drops. Never the whole list
    again: the call's arguments already hold it (contract section 11)."""
    items = snapshot.items
    if not items:
        text = f"Checklist saved as revision {snapshot.revision}: it is empty."
    else:
        statuses = [item.status for item in items]
        done, counted = statuses.count("completed"), len(items) - statuses.count("cancelled")
        text = f"Checklist saved as revision {snapshot.revision}: {done} of {counted} completed"
        running = statuses.index("in_progress") if "in_progress" in statuses else None
        text += f"; in progress: {items[running].content}." if running is not None else "."
    if diff.dropped_unfinished:
        dropped = ", ".join(f'"{content}"' for content in diff.dropped_unfinished)
        text += f" Removed without completing: {dropped}."
    return text
