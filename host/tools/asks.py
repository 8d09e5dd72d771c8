"""What an agent asks the user to fill in (the project's `agents.asked`, from ACP's
`elicitation/create`): each waits, told to every client (and again to one that
connects), until the user answers it with `agents.answer` or its turn ends. An answer
to a form is checked against the form's fields: every required one given, each value of
its field's kind (a choice one of its choices); it never reaches the agent otherwise."""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass

from host.clock import new_id
from host.events import Publisher
from host.execution_path import ExecutionContext
from host.protocol import errors, methods as rpc, models as m

Content = dict[str, str | int | float | bool]


@dataclass
class _Pending:
    asked: m.AgentAsked
    answer: asyncio.Future[tuple[str, Content]]


class Asks:
    def __init__(self, publisher: Publisher) -> None:
        self._publisher = publisher
        self._pending: dict[str, _Pending] = {}

    async def ask(
        self,
        ctx: ExecutionContext,
        message: str,
        fields: tuple[m.AskField, ...] = (),
        url: str | None = None,
    ) -> tuple[str, Content]:
        """The user's action ("accept", "decline", "cancel") and, accepting a form, its
        values by field name, typed as the fields say. Cancelled with its turn."""
        asked = m.AgentAsked(
            ask_id=new_id(),
            session_id=ctx.session_id,
            turn_id=ctx.turn_id,
            message=message,
            url=url,
            fields=fields,
        )
        answer: asyncio.Future[tuple[str, Content]] = asyncio.get_running_loop().create_future()
        self._pending[asked.ask_id] = _Pending(asked, answer)
        self._publisher.publish(rpc.AGENTS_ASKED, asked)
        try:
            return await answer
        except asyncio.CancelledError:
            if self._pending.pop(asked.ask_id, None) is not None:
                self._ended(asked, "cancel")
            raise

    def answer(self, params: m.AnswerParams) -> m.OkResult:
        entry = self._pending.get(params.ask_id)
        if entry is None or entry.answer.done():
            raise errors.InvalidParams(f"nothing waits as {params.ask_id!r} (answered, or ended)")
        content = typed(entry.asked.fields, params.values) if params.action == "accept" else {}
        del self._pending[params.ask_id]
        entry.answer.set_result((params.action, content))
        self._ended(entry.asked, params.action)
        return m.OkResult()

    def waiting(self) -> list[m.AgentAsked]:
        return [entry.asked for entry in self._pending.values() if not entry.answer.done()]

    def _ended(self, asked: m.AgentAsked, action: str) -> None:
        ended = {"askId": asked.ask_id, "sessionId": asked.session_id, "action": action}
        self._publisher.publish(rpc.AGENTS_ANSWERED, m.AgentAnswered.model_validate(ended))


def typed(fields: tuple[m.AskField, ...], values: dict[str, str | float | bool]) -> Content:
    """A form's values as its fields type them; -32602 naming the first that is not."""
    known = {f.name: f for f in fields}
    unknown = [name for name in values if name not in known]
    if unknown:
        raise errors.InvalidParams(f"the form has no field {unknown[0]!r}")
    content: Content = {}
    for field in fields:
        value = values.get(field.name)
        if value is None or value == "":
            if field.required:
                raise errors.InvalidParams(f"“{field.title}” is required")
            continue
        content[field.name] = _of_kind(field, value)
    return content


def _of_kind(field: m.AskField, value: str | float | bool) -> str | int | float | bool:
    title = field.title
    match field.kind:
        case "boolean":
            if isinstance(value, bool):
                return value
            if value in ("true", "false"):
                return value == "true"
            raise errors.InvalidParams(f"“{title}” is yes or no")
        case "integer" | "number":
            try:
                number = float(value) if not isinstance(value, bool) else math.nan
            except ValueError:
                number = math.nan
            if not math.isfinite(number) or (field.kind == "integer" and number != int(number)):
                what = "a whole number" if field.kind == "integer" else "a number"
                raise errors.InvalidParams(f"“{title}” takes {what}")
            return int(number) if field.kind == "integer" else number
        case "choice":
            if value not in field.choices:
                raise errors.InvalidParams(f"“{title}” takes one of its choices")
            return str(value)
        case _:
            return str(value)
