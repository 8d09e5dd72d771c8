"""The JSON-RPC endpoint with the contract's wire models: `jsonrpc`'s message parsing and
client, and what pydantic adds to them (the host's and RACP's side): validation that names
unknown fields before pydantic lists them, errors as plain JSON, and notifications
serialised by pydantic's own encoder.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from host.protocol import models as m
from host.protocol.framing import FramingError, encode_frame
from host.protocol.jsonrpc import (
    MAX_NESTING,
    BadMessage,
    ClientEndpoint as PlainEndpoint,
    ConnectionLost,
    Malformed,
    NotificationHandler,
    Request,
    Response,
    error_message,
    parse_message,
    response_message,
    valid_data,
)
from host.protocol.methods import NOTIFICATIONS


def encode_notification(method: str, params: m.Wire) -> bytes:
    """A framed notification, its params serialised by pydantic's own JSON encoder (the
    hot path: every checklist write goes through here)."""
    body = b'{"jsonrpc":"2.0","method":%s,"params":%s}' % (
        json.dumps(method).encode(),
        params.__pydantic_serializer__.to_json(params, by_alias=True),
    )
    return encode_frame(body)


MAX_DETAILS = 20  # an error's data stays small whatever the request held
MAX_LISTED_ERRORS = 1_000

W = TypeVar("W", bound=BaseModel)


def validate(model: type[W], data: Any) -> W:
    """`model` from `data`, every model refusing unknown fields. An object with more
    members than the model has fields is refused by naming its first unknown ones,
    before pydantic builds one error per member (400,000 members took it a second)."""
    if isinstance(data, dict) and len(data) > len(model.model_fields):
        known = _field_names(model)
        unknown = [key for key in data if key not in known]
        if len(unknown) > MAX_DETAILS:
            named = MAX_DETAILS - 1
            listed = [
                InitErrorDetails(type="extra_forbidden", loc=(key[:100],), input=None)
                for key in unknown[:named]
            ]
            more = PydanticCustomError("more", "and {n} more", {"n": len(unknown) - named})
            listed.append(InitErrorDetails(type=more, loc=(), input=None))
            raise ValidationError.from_exception_data(model.__name__, listed)
    return model.model_validate(data)


@functools.cache
def _field_names(model: type[BaseModel]) -> frozenset[str]:
    names: set[str] = set()
    for name, field in model.model_fields.items():
        names.add(name)
        if field.alias is not None:
            names.add(field.alias)
    return frozenset(names)


def validation_details(exc: ValidationError) -> list[dict[str, Any]]:
    """Validation errors as plain JSON: where, what and why, without the input echoed; at
    most MAX_DETAILS of them, then one entry saying how many more there were."""
    count = exc.error_count()
    if count > MAX_LISTED_ERRORS:  # listing them would cost more than the request did
        return [{"loc": [], "type": "many", "msg": f"{count} errors"}]
    found = exc.errors(include_url=False, include_input=False)
    details: list[dict[str, Any]] = [
        {"loc": [str(part)[:100] for part in err["loc"]], "type": err["type"], "msg": err["msg"]}
        for err in found[:MAX_DETAILS]
    ]
    if len(found) > MAX_DETAILS:
        details.append({"loc": [], "type": "more", "msg": f"and {len(found) - MAX_DETAILS} more"})
    return details


def _decoded(model: type[BaseModel], data: Any) -> Any:
    try:
        return validate(model, data)
    except ValidationError as exc:
        raise Malformed(validation_details(exc)) from None


class ClientEndpoint(PlainEndpoint):
    """The client of the contract with its wire models (a remote host's, section 19)."""

    def __init__(
        self,
        send: Callable[[bytes], None],
        on_notification: NotificationHandler,
        on_bad: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(send, on_notification, NOTIFICATIONS, _decoded, on_bad)


__all__ = [
    "MAX_NESTING",
    "BadMessage",
    "ClientEndpoint",
    "ConnectionLost",
    "FramingError",
    "Request",
    "Response",
    "encode_notification",
    "error_message",
    "parse_message",
    "response_message",
    "valid_data",
]
