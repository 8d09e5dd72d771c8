"""A session's turns: begun with the user's message, ended once, and ended in memory when
the end cannot be written."""

from __future__ import annotations

import logging
from typing import Protocol

from host.clock import new_id, now_iso
from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.sessions.rows import TURN_COLUMNS, turn_of
from host.sessions.transcript import Transcript
from host.store.db import Database, immediate
from host.store.errors import StorageFailure

log = logging.getLogger(__name__)


class Sessions(Protocol):
    """What a turn needs of its sessions (the session service)."""

    transcript: Transcript

    def get(self, session_id: str) -> m.Session: ...
    def require_local(self, session_id: str) -> m.Session: ...
    def touch(self, session_id: str, now: str) -> None: ...
    def title_by_first(self, session: m.Session, text: str) -> None: ...


class Turns:
    def __init__(self, db: Database, publisher: Publisher, sessions: Sessions) -> None:
        self._db = db
        self._publisher = publisher
        self._sessions = sessions
        # Turns that ended while their end could not be written (a full disk, a failing
        # file): ended for everyone in memory, written with the next write that works,
        # and ended as "host restarted" by the next start if the host stops first.
        self._unrecorded: dict[str, tuple[str, str | None, str]] = {}

    def ended_in_memory(self, turn_id: str | None) -> bool:
        return turn_id in self._unrecorded

    def get(self, session_id: str, turn_id: str) -> m.Turn:
        row = self._db.execute(
            f"SELECT {TURN_COLUMNS} FROM turns WHERE id = ? AND session_id = ?",
            (turn_id, session_id),
        ).fetchone()
        if row is None:
            raise errors.TurnNotFound(f"no turn {turn_id!r} in session {session_id!r}")
        return self._in_memory(turn_of(row))

    def newest(self, session_id: str, limit: int) -> tuple[m.Turn, ...]:
        """The session's newest turns, newest first."""
        self._sessions.get(session_id)
        rows = self._db.execute(
            f"SELECT {TURN_COLUMNS} FROM turns WHERE session_id = ?"
            " ORDER BY started_at DESC, rowid DESC LIMIT ?",
            (session_id, limit),
        ).fetchall()
        return tuple(self._in_memory(turn_of(row)) for row in rows)

    def begin(
        self, session_id: str, text: str, attached: m.ToolActivity | None = None
    ) -> tuple[m.Turn, m.Message]:
        """Create the session's running turn and store the user's message with it (and
        what went with it: `attached`, its files as places and its images in words)."""
        tid, now = new_id(), now_iso()
        sessions = self._sessions
        with immediate(self._db):
            written = self._record_unrecorded()
            session = sessions.require_local(session_id)
            if session.running_turn_id is not None:
                raise errors.TurnRunning(
                    f"turn {session.running_turn_id} is still running in this session"
                )
            self._db.execute(
                f"INSERT INTO turns ({TURN_COLUMNS}) VALUES (?, ?, 'running', NULL, ?, NULL)",
                (tid, session_id, now),
            )
            sessions.touch(session_id, now)
            sessions.title_by_first(session, text)
            message = sessions.transcript.insert(session_id, tid, "user", text, activity=attached)
            turn = self.get(session_id, tid)
            session = sessions.get(session_id)
        self._recorded(written)
        self._publisher.publish(rpc.TURNS_CHANGED, turn)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)
        sessions.transcript.tell_appended(message)
        return turn, message

    def open(self, session_id: str) -> m.Turn:
        """A running turn with no message of the user's (an import's, section 20)."""
        tid, now = new_id(), now_iso()
        with immediate(self._db):
            self._db.execute(
                f"INSERT INTO turns ({TURN_COLUMNS}) VALUES (?, ?, 'running', NULL, ?, NULL)",
                (tid, session_id, now),
            )
            turn = self.get(session_id, tid)
        self._publisher.publish(rpc.TURNS_CHANGED, turn)
        return turn

    def end(self, session_id: str, turn_id: str, state: str, error: str | None) -> m.Turn:
        """End a running turn; a turn that already ended is returned as it is. If the end
        cannot be written, the turn still ends, in memory and for every client (failed,
        with the storage problem in words), and the session stays usable."""
        try:
            with immediate(self._db):
                turn = self.get(session_id, turn_id)
                if turn.state != "running":
                    return turn
                now = now_iso()
                self._db.execute(
                    "UPDATE turns SET state = ?, error = ?, finished_at = ? WHERE id = ?",
                    (state, error, now, turn_id),
                )
                self._sessions.touch(session_id, now)
                turn = self.get(session_id, turn_id)
                session = self._sessions.get(session_id)
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

    def fail_interrupted(self) -> int:
        """Turns left running by a host that stopped are ended as failed. Run at start-up,
        before any client connects, so there is nobody to notify."""
        with immediate(self._db):
            self._db.execute(
                "UPDATE turns SET state = 'failed', error = ?, finished_at = ?"
                " WHERE state = 'running'",
                (m.HOST_RESTARTED, now_iso()),
            )
            return int(self._db.changes())

    def _in_memory(self, turn: m.Turn) -> m.Turn:
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

    def _ended_without_storage(
        self, session_id: str, turn_id: str
    ) -> tuple[m.Turn, m.Session | None]:
        """The turn and its session as they stand in memory; read again when the file can
        still be read, else the turn from what memory knows and no session."""
        state, error, finished = self._unrecorded[turn_id]
        try:
            return self.get(session_id, turn_id), self._sessions.get(session_id)
        except StorageFailure:
            turn = m.Turn.model_validate(
                {
                    "id": turn_id,
                    "sessionId": session_id,
                    "state": state,
                    "error": error,
                    "startedAt": finished,
                    "finishedAt": finished,
                }
            )
            return turn, None
