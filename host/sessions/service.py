"""Rows of sessions, turns and transcript messages, and the notifications they cause.

Every write commits first and publishes after; a failed write publishes nothing.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import Any, Protocol

from host.clock import new_id, now_iso
from host.events import Publisher
from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.text import LIST_ITEM, shorten, valid_text
from host.store.db import Database, immediate, running_turn
from host.store.errors import StorageFailure

_SESSION_COLUMNS = f"""
    s.id, s.title, s.mode, s.origin, s.remote_endpoint, s.remote_session_id, s.parent_id,
    s.created_at, s.updated_at, s.todo_revision, s.todo_updated_at,
    {running_turn("s")}, s.agent, s.cwd
"""


def _session(row: Any) -> m.Session:
    (sid, title, mode, origin, endpoint, remote_id, parent, created, updated, rev, todo_at, run,
     agent, cwd) = row  # fmt: skip
    remote = (
        m.RemoteInfo(endpoint=endpoint, remote_session_id=remote_id) if origin == "remote" else None
    )
    return m.Session(
        id=sid,
        title=title,
        mode=mode,
        origin=origin,
        remote=remote,
        parent_id=parent,
        created_at=created,
        updated_at=updated,
        todo_revision=rev,
        todo_updated_at=todo_at,
        running_turn_id=run,
        agent=agent,
        cwd=cwd,
    )


def _turn(row: Any) -> m.Turn:
    tid, sid, state, error, started, finished = row
    return m.Turn(
        id=tid, session_id=sid, state=state, error=error, started_at=started, finished_at=finished
    )


def _message(row: Any) -> m.Message:
    mid, sid, turn, seq, role, content, calls, call_id, is_error, created, todo, kind, did = row
    tool_calls = tuple(m.ToolCall(**call) for call in json.loads(calls)) if calls else ()
    commit = m.TodoCommit.model_validate_json(todo) if todo else None
    activity = m.ToolActivity.model_validate_json(did) if did else None
    return m.Message(
        id=mid,
        session_id=sid,
        turn_id=turn,
        seq=seq,
        role=role,
        content=content,
        tool_calls=tool_calls,
        tool_call_id=call_id,
        is_error=bool(is_error),
        created_at=created,
        todo=commit,
        kind=kind,
        activity=activity,
    )


_TURN_COLUMNS = "id, session_id, state, error, started_at, finished_at"
PAGE_BYTES = 4 * 1024 * 1024  # a messages.list page, well under the 8 MiB frame
_MESSAGE_COLUMNS = (
    "id, session_id, turn_id, seq, role, content, tool_calls, tool_call_id, is_error,"
    " created_at, todo, kind, activity"
)

log = logging.getLogger(__name__)

DEFAULT_TITLE = "New session"
TITLE_LENGTH = 60


_NEXT_ITEM = re.compile(r"\s+\d{1,3}[.)]\s+\S")  # "… 2. Write" inside one line


def _within_a_page(rows: Iterable[tuple[Any, ...]]) -> list[m.Message]:
    """The rows, in their order, as messages while they fit about PAGE_BYTES of text (at
    least one), so an answer never nears the frame limit."""
    page: list[m.Message] = []
    size = 0
    for row in rows:
        text = row[5] + (row[6] or "") + (row[12] or "")  # content, calls, activity
        size += len(text.encode("utf-8", "surrogatepass")) + 300
        if page and size > PAGE_BYTES:
            break
        page.append(_message(row))
    return page


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
        # Turns that ended while their end could not be written (a full disk, a failing
        # file): ended for everyone in memory, written with the next write that works,
        # and ended as "host restarted" by the next start if the host stops first.
        self._unrecorded: dict[str, tuple[str, str | None, str]] = {}
        self._remote: RemoteOverlay = _StoredOnly()

    def show_remote_with(self, remote: RemoteOverlay) -> None:
        """Where a remote session's live state comes from (the host's assembly passes its
        remote links once; until then a remote session is its stored row)."""
        self._remote = remote

    # --- sessions ---------------------------------------------------------------------

    def get(self, session_id: str) -> m.Session:
        row = self._db.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s WHERE s.id = ?", (session_id,)
        ).fetchone()
        if row is None:
            raise errors.SessionNotFound(f"no session {session_id!r}")
        return self._ended_in_memory(_session(row))

    def list(self) -> tuple[m.Session, ...]:
        rows = self._db.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s "
            "ORDER BY s.updated_at DESC, s.created_at DESC, s.rowid DESC"
        ).fetchall()
        return tuple(self._ended_in_memory(_session(row)) for row in rows)

    def _ended_in_memory(self, session: m.Session) -> m.Session:
        if session.origin == "remote":
            return self._remote.overlay(session)
        if session.running_turn_id in self._unrecorded:
            return session.model_copy(update={"running_turn_id": None})
        return session

    def create(self, params: m.CreateSessionParams) -> m.Session:
        sid, now = new_id(), now_iso()
        remote = params.remote
        if remote is not None and remote.remote_session_id is None:
            raise errors.InvalidParams("a remote session is created on its host first")
        with immediate(self._db):
            self._db.execute(
                "INSERT INTO sessions (id, title, mode, origin, remote_endpoint, remote_session_id,"
                " created_at, updated_at, agent, cwd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
            session = self.get(sid)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)
        return session

    def fork(self, params: m.ForkParams) -> m.Session:
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
                " agent, cwd) VALUES (?, ?, ?, 'local', ?, ?, ?, ?, ?)",
                (sid, params.title or f"{parent.title} (fork)", parent.mode, parent.id, now, now,
                 parent.agent, parent.cwd),
            )  # fmt: skip
            copied = self._db.execute(
                "SELECT seq, role, content, tool_calls, tool_call_id, is_error, created_at,"
                " todo, kind, activity FROM messages WHERE session_id = ? ORDER BY seq",
                (parent.id,),
            ).fetchall()
            self._db.executemany(
                f"INSERT INTO messages ({_MESSAGE_COLUMNS})"
                " VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(new_id(), sid, *row) for row in copied],
            )
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

    # --- turns ------------------------------------------------------------------------

    def get_turn(self, session_id: str, turn_id: str) -> m.Turn:
        row = self._db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE id = ? AND session_id = ?",
            (turn_id, session_id),
        ).fetchone()
        if row is None:
            raise errors.TurnNotFound(f"no turn {turn_id!r} in session {session_id!r}")
        return self._turn_in_memory(_turn(row))

    def _turn_in_memory(self, turn: m.Turn) -> m.Turn:
        ended = self._unrecorded.get(turn.id)
        if ended is None:
            return turn
        state, error, finished = ended
        return turn.model_copy(update={"state": state, "error": error, "finished_at": finished})

    def _record_unrecorded(self) -> tuple[str, ...]:
        """Write the turn ends that could not be written before (inside a transaction);
        the turns written, to forget once it commits (a rollback keeps them in memory)."""
        written = tuple(self._unrecorded)
        for turn_id in written:
            state, error, finished = self._unrecorded[turn_id]
            self._db.execute(
                "UPDATE turns SET state = ?, error = ?, finished_at = ?"
                " WHERE id = ? AND state = 'running'",
                (state, error, finished, turn_id),
            )
        return written

    def _recorded(self, written: tuple[str, ...]) -> None:
        for turn_id in written:
            self._unrecorded.pop(turn_id, None)

    def turns(self, session_id: str, limit: int) -> tuple[m.Turn, ...]:
        """The session's newest turns, newest first."""
        self.get(session_id)
        rows = self._db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE session_id = ?"
            " ORDER BY started_at DESC, rowid DESC LIMIT ?",
            (session_id, limit),
        ).fetchall()
        return tuple(self._turn_in_memory(_turn(row)) for row in rows)

    def begin_turn(self, session_id: str, text: str) -> tuple[m.Turn, m.Message]:
        """Create the session's running turn and store the user's message with it."""
        tid, now = new_id(), now_iso()
        with immediate(self._db):
            written = self._record_unrecorded()
            session = self.require_local(session_id)
            if session.running_turn_id is not None:
                raise errors.TurnRunning(
                    f"turn {session.running_turn_id} is still running in this session"
                )
            self._db.execute(
                f"INSERT INTO turns ({_TURN_COLUMNS}) VALUES (?, ?, 'running', NULL, ?, NULL)",
                (tid, session_id, now),
            )
            self._touch(session_id, now)
            if session.title == DEFAULT_TITLE and not self._has_messages(session_id):
                self._db.execute(
                    "UPDATE sessions SET title = ? WHERE id = ?", (title_from(text), session_id)
                )
            message = self._insert_message(session_id, tid, "user", text)
            turn = self.get_turn(session_id, tid)
            session = self.get(session_id)
        self._recorded(written)
        self._publisher.publish(rpc.TURNS_CHANGED, turn)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)
        self._publisher.publish(
            rpc.MESSAGES_APPENDED, m.MessageAppended(session_id=session_id, message=message)
        )
        return turn, message

    def end_turn(self, session_id: str, turn_id: str, state: str, error: str | None) -> m.Turn:
        """End a running turn; a turn that already ended is returned as it is. If the end
        cannot be written, the turn still ends, in memory and for every client (failed,
        with the storage problem in words), and the session stays usable."""
        try:
            with immediate(self._db):
                turn = self.get_turn(session_id, turn_id)
                if turn.state != "running":
                    return turn
                now = now_iso()
                self._db.execute(
                    "UPDATE turns SET state = ?, error = ?, finished_at = ? WHERE id = ?",
                    (state, error, now, turn_id),
                )
                self._touch(session_id, now)
                turn = self.get_turn(session_id, turn_id)
                session = self.get(session_id)
        except StorageFailure as exc:
            reason = exc.reason or f"a storage error ({exc.kind})"
            log.error("the end of turn %s could not be written: %s", turn_id, exc)
            if state == "completed":
                state = "failed"
            words = f"the end of the turn could not be saved: {reason}"
            error = f"{error}; {words}" if error else words
            self._unrecorded[turn_id] = (state, error, now_iso())
            turn, maybe = self._ended_without_storage(session_id, turn_id)
            self._publisher.publish(rpc.TURNS_CHANGED, turn)
            if maybe is not None:
                self._publisher.publish(rpc.SESSIONS_CHANGED, maybe)
            return turn
        self._publisher.publish(rpc.TURNS_CHANGED, turn)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)
        return turn

    def _ended_without_storage(
        self, session_id: str, turn_id: str
    ) -> tuple[m.Turn, m.Session | None]:
        """The turn and its session as they stand in memory; read again when the file can
        still be read, else the turn from what memory knows and no session."""
        state, error, finished = self._unrecorded[turn_id]
        try:
            return self.get_turn(session_id, turn_id), self.get(session_id)
        except StorageFailure:
            turn = m.Turn.model_validate(
                {"id": turn_id, "sessionId": session_id, "state": state, "error": error,
                 "startedAt": finished, "finishedAt": finished}
            )  # fmt: skip
            return turn, None

    def fail_interrupted_turns(self) -> int:
        """Turns left running by a host that stopped are ended as failed. Run at start-up,
        before any client connects, so there is nobody to notify."""
        with immediate(self._db):
            self._db.execute(
                "UPDATE turns SET state = 'failed', error = 'host restarted', finished_at = ?"
                " WHERE state = 'running'",
                (now_iso(),),
            )
            return int(self._db.changes())

    # --- messages ---------------------------------------------------------------------

    def append_message(
        self,
        session_id: str,
        turn_id: str | None,
        role: str,
        content: str,
        tool_calls: tuple[m.ToolCall, ...] = (),
        tool_call_id: str | None = None,
        is_error: bool = False,
        todo: m.TodoCommit | None = None,
        kind: m.MessageKind | None = None,
        activity: m.ToolActivity | None = None,
    ) -> m.Message:
        with immediate(self._db):
            message = self._insert_message(
                session_id, turn_id, role, content, tool_calls, tool_call_id, is_error, todo,
                kind, activity,
            )  # fmt: skip
        self._publisher.publish(
            rpc.MESSAGES_APPENDED, m.MessageAppended(session_id=session_id, message=message)
        )
        return message

    def tell_delta(self, delta: m.MessageDelta) -> None:
        """Text of a message still arriving (section 16): told, not stored."""
        self._publisher.publish(rpc.MESSAGES_DELTA, delta)

    def messages(self, session_id: str) -> tuple[m.Message, ...]:
        self.get(session_id)
        rows = self._db.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY seq",
            (session_id,),
        ).fetchall()
        return tuple(_message(row) for row in rows)

    def message_page(self, params: m.MessageListParams) -> m.MessageList:
        """`messages.list`: the newest messages before `before_seq`, at most `limit` and
        about PAGE_BYTES of text (at least one message), in transcript order."""
        self.get(params.session_id)
        counted = self._db.execute(
            "SELECT COUNT(*), MIN(seq) FROM messages WHERE session_id = ?",
            (params.session_id,),
        ).fetchone()
        total, first = counted if counted is not None else (0, None)
        before = params.before_seq if params.before_seq is not None else 2**62
        if params.turn_id is not None:
            return self._turn_page(params, before, total)
        rows = self._db.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND seq < ?"
            " ORDER BY seq DESC LIMIT ?",
            (params.session_id, before, params.limit),
        )
        page = _within_a_page(rows)
        page.reverse()
        has_more = bool(page) and first is not None and page[0].seq > first
        return m.MessageList(messages=tuple(page), total=total, has_more=has_more)

    def _turn_page(self, params: m.MessageListParams, before: int, total: int) -> m.MessageList:
        """One turn's messages from its request on (the History view's group headers)."""
        rows = self._db.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND turn_id = ?"
            " AND seq < ? ORDER BY seq LIMIT ?",
            (params.session_id, params.turn_id, before, params.limit + 1),
        ).fetchall()
        page = _within_a_page(rows[: params.limit])
        has_more = len(rows) > len(page)  # more of the turn than this page
        return m.MessageList(messages=tuple(page), total=total, has_more=has_more)

    def _insert_message(
        self,
        session_id: str,
        turn_id: str | None,
        role: str,
        content: str,
        tool_calls: tuple[m.ToolCall, ...] = (),
        tool_call_id: str | None = None,
        is_error: bool = False,
        todo: m.TodoCommit | None = None,
        kind: m.MessageKind | None = None,
        activity: m.ToolActivity | None = None,
    ) -> m.Message:
        mid, now = new_id(), now_iso()
        content = valid_text(content)  # nothing stored can make a later read fail
        calls = json.dumps([c.model_dump() for c in tool_calls]) if tool_calls else None
        self._db.execute(
            f"INSERT INTO messages ({_MESSAGE_COLUMNS}) VALUES (?, ?, ?,"
            " (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = ?),"
            " ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                mid,
                session_id,
                turn_id,
                session_id,
                role,
                content,
                calls,
                tool_call_id,
                is_error,
                now,
                todo.model_dump_json(by_alias=True) if todo else None,
                kind,
                activity.model_dump_json(by_alias=True) if activity else None,
            ),
        )
        row = self._db.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE id = ?", (mid,)
        ).fetchone()
        return _message(row)

    # --- external agents (section 15) -------------------------------------------------

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

    def _has_messages(self, session_id: str) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM messages WHERE session_id = ? LIMIT 1", (session_id,)
        ).fetchone()
        return row is not None

    def _touch(self, session_id: str, now: str) -> None:
        self._db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id))
