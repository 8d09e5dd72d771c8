"""A method and a notification of the contract, as its tables hold them (`methods` with
the wire models, `plain_methods` with their `plain` twins): a name and its types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

# The client's notification that it stopped waiting for its request `id` (the project's,
# as the Language Server Protocol's): {"id": int}.
CANCEL_REQUEST = "$/cancelRequest"

P = TypeVar("P", bound=Any)
R = TypeVar("R", bound=Any)


@dataclass(frozen=True)
class Method(Generic[P, R]):
    name: str
    params: type[P]
    result: type[R]


@dataclass(frozen=True)
class Notification(Generic[P]):
    name: str
    params: type[P]
