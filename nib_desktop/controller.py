"""The main-window controller: the IPC bridge between the host and QML.

It owns the RPC client and the host supervisor, keeps the sessions list and the current
session's transcript, and forwards every `todos.changed` to the renderer's snapshot store
through one typed signal. It asks the host for a snapshot only when the store requests
one (a local session first shown, or the shown session after a reconnect).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from nib_desktop import convert
from nib_desktop.rpc_client import RpcClient, describe
from nib_desktop.supervisor import HostStartError, HostSupervisor
from ui.models import SessionListModel, TodoDockModel, TranscriptModel, qml_uncreatable
from ui.snapshots import SnapshotStore

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

log = logging.getLogger(__name__)

BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0)


@QmlElement
@qml_uncreatable("made by the application")
class MainController(QObject):
    todosChanged = Signal(object)  # ui.snapshots.Snapshot, in commit order
    connectionChanged = Signal()
    currentChanged = Signal()
    notice = Signal(str)  # a short message for the user (a failed action)

    def __init__(self, supervisor: HostSupervisor, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self.client = RpcClient(self)
        self.client.notification.connect(self._on_notification)
        self.client.disconnected.connect(self._on_disconnected)
        supervisor.exited.connect(lambda _code: self._on_disconnected())
        self.store = SnapshotStore(self._request_snapshot)
        self.todosChanged.connect(self.store.apply)
        self._sessions_model = SessionListModel(self)
        self._transcript = TranscriptModel(self)
        self.dock_model = TodoDockModel(self.store, self)
        self._sessions: dict[str, m.Session] = {}
        self._current: str | None = None
        self._state = "starting"
        self._error = ""
        self._tasks: set[asyncio.Future[Any]] = set()
        self._reconnecting: asyncio.Future[Any] | None = None
        self._closing = False
        self.reconnects = 0

    # --- life cycle -------------------------------------------------------------------

    async def start(self) -> bool:
        """Spawn the host, connect, and load the sessions. False (and the failed state
        with the host's last lines) if the host could not be started."""
        self._set_state("starting")
        try:
            await self._connect()
        except (HostStartError, errors.RpcError, TimeoutError) as exc:
            self._fail(exc)
            return False
        self._set_state("ready")
        return True

    async def shutdown(self) -> None:
        """host.shutdown, a bounded wait, then terminate: no host is left behind."""
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self.client.connected:
            with contextlib.suppress(errors.RpcError, TimeoutError):
                await self.client.call(rpc.SHUTDOWN, m.Empty(), timeout=2.0)
        self.client.close()
        self.supervisor.cleanup()

    async def _connect(self) -> None:
        info = await self.supervisor.start()
        self.client.close()
        await self.client.connect_to(str(info["socket"]), self.supervisor.token)
        await self._load_sessions()

    async def _load_sessions(self) -> None:
        listing = await self.client.call(rpc.SESSIONS_LIST, m.Empty())
        self._sessions = {s.id: s for s in listing.sessions}
        self._publish_sessions()
        if self._current not in self._sessions:
            self._current = listing.sessions[0].id if listing.sessions else None
        await self._show_current()

    def _on_disconnected(self) -> None:
        if self._closing or self._reconnecting is not None or self._state != "ready":
            return
        self._set_state("reconnecting")
        self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        attempt = 0
        try:
            while not self._closing:
                await asyncio.sleep(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                attempt += 1
                try:
                    self.supervisor.kill()
                    await self._connect()
                except (HostStartError, errors.RpcError, TimeoutError) as exc:
                    log.warning("reconnect attempt %d failed: %s", attempt, describe(exc))
                    continue
                self.reconnects += 1
                self.store.reconnected(self._current_local())
                self._set_state("ready")
                return
        finally:
            self._reconnecting = None

    def _fail(self, exc: BaseException) -> None:
        tail = exc.stderr_tail if isinstance(exc, HostStartError) else self.supervisor.stderr_tail
        reason = exc.reason if isinstance(exc, HostStartError) else describe(exc)
        self._error = reason + ("\n\n" + "\n".join(tail[-8:]) if tail else "")
        self._set_state("failed")

    def _set_state(self, state: str) -> None:
        if state != self._state:
            self._state = state
            if state != "failed":
                self._error = ""
            self.connectionChanged.emit()

    # --- notifications ----------------------------------------------------------------

    def _on_notification(self, name: str, params: m.Wire) -> None:
        if name == rpc.TODOS_CHANGED.name and isinstance(params, m.TodoSnapshot):
            self.todosChanged.emit(convert.snapshot(params))
        elif name == rpc.SESSIONS_CHANGED.name and isinstance(params, m.Session):
            self._sessions[params.id] = params
            self._publish_sessions()
            if params.id == self._current:
                self.dock_model.set_running(params.running_turn_id is not None)
                self.currentChanged.emit()
        elif name == rpc.SESSIONS_DELETED.name and isinstance(params, m.SessionDeleted):
            self._sessions.pop(params.session_id, None)
            self.store.forget(params.session_id)
            self._publish_sessions()
            if params.session_id == self._current:
                rest = self._ordered()
                self._current = rest[0].id if rest else None
                self._spawn(self._show_current())
        elif (
            name == rpc.MESSAGES_APPENDED.name
            and isinstance(params, m.MessageAppended)
            and params.session_id == self._current
        ):
            rows = self._transcript.rows() + convert.transcript_rows(params.message)
            self._transcript.set_rows(rows)

    # --- the store's requests ---------------------------------------------------------

    def _request_snapshot(self, session_id: str) -> None:
        session = self._sessions.get(session_id)
        if session is None or session.origin == "remote":
            return
        self._spawn(self._recover(session_id))

    async def _recover(self, session_id: str) -> None:
        try:
            snapshot = await self.client.call(rpc.TODOS_GET, m.SessionRef(session_id=session_id))
        except errors.RpcError as exc:
            log.info("could not recover the checklist of %s: %s", session_id, describe(exc))
            return
        self.todosChanged.emit(convert.snapshot(snapshot))

    # --- sessions ---------------------------------------------------------------------

    def _ordered(self) -> list[m.Session]:
        return sorted(
            self._sessions.values(), key=lambda s: (s.updated_at, s.created_at), reverse=True
        )

    def _publish_sessions(self) -> None:
        self._sessions_model.set_rows([convert.session_row(s) for s in self._ordered()])
        self.store.set_remote({s.id for s in self._sessions.values() if s.origin == "remote"})

    def _current_local(self) -> str | None:
        session = self._sessions.get(self._current or "")
        return session.id if session is not None and session.origin == "local" else None

    async def _show_current(self) -> None:
        session = self._sessions.get(self._current or "")
        self._transcript.set_rows([])
        self.currentChanged.emit()
        if session is None:
            self.dock_model.show_session(None, False, False)
            return
        remote = session.origin == "remote"
        self.dock_model.show_session(session.id, remote, session.running_turn_id is not None)
        if remote:
            return
        listing = await self.client.call(rpc.MESSAGES_LIST, m.SessionRef(session_id=session.id))
        if self._current == session.id:
            rows = [row for msg in listing.messages for row in convert.transcript_rows(msg)]
            self._transcript.set_rows(rows)

    async def create_session(
        self, mode: str = "agent", remote: m.RemoteRef | None = None
    ) -> m.Session:
        params = m.CreateSessionParams.model_validate({"mode": mode, "remote": remote})
        session = await self.client.call(rpc.SESSIONS_CREATE, params)
        self._sessions[session.id] = session
        self._publish_sessions()
        await self.select(session.id)
        return session

    async def select(self, session_id: str) -> None:
        if session_id in self._sessions and session_id != self._current:
            self._current = session_id
            await self._show_current()

    async def send_message(self, text: str) -> m.Turn | None:
        session = self._sessions.get(self._current or "")
        if session is None:
            session = await self.create_session("agent")
        params = m.StartTurnParams(session_id=session.id, text=text)
        return await self.client.call(rpc.TURNS_START, params)

    async def cancel_running(self) -> None:
        session = self._sessions.get(self._current or "")
        if session is None or session.running_turn_id is None:
            return
        ref = m.TurnRef(session_id=session.id, turn_id=session.running_turn_id)
        await self.client.call(rpc.TURNS_CANCEL, ref)

    async def fork_current(self) -> None:
        if self._current is None:
            return
        fork = await self.client.call(rpc.SESSIONS_FORK, m.ForkParams(session_id=self._current))
        self._sessions[fork.id] = fork
        self._publish_sessions()
        await self.select(fork.id)

    async def delete(self, session_id: str) -> None:
        await self.client.call(rpc.SESSIONS_DELETE, m.SessionRef(session_id=session_id))

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def done(t: asyncio.Future[Any]) -> None:
            self._tasks.discard(t)
            if t.cancelled():
                return
            exc = t.exception()
            if exc is not None:
                log.warning("action failed: %s", describe(exc))
                self.notice.emit(describe(exc))

        task.add_done_callback(done)

    # --- what QML sees ----------------------------------------------------------------

    def _get_sessions(self) -> SessionListModel:
        return self._sessions_model

    def _get_transcript(self) -> TranscriptModel:
        return self._transcript

    def _get_dock(self) -> TodoDockModel:
        return self.dock_model

    def _get_state(self) -> str:
        return self._state

    def _get_error(self) -> str:
        return self._error

    def _cur(self) -> m.Session | None:
        return self._sessions.get(self._current or "")

    def _get_current_id(self) -> str:
        return self._current or ""

    def _get_current_title(self) -> str:
        session = self._cur()
        return session.title if session else ""

    def _get_current_mode(self) -> str:
        session = self._cur()
        return session.mode if session else "agent"

    def _get_current_remote(self) -> bool:
        session = self._cur()
        return session is not None and session.origin == "remote"

    def _get_current_running(self) -> bool:
        session = self._cur()
        return session is not None and session.running_turn_id is not None

    sessions = Property(SessionListModel, _get_sessions, constant=True)
    transcript = Property(TranscriptModel, _get_transcript, constant=True)
    dock = Property(TodoDockModel, _get_dock, constant=True)
    connectionState = Property(str, _get_state, notify=connectionChanged)
    connectionError = Property(str, _get_error, notify=connectionChanged)
    currentSessionId = Property(str, _get_current_id, notify=currentChanged)
    currentTitle = Property(str, _get_current_title, notify=currentChanged)
    currentMode = Property(str, _get_current_mode, notify=currentChanged)
    currentRemote = Property(bool, _get_current_remote, notify=currentChanged)
    currentRunning = Property(bool, _get_current_running, notify=currentChanged)

    @Slot(str)
    def newSession(self, mode: str) -> None:
        self._spawn(self.create_session(mode))

    @Slot(str, str)
    def attachRemote(self, endpoint: str, remote_session_id: str) -> None:
        ref = m.RemoteRef(endpoint=endpoint, remote_session_id=remote_session_id)
        self._spawn(self.create_session("agent", ref))

    @Slot()
    def forkSession(self) -> None:
        self._spawn(self.fork_current())

    @Slot(str)
    def deleteSession(self, session_id: str) -> None:
        self._spawn(self.delete(session_id))

    @Slot(str)
    def selectSession(self, session_id: str) -> None:
        self._spawn(self.select(session_id))

    @Slot(str, result=bool)
    def send(self, text: str) -> bool:
        if not text.strip() or self._get_current_running() or self._get_current_remote():
            return False
        self._spawn(self.send_message(text))
        return True

    @Slot()
    def cancelTurn(self) -> None:
        self._spawn(self.cancel_running())

    @Slot()
    def retry(self) -> None:
        self._spawn(self.start())
