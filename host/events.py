"""After-commit publishing: services call `publish` once their transaction committed, and
the RPC server fans each notification out to every authenticated connection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.protocol import models as m
from host.protocol.methods import Notification

Listener = Callable[[str, m.Wire], None]


class Publisher:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self, note: Notification[Any], params: m.Wire) -> None:
        if not isinstance(params, note.params):
            raise TypeError(
                f"{note.name} takes {note.params.__name__}, not {type(params).__name__}"
            )
        for listener in list(self._listeners):
            listener(note.name, params)
