"""Notification routing: each notification of the contract to the one place that
handles it. Checklist snapshots and turn states go to the renderer's store through the
controller's signals; session changes to the session state; transcript entries to the
transcript when their session is on screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.text import shown_text
from nib_desktop import convert
from nib_desktop.controller import MainController
from nib_desktop.sessions import SessionState
from ui.snapshots import TurnView


class NotificationRouter:
    def __init__(
        self,
        sessions: SessionState,
        view: MainController,
        current_gone: Callable[[], None],
    ) -> None:
        """`current_gone` runs when the session on screen must be loaded (again): it was
        deleted and another one took its place, or its remote host was linked again."""
        self._sessions = sessions
        self._view = view
        self._current_gone = current_gone
        self._routes: dict[str, Callable[[Any], None]] = {
            rpc.TODOS_CHANGED.name: self._todos_changed,
            rpc.TURNS_CHANGED.name: self._turns_changed,
            rpc.SESSIONS_CHANGED.name: self._session_changed,
            rpc.SESSIONS_DELETED.name: self._session_deleted,
            rpc.MESSAGES_APPENDED.name: self._message_appended,
            rpc.APPROVALS_REQUESTED.name: lambda a: view.approval_requested(convert.approval(a)),
            rpc.APPROVALS_RESOLVED.name: lambda r: view.approval_resolved(r.approval_id),
            rpc.TOOLS_CHANGED.name: lambda t: view.set_tool_sources(convert.tool_sources(t)),
        }
        missing = set(rpc.NOTIFICATIONS) - set(self._routes)
        if missing:
            raise ValueError(f"no route for {sorted(missing)}")

    def route(self, name: str, params: m.Wire) -> None:
        self._routes[name](params)

    def _todos_changed(self, snapshot: m.TodoSnapshot) -> None:
        self._view.todosChanged.emit(convert.snapshot(snapshot))

    def _turns_changed(self, turn: m.Turn) -> None:
        self._view.turnChanged.emit(convert.turn(turn))
        current = self._sessions.current
        if current is None or current.id != turn.session_id:
            return
        self._sessions.transcript.turn_changed(turn)
        row = convert.turn_end(turn)
        if row is not None:
            self._view.transcript_model.append_rows([row])

    def _session_changed(self, session: m.Session) -> None:
        """A session's new state. For a remote one whose host went out of reach while
        its turn ran, the turn is told as unreachable (nothing moves); when the host is
        linked again, the turn runs again if it still does, and the session on screen is
        loaded again (its transcript and checklist caught up there)."""
        before = self._sessions.get(session.id)
        self._sessions.update(session)
        remote = session.remote
        if remote is None:
            return
        was = before.remote.state if before is not None and before.remote else None
        if remote.state == was:
            return
        running = session.running_turn_id is not None
        if remote.state == "unreachable" and running:
            view = TurnView(session.id, "unreachable", shown_text(remote.error or ""))
            self._view.turnChanged.emit(view)
        elif remote.state == "connected" and running:
            self._view.turnChanged.emit(TurnView(session.id, "running"))
        current = self._sessions.current
        if remote.state == "connected" and current is not None and current.id == session.id:
            self._current_gone()

    def _session_deleted(self, params: m.SessionDeleted) -> None:
        self._view.forget(params.session_id)
        if self._sessions.remove(params.session_id):
            self._current_gone()

    def _message_appended(self, params: m.MessageAppended) -> None:
        current = self._sessions.current
        if current is not None and current.id == params.session_id:
            self._view.transcript_model.append_rows(
                self._sessions.transcript.append(params.message)
            )
