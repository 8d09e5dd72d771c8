"""An agent's `elicitation/create` (ACP, unstable; issue 52 point 3) answered: a form of
simple fields (text, number, integer, boolean, one choice) or a URL to open becomes an
`agents.asked` for the user (`host.tools.asks`), and the user's answer goes back as the
agent's accept, decline or cancel. A schema Nib cannot show whole (another kind of field,
more than MAX_FIELDS, text over the bounds) is refused with the reason, never shown in
part; an unanswered ask is cancelled when its turn ends, as a permission request is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from acp import RequestError
from acp.schema import (
    AcceptElicitationResponse,
    CancelElicitationResponse,
    DeclineElicitationResponse,
    ElicitationBooleanPropertySchema,
    ElicitationFormRequestMode,
    ElicitationFormSessionMode,
    ElicitationIntegerPropertySchema,
    ElicitationNumberPropertySchema,
    ElicitationSchema,
    ElicitationStringPropertySchema,
    ElicitationUrlRequestMode,
    ElicitationUrlSessionMode,
)

from host.acp.with_turn import while_turn_runs
from host.protocol import models as m
from host.protocol.ask_models import MAX_CHOICES, MAX_FIELD_TEXT, MAX_FIELDS, MAX_VALUE
from host.protocol.text import valid_text

if TYPE_CHECKING:
    from host.acp.recorder import Recorder
    from host.tools.asks import Asks

Response = AcceptElicitationResponse | DeclineElicitationResponse | CancelElicitationResponse
MAX_MESSAGE = 4096  # characters of the agent's words over the form


class Agents(Protocol):
    def running(self, session_id: str) -> Recorder | None: ...
    def asks(self) -> Asks: ...


class Owned(Protocol):
    owned: dict[str, str]  # agent-side session id: Nib's


class AgentProcess(Protocol):
    """What answering an elicitation needs of the agent's process."""

    @property
    def routing(self) -> Owned: ...
    @property
    def agents(self) -> Agents: ...


def _text(value: object, limit: int = MAX_FIELD_TEXT) -> str:
    text = valid_text(str(value)) if value is not None else ""
    if len(text) > limit:
        raise RequestError.invalid_params({"details": f"a text of {len(text)} characters"})
    return text


def field_of(name: str, schema: Any, required: bool) -> m.AskField:
    """One property of the schema as a field; RequestError for a kind Nib cannot show."""
    title = _text(getattr(schema, "title", None)) or _text(name)
    common = {
        "name": _text(name),
        "title": title,
        "description": _text(getattr(schema, "description", None)),
        "required": required,
    }
    default = getattr(schema, "default", None)
    if default is not None:
        common["default"] = _text(
            str(default).lower() if isinstance(default, bool) else default, MAX_VALUE
        )
    if isinstance(schema, ElicitationBooleanPropertySchema):
        return m.AskField(kind="boolean", **common)
    if isinstance(schema, ElicitationIntegerPropertySchema):
        return m.AskField(kind="integer", **common)
    if isinstance(schema, ElicitationNumberPropertySchema):
        return m.AskField(kind="number", **common)
    if isinstance(schema, ElicitationStringPropertySchema):
        choices = [getattr(c, "const", c) for c in (schema.enum or schema.one_of or [])]
        if len(choices) > MAX_CHOICES:
            raise RequestError.invalid_params({"details": f"{len(choices)} choices in a field"})
        if choices:
            return m.AskField(kind="choice", choices=tuple(_text(c) for c in choices), **common)
        return m.AskField(kind="text", **common)
    raise RequestError.invalid_params(
        {
            "details": f"the field {name!r} is of a kind Nib cannot show (only text, numbers, "
            "yes or no, and one choice)"
        }
    )


def fields_of(schema: ElicitationSchema) -> tuple[m.AskField, ...]:
    properties = schema.properties or {}
    if len(properties) > MAX_FIELDS:
        raise RequestError.invalid_params(
            {"details": f"a form of {len(properties)} fields (at most {MAX_FIELDS})"}
        )
    required = set(schema.required or [])
    return tuple(field_of(name, prop, name in required) for name, prop in properties.items())


def safe_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.netloc or len(url) > MAX_VALUE:
        raise RequestError.invalid_params({"details": "a URL Nib does not open (https only)"})
    return url


async def answer_elicitation(process: AgentProcess, message: str, mode: Any) -> Response:
    cancelled = CancelElicitationResponse(action="cancel")
    session_id = getattr(mode, "session_id", None)
    nib_session = process.routing.owned.get(str(session_id)) if session_id else None
    if nib_session is None:  # a request-scoped form (no session): nothing to show it in
        return cancelled
    recorder = process.agents.running(nib_session)
    if recorder is None or recorder.loading:
        return cancelled
    words = _text(message, MAX_MESSAGE)
    if isinstance(mode, ElicitationFormSessionMode | ElicitationFormRequestMode):
        fields, url = fields_of(mode.requested_schema), None
    elif isinstance(mode, ElicitationUrlSessionMode | ElicitationUrlRequestMode):
        fields, url = (), safe_url(str(mode.url))
    else:
        return cancelled
    answered = await while_turn_runs(
        recorder,
        process.agents.asks().ask(recorder.ctx, words, fields, url),
    )
    if answered is None:
        return cancelled
    action, content = answered
    if action == "accept":
        return AcceptElicitationResponse(action="accept", content=content or None)
    if action == "decline":
        return DeclineElicitationResponse(action="decline")
    return cancelled
