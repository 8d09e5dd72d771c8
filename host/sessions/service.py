"""Sessions: their rows, and the notifications they cause. A session's turns and its
transcript are rooms of their own (`turns`, `transcript`), reached through it.

Every write commits first and publishes after; a failed write publishes nothing.
"""

from __future__ import annotations

import re
from typing import Protocol

from host.clock import new_id, now_iso
from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.protocol.text import LIST_ITEM, shorten
from host.sessions.rows import SESSION_COLUMNS, session_of
from host.sessions.transcript import Transcript
from host.sessions.turns import Turns
from host.store.db import Database, immediate

DEFAULT_TITLE = "New session"
TITLE_LENGTH = 60

_NEXT_ITEM = re.compile(r"\s+\d{1,3}[.)]\s+\S")  # "… 2. Write" inside one line


def title_from(text: str) -> str:
    """A session's title from its first message: the first non-blank line, shortened; of
    a numbered list (one item a line, or all on one line), its first item."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), DEFAULT_TITLE)
    item = LIST_ITEM.match(line)
    if item:
        line = item.group(1)
        following = _NEXT_ITEM.search(line)
        if following:
            line = line[: following.start()]
    return shorten(line, TITLE_LENGTH).rstrip(":")


class RemoteOverlay(Protocol):
    """What the remote links know of a remote session beyond its stored row: how its host
    is reached, its running turn there and (with "todos") its checklist revision."""

    def overlay(self, session: m.Session) -> m.Session: ...


class _StoredOnly:
    def overlay(self, session: m.Session) -> m.Session:
        return session


class SessionService:
    def __init__(self, db: Database, publisher: Publisher) -> None:
        self._db = db
        self._publisher = publisher
        self._remote: RemoteOverlay = _StoredOnly()
        self.transcript = Transcript(db, publisher, self.get)
        self.turns = Turns(db, publisher, self)
        self.hidden: set[str] = set()  # being imported: not listed until whole (section 20)

    def retitle(self, session_id: str, title: str) -> None:
        with immediate(self._db):
            self._db.execute("UPDATE sessions SET title = ? WHERE id = ?", (title, session_id))
            session = self.get(session_id)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)

    def show_remote_with(self, remote: RemoteOverlay) -> None:
        """Where a remote session's live state comes from (the host's assembly passes its
        remote links once; until then a remote session is its stored row)."""
        self._remote = remote

    def get(self, session_id: str) -> m.Session:
        row = self._db.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.id = ?", (session_id,)
        ).fetchone()
        if row is None:
            raise errors.SessionNotFound(f"no session {session_id!r}")
        return self._live(session_of(row))

    def list(self) -> tuple[m.Session, ...]:
        rows = self._db.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions s "
            "ORDER BY s.updated_at DESC, s.created_at DESC, s.rowid DESC"
        ).fetchall()
        return tuple(self._live(session_of(row)) for row in rows if row[0] not in self.hidden)

    def _live(self, session: m.Session) -> m.Session:
        """The session as it stands: a remote one as its host tells, a local one without
        a running turn that ended in memory only."""
        if session.origin == "remote":
            return self._remote.overlay(session)
        if self.turns.ended_in_memory(session.running_turn_id):
            return session.model_copy(update={"running_turn_id": None})
        return session

    def create(
        self,
        params: m.CreateSessionParams,
        session_id: str | None = None,
        worktree_id: str | None = None,
        attempt_id: str | None = None,
    ) -> m.Session:
        """A new session (`session_id` and its worktree's row given by the worktrees'
        service, which makes the worktree first)."""
        sid, now = session_id or new_id(), now_iso()
        remote = params.remote
        if remote is not None and remote.remote_session_id is None:
            raise errors.InvalidParams("a remote session is created on its host first")
        with immediate(self._db):
            self._db.execute(
                "INSERT INTO sessions (id, title, mode, origin, remote_endpoint, remote_session_id,"
                " created_at, updated_at, agent, cwd, worktree_id, attempt_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    sid,
                    params.title or DEFAULT_TITLE,
                    params.mode,
                    "remote" if remote else "local",
                    remote.endpoint if remote else None,
                    remote.remote_session_id if remote else None,
                    now,
                    now,
                    params.agent,
                    params.cwd,
                    worktree_id,
                    attempt_id,
                ),
            )
            session = self.get(sid)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)
        return session

    def fork(self, params: m.ForkParams, before_seq: int | None = None) -> m.Session:
        """A new local session with the same mode, agent and folder and a copy of the
        transcript; its checklist starts empty at revision 0 (ADR 0312), and an external
        agent's fork opens a new agent-side session on its first turn (section 15)."""
        sid, now = new_id(), now_iso()
        with immediate(self._db):
            parent = self.get(params.session_id)
            if parent.origin == "remote":
                raise errors.RemoteSession("a remote session cannot be forked by this host")
            self._db.execute(
                "INSERT INTO sessions (id, title, mode, origin, parent_id, created_at, updated_at,"
                " agent, cwd, worktree_id) VALUES (?, ?, ?, 'local', ?, ?, ?, ?, ?,"
                " (SELECT worktree_id FROM sessions WHERE id = ?))",
                (
                    sid,
                    params.title or f"{parent.title} (fork)",
                    parent.mode,
                    parent.id,
                    now,
                    now,
                    parent.agent,
                    parent.cwd,
                    parent.id,
                ),
            )
            self.transcript.copy(parent.id, sid, before_seq)
            if before_seq is not None:
                self._db.execute("UPDATE sessions SET rewound = 1 WHERE id = ?", (sid,))
            session = self.get(sid)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)
        return session

    def delete(self, session_id: str) -> None:
        with immediate(self._db):
            self.get(session_id)
            self._db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        self._publisher.publish(rpc.SESSIONS_DELETED, m.SessionDeleted(session_id=session_id))

    def require_local(self, session_id: str) -> m.Session:
        session = self.get(session_id)
        if session.origin == "remote":
            raise errors.RemoteSession(
                "this is a remote session: its turns and checklist are not served by this host"
            )
        return session

    def touch(self, session_id: str, now: str) -> None:
        """The session was used now (inside the caller's transaction)."""
        self._db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id))

    def title_by_first(self, session: m.Session, text: str) -> None:
        """A session still called by the default title is named by its first message
        (inside the caller's transaction, before that message is stored)."""
        if session.title == DEFAULT_TITLE and self.transcript.is_empty(session.id):
            self._db.execute(
                "UPDATE sessions SET title = ? WHERE id = ?", (title_from(text), session.id)
            )

    # --- external agents (section 15) -------------------------------------------------

    def rewound(self, session_id: str) -> bool:
        """A fork made at a message (section 20): the agent's own session/fork would copy
        all of its parent, so its conversation is carried instead."""
        row = self._db.execute("SELECT rewound FROM sessions WHERE id = ?", (session_id,))
        found = row.fetchone()
        return bool(found and found[0])

    def agent_session(self, session_id: str) -> str | None:
        """The agent-side session this session continues, if one was opened."""
        row = self._db.execute(
            "SELECT agent_session_id FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        return str(row[0]) if row is not None and row[0] is not None else None

    def set_agent_session(self, session_id: str, agent_session_id: str) -> None:
        with immediate(self._db):
            self._db.execute(
                "UPDATE sessions SET agent_session_id = ? WHERE id = ?",
                (agent_session_id, session_id),
            )
