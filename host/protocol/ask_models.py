"""The project's wire types for what an agent asks the user to fill in (ACP's
`elicitation/create`, issue 52 point 3): a form of simple fields, or a URL to open; told
as `agents.asked`, answered with `agents.answer`, ended as `agents.answered`. Reached as
`models.X`, like every wire type."""

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from host.protocol.wire import Id, Wire

MAX_FIELDS = 30  # fields of one form
MAX_CHOICES = 50  # choices of one field
MAX_FIELD_TEXT = 500  # characters of a name, title, description or choice
MAX_VALUE = 4096  # characters of one value, a default or an answer

AskKind = Literal["text", "number", "integer", "boolean", "choice"]
AskAction = Literal["accept", "decline", "cancel"]


class AskField(Wire):
    """One field of the form: `kind` what it takes, `choices` for "choice"."""

    name: str
    title: str
    description: str = ""
    kind: AskKind
    required: bool = False
    default: str | None = None
    choices: tuple[str, ...] = ()


class AgentAsked(Wire):
    """An agent asks the user for something (`agents.asked`): a form (`fields`) or a URL
    to open in the browser (`url`, opened only by the user)."""

    ask_id: str
    session_id: str
    turn_id: str | None
    message: str
    url: str | None = None
    fields: tuple[AskField, ...] = ()


class AgentAnswered(Wire):
    """An ask ended (`agents.answered`): answered, declined, or cancelled (its turn ended)."""

    ask_id: str
    session_id: str
    action: AskAction


Value = str | float | bool


class AnswerParams(Wire):
    """`agents.answer`: the user's answer; with "accept", a form's `values` by field name
    (checked against its fields: every required one, each of its kind)."""

    ask_id: Id
    action: AskAction
    values: dict[
        Annotated[str, StringConstraints(max_length=MAX_FIELD_TEXT)],
        Annotated[str, StringConstraints(max_length=MAX_VALUE)] | float | bool,
    ] = Field(default_factory=dict, max_length=MAX_FIELDS)
