"""The IPC bridge: the host-facing half of the main window's controller.

It owns the RPC client and drives the host supervisor, keeps the sessions as the host
reports them, and feeds the QML-facing `MainController`: every `todos.changed` goes to
the renderer's snapshot store through the controller's one typed signal, and a snapshot
is asked for (`todos.get`) only when the store requests one: a local session first shown,
or the shown session after a reconnect. It is created after the window's first frame, so
the protocol's models are not imported before the window is on screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject

from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from nib_desktop import convert
from nib_desktop.controller import MainController
from nib_desktop.rpc_client import RpcClient, describe
from nib_desktop.supervisor import HostStartError, HostSupervisor

log = logging.getLogger(__name__)

BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0)
MAX_RECONNECTS = 8  # about 25 s of trying


class HostBridge(QObject):
    def __init__(self, supervisor: HostSupervisor, controller: MainController) -> None:
        super().__init__(controller)
        self.supervisor = supervisor
        self.controller = controller
        self.store = controller.store
        self.client = RpcClient(self)
        self.client.notification.connect(self._on_notification)
        self.client.disconnected.connect(self._on_disconnected)
        supervisor.exited.connect(lambda _code: self._on_disconnected())
        self._sessions: dict[str, m.Session] = {}
        self._current: str | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._reconnecting: asyncio.Future[Any] | None = None
        self._closing = False
        self.reconnects = 0
        self.max_reconnects = MAX_RECONNECTS
        controller.attach(self)

    # --- life cycle -------------------------------------------------------------------

    async def start(self) -> bool:
        """Spawn the host, connect, and load the sessions. False (and the failed state
        with the host's last lines) if the host could not be started."""
        self.controller.set_connection("starting")
        try:
            await self._connect()
        except (HostStartError, errors.RpcError, TimeoutError) as exc:
            self._fail(exc)
            return False
        self.controller.set_connection("ready")
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
        state = self.controller.connection_state
        if self._closing or self._reconnecting is not None or state != "ready":
            return
        self.controller.set_connection("reconnecting")
        self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        """Restart the host with back-off; after MAX_RECONNECTS failed attempts in a row,
        give up and show the failure with its Retry."""
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
                    if attempt >= self.max_reconnects:
                        self._fail(exc)
                        return
                    continue
                self.reconnects += 1
                self.store.reconnected(self._current_local())
                self.controller.set_connection("ready")
                return
        finally:
            self._reconnecting = None

    def _fail(self, exc: BaseException) -> None:
        tail = exc.stderr_tail if isinstance(exc, HostStartError) else self.supervisor.stderr_tail
        reason = exc.reason if isinstance(exc, HostStartError) else describe(exc)
        error = reason + ("\n\n" + "\n".join(tail[-8:]) if tail else "")
        self.controller.set_connection("failed", error)

    # --- notifications ----------------------------------------------------------------

    def _on_notification(self, name: str, params: m.Wire) -> None:
        if name == rpc.TODOS_CHANGED.name and isinstance(params, m.TodoSnapshot):
            self.controller.todosChanged.emit(convert.snapshot(params))
        elif name == rpc.SESSIONS_CHANGED.name and isinstance(params, m.Session):
            self._sessions[params.id] = params
            self._publish_sessions()
            if params.id == self._current:
                self._publish_current()
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
            self.controller.transcript_model.append_rows(convert.transcript_rows(params.message))

    # --- the store's requests ---------------------------------------------------------

    def recover(self, session_id: str) -> None:
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
        self.controller.todosChanged.emit(convert.snapshot(snapshot))

    # --- sessions ---------------------------------------------------------------------

    def _ordered(self) -> list[m.Session]:
        return sorted(
            self._sessions.values(), key=lambda s: (s.updated_at, s.created_at), reverse=True
        )

    def _publish_sessions(self) -> None:
        self.controller.sessions_model.set_rows([convert.session_row(s) for s in self._ordered()])
        self.store.set_remote({s.id for s in self._sessions.values() if s.origin == "remote"})

    def _publish_current(self) -> None:
        session = self._sessions.get(self._current or "")
        self.controller.set_current(convert.session_row(session) if session else None)

    def _current_local(self) -> str | None:
        session = self._sessions.get(self._current or "")
        return session.id if session is not None and session.origin == "local" else None

    async def _show_current(self) -> None:
        session = self._sessions.get(self._current or "")
        self.controller.transcript_model.set_rows([])
        self._publish_current()
        if session is None or session.origin == "remote":
            return
        listing = await self.client.call(rpc.MESSAGES_LIST, m.SessionRef(session_id=session.id))
        if self._current == session.id:
            rows = [row for msg in listing.messages for row in convert.transcript_rows(msg)]
            self.controller.transcript_model.set_rows(rows)

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
                self.controller.notice.emit(describe(exc))

        task.add_done_callback(done)

    # --- the controller's actions -----------------------------------------------------

    def new_session(self, mode: str) -> None:
        self._spawn(self.create_session(mode))

    def attach_remote(self, endpoint: str, remote_session_id: str) -> None:
        ref = m.RemoteRef(endpoint=endpoint, remote_session_id=remote_session_id)
        self._spawn(self.create_session("agent", ref))

    def fork(self) -> None:
        self._spawn(self.fork_current())

    def delete_session(self, session_id: str) -> None:
        self._spawn(self.delete(session_id))

    def select_session(self, session_id: str) -> None:
        self._spawn(self.select(session_id))

    def send(self, text: str) -> None:
        self._spawn(self.send_message(text))

    def cancel(self) -> None:
        self._spawn(self.cancel_running())

    def retry(self) -> None:
        self._spawn(self.start())
