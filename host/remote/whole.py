"""Remote sessions are whole sessions (contract section 19): which request on a remote
session is carried out on its host, under which of the host's capabilities, and how an
answer or a notification that names the remote session is told here under the local id.

A request is routed before its local handler runs, so no local room (checkpoints,
worktrees, the agents, the library) ever sees a remote session's id. What stays local:
`sessions.get` (the local row as its host last told it) and `sessions.delete` (the local
row goes; the session on its host stays). Fork, rewind, rename and export need more than
a forward (a new local row, the local title, a file on this machine): `RemoteSessions`
does those itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar

from host.protocol import errors, models as m
from host.protocol.methods import Method
from host.protocol.peers import Answer, Handler

W = TypeVar("W", bound=m.Wire)

BASE = ""  # what every remote host serves (section 14)
# what a method on a remote session needs of its host (its `host.hello` capabilities)
NEEDS: dict[str, str] = {
    "turns.start": BASE, "turns.cancel": BASE, "turns.list": BASE,
    "messages.list": BASE, "sessions.compact": BASE,
    "todos.get": "todos", "todos.history": "todos",
    "checkpoints.list": "checkpoints", "changes.get": "checkpoints",
    "changes.step": "checkpoints", "changes.restore": "checkpoints",
    "changes.revertHunk": "checkpoints",
    "worktrees.status": "worktrees", "worktrees.merge": "worktrees",
    "worktrees.remove": "worktrees",
    "agents.controls": "agents", "agents.setMode": "agents", "agents.setOption": "agents",
    "sessions.fork": "sessions", "sessions.rewind": "sessions",
    "sessions.rename": "sessions", "sessions.export": "sessions", "files.list": "sessions",
}  # fmt: skip
# what each capability is, in the words a refusal uses
FEATURE = {
    "todos": "its checklist",
    "checkpoints": "its checkpoints and changes", "worktrees": "its worktree",
    "sessions": "forks, rewinds, renames, exports and its files", "agents": "its agents",
}  # fmt: skip


class Carrier(Protocol):
    """The remote links, as routing reaches them (`RemoteSessions`)."""

    def is_remote(self, session_id: str) -> bool: ...
    def carry(self, method: Method[Any, Any], params: Any) -> Awaitable[Any]: ...


def lacking(label: str, need: str) -> errors.RemoteSession:
    """-32011 for what a remote host does not share, in words."""
    return errors.RemoteSession(
        f"{label} does not share {FEATURE[need]} (its host names no {need!r} capability:"
        " an older Nib host)"
    )


def remote_routed(
    table: Mapping[Method[Any, Any], Handler], remotes: Callable[[], Carrier]
) -> dict[Method[Any, Any], Handler]:
    """`table` with every method of NEEDS carried out on a remote session's host."""
    routed = dict(table)
    for method, local in table.items():
        if method.name in NEEDS:
            routed[method] = _routed(method, local, remotes)
    return routed


def _routed(method: Method[Any, Any], local: Handler, remotes: Callable[[], Carrier]) -> Handler:
    def handle(params: Any) -> Answer[Any]:
        there = remotes()
        if there.is_remote(params.session_id):
            return there.carry(method, params)
        return local(params)

    return handle


def localised(value: W, remote_id: str, local_id: str) -> W:
    """`value` with `local_id` wherever it names the remote session `remote_id` (at any
    depth: a checkpoint's, a worktree's, a message's session id)."""
    if remote_id == local_id:
        return value
    if "session_id" in type(value).model_fields and _flat(value):
        return value.model_copy(update={"session_id": local_id})
    data = value.model_dump(mode="json", by_alias=True)
    return type(value).model_validate(_swap(data, remote_id, local_id))


def _flat(value: m.Wire) -> bool:
    """Whether no field but `session_id` can hold a session id: a Turn, a TodoSnapshot,
    a usage, an approval (the hot path of a remote turn's notifications)."""
    return isinstance(
        value, m.Turn | m.TodoSnapshot | m.SessionUsage | m.ApprovalRequested | m.MessageDelta
    )


def _swap(value: object, remote_id: str, local_id: str) -> object:
    if isinstance(value, dict):
        return {
            key: local_id
            if key == "sessionId" and item == remote_id
            else _swap(item, remote_id, local_id)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_swap(item, remote_id, local_id) for item in value]
    return value
