"""A session's transcript: its messages stored in order, read back whole or by page, and
told as they come (a message still arriving only told, section 16)."""

from __future__ import annotations

import json
from collections.abc import Callable

from host.clock import new_id, now_iso
from host.events import Publisher
from host.protocol import methods as rpc, models as m
from host.protocol.text import valid_text
from host.sessions.rows import MESSAGE_COLUMNS, message_of, within_a_page
from host.store.db import Database, immediate


class Transcript:
    def __init__(
        self, db: Database, publisher: Publisher, session: Callable[[str], m.Session]
    ) -> None:
        self._db = db
        self._publisher = publisher
        self._session = session  # the session by id, or SessionNotFound

    def append(
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
            message = self.insert(
                session_id,
                turn_id,
                role,
                content,
                tool_calls,
                tool_call_id,
                is_error,
                todo,
                kind,
                activity,
            )
        self.tell_appended(message)
        return message

    def tell_appended(self, message: m.Message) -> None:
        self._publisher.publish(
            rpc.MESSAGES_APPENDED, m.MessageAppended(session_id=message.session_id, message=message)
        )

    def tell_delta(self, delta: m.MessageDelta) -> None:
        """Text of a message still arriving (section 16): told, not stored."""
        self._publisher.publish(rpc.MESSAGES_DELTA, delta)

    def all(self, session_id: str) -> tuple[m.Message, ...]:
        self._session(session_id)
        rows = self._db.execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY seq",
            (session_id,),
        ).fetchall()
        return tuple(message_of(row) for row in rows)

    def page(self, params: m.MessageListParams) -> m.MessageList:
        """`messages.list`: the newest messages before `before_seq`, at most `limit` and
        about PAGE_BYTES of text (at least one message), in transcript order."""
        self._session(params.session_id)
        counted = self._db.execute(
            "SELECT COUNT(*), MIN(seq) FROM messages WHERE session_id = ?",
            (params.session_id,),
        ).fetchone()
        total, first = counted if counted is not None else (0, None)
        before = params.before_seq if params.before_seq is not None else 2**62
        if params.turn_id is not None:
            return self._turn_page(params, before, total)
        rows = self._db.execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND seq < ?"
            " ORDER BY seq DESC LIMIT ?",
            (params.session_id, before, params.limit),
        )
        page = within_a_page(rows)
        page.reverse()
        has_more = bool(page) and first is not None and page[0].seq > first
        return m.MessageList(messages=tuple(page), total=total, has_more=has_more)

    def _turn_page(self, params: m.MessageListParams, before: int, total: int) -> m.MessageList:
        """One turn's messages from its request on (the History view's group headers)."""
        rows = self._db.execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND turn_id = ?"
            " AND seq < ? ORDER BY seq LIMIT ?",
            (params.session_id, params.turn_id, before, params.limit + 1),
        ).fetchall()
        page = within_a_page(rows[: params.limit])
        has_more = len(rows) > len(page)  # more of the turn than this page
        return m.MessageList(messages=tuple(page), total=total, has_more=has_more)

    def insert(
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
        """Store one message at the end of the transcript (inside the caller's transaction;
        nothing is told)."""
        mid, now = new_id(), now_iso()
        content = valid_text(content)  # nothing stored can make a later read fail
        calls = json.dumps([c.model_dump() for c in tool_calls]) if tool_calls else None
        self._db.execute(
            f"INSERT INTO messages ({MESSAGE_COLUMNS}) VALUES (?, ?, ?,"
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
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ?", (mid,)
        ).fetchone()
        return message_of(row)

    def copy(self, source_id: str, target_id: str, before_seq: int | None = None) -> None:
        """Every message of one session (or those before `before_seq`) copied to the end
        of another's, turns dropped (a fork; inside the caller's transaction)."""
        copied = self._db.execute(
            "SELECT seq, role, content, tool_calls, tool_call_id, is_error, created_at,"
            " todo, kind, activity FROM messages WHERE session_id = ? AND seq < ? ORDER BY seq",
            (source_id, before_seq if before_seq is not None else 2**62),
        ).fetchall()
        self._db.executemany(
            f"INSERT INTO messages ({MESSAGE_COLUMNS})"
            " VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(new_id(), target_id, *row) for row in copied],
        )

    def message(self, session_id: str, message_id: str) -> m.Message | None:
        row = self._db.execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id = ?",
            (session_id, message_id),
        ).fetchone()
        return None if row is None else message_of(row)

    def is_empty(self, session_id: str) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM messages WHERE session_id = ? LIMIT 1", (session_id,)
        ).fetchone()
        return row is None

    def compacted_lately(self, session_id: str) -> bool:
        """Whether a compaction (a "summary" message) came after the user's last message
        before the newest: the agent compacted its context since it was last prompted."""
        rows = self._db.execute(
            "SELECT role FROM messages WHERE session_id = ? AND role IN ('user', 'summary')"
            " ORDER BY seq DESC LIMIT 2",
            (session_id,),
        ).fetchall()
        roles = [row[0] for row in rows]
        return roles[:1] == ["summary"] or roles == ["user", "summary"]
