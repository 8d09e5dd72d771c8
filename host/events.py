"""After-commit publishing: services call `publish` once their transaction committed, and
the RPC server fans each notification out to every authenticated connection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.protocol import models as m
from host.protocol.methods import Notification

Listener = Callable[[str, m.Wire], None]
# what a held session's work told that is not kept to tell: its transcript, which a client
# reads whole (`messages.list`) once the session is told; thousands of messages told at
# once held the host's loop past 100 ms
NOT_KEPT = frozenset(("messages.appended", "messages.delta"))


class Publisher:
    def __init__(self) -> None:
        self._clients: list[Listener] = []  # those that tell clients
        self._others: list[Listener] = []  # the host's own bookkeeping
        self._held: dict[str, list[tuple[str, m.Wire]]] = {}  # by session id

    def subscribe(self, listener: Listener, clients: bool = False) -> Callable[[], None]:
        """`listener` hears every notification; `clients`: it tells the clients (the
        server), and also hears what a held session's work told once it is released."""
        listeners = self._clients if clients else self._others
        listeners.append(listener)
        return lambda: listeners.remove(listener)

    def publish(self, note: Notification[Any], params: m.Wire) -> None:
        if not isinstance(params, note.params):
            raise TypeError(
                f"{note.name} takes {note.params.__name__}, not {type(params).__name__}"
            )
        held = self._held.get(str(getattr(params, "session_id", getattr(params, "id", ""))))
        if held is not None:
            if note.name not in NOT_KEPT:
                held.append((note.name, params))
            return
        # the clients hear first: a user's window learns a fact before the host's own
        # bookkeeping of it (checkpoints, worktrees, attempts) takes its turn
        for listener in [*self._clients, *self._others]:
            listener(note.name, params)

    def hold(self, session_id: str) -> None:
        """What the session's work tells is held (an import, section 20) until released."""
        self._held[session_id] = []

    def release(self, session_id: str, tell: bool) -> None:
        """The held notifications told to the clients (`tell`), or dropped: the session,
        its turn's end and its checklist; not its transcript (NOT_KEPT), nor a turn's
        start."""
        held = self._held.pop(session_id, [])
        if not tell:
            return
        for name, params in held:
            if getattr(params, "state", None) == "running":
                continue
            for listener in list(self._clients):
                listener(name, params)
