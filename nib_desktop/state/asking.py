"""What an agent asks the user to fill in (the project's `agents.asked`, from ACP's
elicitation) as the window holds it: a form of simple fields or a URL, per session, until
it is answered or ends; the events that tell it and the intent that answers it. Plain
values, no Qt, nothing of the host."""

from nib_desktop.state.record import Record
from nib_desktop.state.tuples import NamedTuple


class AskField(NamedTuple):
    name: str
    title: str
    description: str
    kind: str  # "text", "number", "integer", "boolean", "choice"
    required: bool
    default: str  # "" none
    choices: tuple[str, ...]


class Ask(NamedTuple):
    ask_id: str
    session_id: str
    message: str
    url: str  # "" for a form
    fields: tuple[AskField, ...]


class AskTold(NamedTuple):
    ask: Ask


class AskEnded(NamedTuple):
    ask_id: str


class AnswerAsk(Record):
    """The user's answer: "accept" (a form's `values` by field name, as typed), "decline"
    or "cancel"."""

    ask_id: str
    action: str
    values: tuple[tuple[str, str | bool], ...] = ()
