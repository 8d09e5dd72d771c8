"""A method and a notification of the contract, as its tables hold them (`methods` with
the wire models, `plain_methods` with their `plain` twins): a name and its types; and
how a peer's implementation is bound to a table (`peers`, `client_peer`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

# The client's notification that it stopped waiting for its request `id` (the project's,
# as the Language Server Protocol's): {"id": int}.
CANCEL_REQUEST = "$/cancelRequest"

P = TypeVar("P", bound=Any)
R = TypeVar("R", bound=Any)


class Method(NamedTuple, Generic[P, R]):
    name: str
    params: type[P]
    result: type[R]


class Notification(NamedTuple, Generic[P]):
    name: str
    params: type[P]


def attribute(name: str) -> str:
    """A method's or a notification's name as its implementation's attribute:
    "agents.setMode" is `agents_set_mode`."""
    return re.sub(r"(?<=[a-z])([A-Z])", r"_\1", name).replace(".", "_").lower()


def bound_to(peer: object, names: list[str], what: str) -> dict[str, Callable[[Any], Any]]:
    found = {name: getattr(peer, attribute(name), None) for name in names}
    missing = sorted(name for name, method in found.items() if not callable(method))
    if missing:
        raise ValueError(f"{type(peer).__name__} has no {what} for {', '.join(missing)}")
    return {name: method for name, method in found.items() if method is not None}
