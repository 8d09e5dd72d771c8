"""The host connection's life cycle: spawn and supervise the host, connect and shake
hands, and the reconnect policy. It knows nothing of sessions: whoever owns it passes an
`on_connected` coroutine that runs after every (re)connect, before the state is "ready".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from PySide6.QtCore import QObject, Signal, SignalInstance

from host.protocol import errors, plain_methods as rpc, plain_models as m
from nib_desktop.link.rpc_client import RpcClient, describe
from nib_desktop.link.supervisor import HostStartError, HostSupervisor

log = logging.getLogger(__name__)

P = TypeVar("P", bound=m.Plain)
R = TypeVar("R", bound=m.Plain)

BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0)
MAX_RECONNECTS = 8  # about 25 s of trying
# a user waits no longer than this for any answer before being told in the window
CALL_TIMEOUT = 10.0
STARTUP_ERRORS = (HostStartError, errors.RpcError, TimeoutError)


class HostTimeout(TimeoutError):
    """The host did not answer a call in time (it may still carry it out)."""


class HostLink(Protocol):
    """What the router's neighbours (the loader and the intents) need of the host: typed
    calls, and a way to start it again. `HostConnection` is the real one; tests pair the
    client endpoint with the host's dispatcher in one process."""

    async def call(
        self, method: rpc.Method[P, R], params: P, timeout: float | None = None
    ) -> R: ...

    async def start(self) -> bool: ...


class HostConnection(QObject):
    """States: "starting", "ready", "reconnecting", "failed" (with the reason)."""

    stateChanged = Signal(str, str)  # state, error text

    def __init__(
        self,
        supervisor: HostSupervisor,
        on_connected: Callable[[], Awaitable[None]],
        parent: QObject | None = None,
        max_reconnects: int = MAX_RECONNECTS,
    ) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self._on_connected = on_connected
        self.max_reconnects = max_reconnects
        self.call_timeout = CALL_TIMEOUT
        self._client = RpcClient(self)
        self._client.disconnected.connect(self._lost)
        supervisor.exited.connect(lambda _code: self._lost())
        self._state = "starting"
        self._reconnecting: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def state(self) -> str:
        return self._state

    @property
    def notification(self) -> SignalInstance:
        """The client's own signal (method name, typed params): told on, not re-emitted."""
        return self._client.notification

    async def call(self, method: rpc.Method[P, R], params: P, timeout: float | None = None) -> R:
        """`method`'s result; HostTimeout after `timeout` (the connection's own by default)."""
        limit = self.call_timeout if timeout is None else timeout
        try:
            return await self._client.call(method, params, limit)
        except TimeoutError as exc:
            raise HostTimeout(f"the host did not answer within {limit:g} s") from exc

    async def start(self) -> bool:
        """Spawn the host, connect, run `on_connected`. False (and the failed state with
        the host's last lines) if that did not work."""
        self._set("starting")
        try:
            await self._connect()
        except STARTUP_ERRORS as exc:
            self._fail(exc)
            return False
        self._set("ready")
        return True

    async def shutdown(self) -> None:
        """host.shutdown, a bounded wait, then terminate: no host is left behind."""
        self._closing = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self._client.connected:
            try:
                await self._client.call(rpc.SHUTDOWN, m.Empty(), timeout=2.0)
            except (errors.RpcError, TimeoutError) as exc:
                log.info("host.shutdown was not answered: %s", describe(exc))
        self._client.close()
        self.supervisor.cleanup()

    async def _connect(self) -> None:
        ready = await self.supervisor.start()
        self._client.close()
        await self._client.connect_to(ready.socket, self.supervisor.token)
        await self._on_connected()

    def _lost(self) -> None:
        if self._closing or self._reconnecting is not None or self._state != "ready":
            return
        self._set("reconnecting")
        self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        """Restart the host with back-off; after `max_reconnects` failed attempts in a
        row, give up and show the failure (the window offers Retry)."""
        try:
            for attempt in range(1, self.max_reconnects + 1):
                await asyncio.sleep(BACKOFF_S[min(attempt - 1, len(BACKOFF_S) - 1)])
                try:
                    await self.supervisor.end()
                    await self._connect()
                except STARTUP_ERRORS as exc:
                    log.warning("reconnect attempt %d failed: %s", attempt, describe(exc))
                    if attempt == self.max_reconnects:
                        self._fail(exc)
                    continue
                self._set("ready")
                return
        finally:
            self._reconnecting = None

    def _fail(self, exc: BaseException) -> None:
        tail = exc.stderr_tail if isinstance(exc, HostStartError) else self.supervisor.stderr_tail
        reason = exc.reason if isinstance(exc, HostStartError) else describe(exc)
        self._set("failed", reason + ("\n\n" + "\n".join(tail[-8:]) if tail else ""))

    def _set(self, state: str, error: str = "") -> None:
        self._state = state
        self.stateChanged.emit(state, error)
