"""What a link knows of each remote session (its mirror), and how a new connection
catches up: the transcript from the newest message forwarded, the turns that ended while
the link was down, the running turn and the checklist, each gated (message seq, checklist
revision) so that nothing is forwarded twice or out of order."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

from host.protocol import errors, methods as rpc, models as m
from host.protocol.remote import RemoteEndpoint
from host.remote.bounds import unbounded
from host.remote.connection import RacpConnection

log = logging.getLogger(__name__)

TODOS = "todos"  # the capability of a host that shares its checklists


@dataclass
class Mirror:
    """What the local host knows of one remote session."""

    session: m.Session | None = None
    last_seq: int | None = None  # the newest message forwarded (None: not known yet)
    revision: int | None = None  # the newest checklist revision forwarded
    running_turn_id: str | None = None
    seen_turns: set[str] = field(default_factory=set)


class Linked(Protocol):
    """What catching up needs of a link: its sessions and where it forwards to."""

    parsed: RemoteEndpoint
    locals: dict[str, set[str]]
    mirrors: dict[str, Mirror]

    def forward_message(self, remote_id: str, message: m.Message) -> None: ...
    def forward_turn(self, remote_id: str, turn: m.Turn) -> None: ...
    def forward_todos(self, remote_id: str, snapshot: m.TodoSnapshot) -> None: ...


async def catch_up(host: Linked, connection: RacpConnection) -> None:
    """Every attached session brought up to date on a new connection."""
    for remote_id in list(host.locals):
        mirror = host.mirrors.setdefault(remote_id, Mirror())
        try:
            ref = m.SessionRef(session_id=remote_id)
            session = await connection.call(rpc.SESSIONS_GET, ref)
        except errors.SessionNotFound:
            log.warning("%s has no session %s any more", host.parsed.label(), remote_id)
            continue
        await catch_up_session(host, connection, remote_id, mirror, session)


async def catch_up_session(
    host: Linked, connection: RacpConnection, remote_id: str, mirror: Mirror, session: m.Session
) -> None:
    """Forward what `remote_id` did since the mirror was last told (nothing the first
    time: a client loads what exists when it shows the session)."""
    was_running = mirror.running_turn_id
    first = mirror.last_seq is None
    # the transcript since the newest message forwarded
    missed: list[m.Message] = []
    before: int | None = None
    while True:
        page = await connection.call(
            rpc.MESSAGES_LIST,
            m.MessageListParams(session_id=remote_id, before_seq=before, limit=200),
        )
        if first:
            mirror.last_seq = page.messages[-1].seq if page.messages else 0
            break
        newer = [msg for msg in page.messages if msg.seq > (mirror.last_seq or 0)]
        missed[:0] = newer
        if len(newer) < len(page.messages) or not page.has_more or not page.messages:
            break
        before = page.messages[0].seq
    for message in missed:
        host.forward_message(remote_id, message)
    problem = unbounded(session)
    if problem is not None:  # its row stays as last told (or as stored here)
        log.warning("%s sent its session %s; not used", host.parsed.label(), problem)
        return
    # turns that ended (or started and ended) while the link was down
    recent = m.TurnListParams(session_id=remote_id, limit=5)
    turns = await connection.call(rpc.TURNS_LIST, recent)
    for turn in reversed(turns.turns):
        known = turn.id in mirror.seen_turns
        if not first and (turn.id == was_running or not known) and turn.state != "running":
            host.forward_turn(remote_id, turn)
        mirror.seen_turns.add(turn.id)
    mirror.session = session
    mirror.running_turn_id = session.running_turn_id
    if session.running_turn_id is not None and session.running_turn_id != was_running:
        running = next((t for t in turns.turns if t.id == session.running_turn_id), None)
        if running is not None and not first:
            host.forward_turn(remote_id, running)
    if TODOS in connection.capabilities:
        snapshot = await connection.call(rpc.TODOS_GET, m.SessionRef(session_id=remote_id))
        if unbounded(snapshot) is None:
            host.forward_todos(remote_id, snapshot)
