"""The JSON-RPC client on QLocalSocket: typed async requests with per-call timeouts and
cancellation, notifications dispatched by method, errors raised as the contract's typed
exceptions. Every shape comes from `host.protocol`; nothing is written again here."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TypeVar

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtNetwork import QLocalSocket

from host.protocol import PROTOCOL_VERSION, plain_models as m
from host.protocol.framing import FramingError
from host.protocol.jsonrpc import ClientEndpoint, ConnectionLost, Malformed
from host.protocol.method_types import Method
from host.protocol.plain import DecodeError
from host.protocol.plain_methods import HELLO, NOTIFICATIONS

log = logging.getLogger(__name__)

P = TypeVar("P", bound=m.Plain)
R = TypeVar("R", bound=m.Plain)

# Work on the GUI thread longer than this is logged: a frozen window is a bug.
SLOW_GUI_MS = 100.0
# Frames from the host are handled for about this long at a turn of the event loop (a
# quarter of a frame at 60 Hz), then the loop may draw and take input before the rest.
FRAME_BUDGET_S = 0.004


def decoded(kind: type[m.Plain], data: object) -> m.Plain:
    """The contract's plain type from the host's JSON, or Malformed saying where not."""
    try:
        return kind.from_wire(data)
    except DecodeError as exc:
        raise Malformed(exc.details()) from None


class RpcClient(QObject):
    notification = Signal(str, object)  # method name, typed params model
    disconnected = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._socket = QLocalSocket(self)
        self._endpoint = ClientEndpoint(self._send, self._notify, NOTIFICATIONS, decoded)
        self._frames: deque[bytes] = deque()  # read, not yet handled
        self._drainer = QTimer(self)
        self._drainer.setSingleShot(True)
        self._drainer.setInterval(0)
        self._drainer.timeout.connect(self._drain)
        self._socket.readyRead.connect(self._read)
        self._socket.disconnected.connect(self._lost)

    @property
    def connected(self) -> bool:
        return self._socket.state() == QLocalSocket.LocalSocketState.ConnectedState

    async def connect_to(self, server: str, token: str, timeout: float = 5.0) -> m.HelloResult:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def on_connected() -> None:
            if not done.done():
                done.set_result(None)

        def on_error(_error: QLocalSocket.LocalSocketError) -> None:
            if not done.done():
                done.set_exception(ConnectionLost(self._socket.errorString()))

        self._socket.connected.connect(on_connected)
        self._socket.errorOccurred.connect(on_error)
        try:
            self._socket.connectToServer(server)
            await asyncio.wait_for(done, timeout)
        finally:
            self._socket.connected.disconnect(on_connected)
            self._socket.errorOccurred.disconnect(on_error)
        hello = m.HelloParams(token=token, protocol_version=PROTOCOL_VERSION, client="nib-desktop")
        return await self.call(HELLO, hello, timeout)

    async def call(self, method: Method[P, R], params: P, timeout: float | None = 30.0) -> R:
        """The typed result, or the contract's typed exception; cancelling the awaiting
        task abandons the call."""
        if not self.connected:
            raise ConnectionLost("not connected to the host")
        return await self._endpoint.request(method, params, timeout)

    def close(self) -> None:
        self._frames.clear()  # what that host sent is not for the next connection
        self._drainer.stop()
        self._socket.abort()
        self._endpoint.close("client closed")

    def _send(self, data: bytes) -> None:
        self._socket.write(data)
        self._socket.flush()

    def _notify(self, name: str, params: m.Plain) -> None:
        self.notification.emit(name, params)

    def _read(self) -> None:
        """Bytes from the host are cut into frames at once (cheap); the frames are handled
        in order at the loop's next turn, a share of a frame's time at each turn: a flood
        from the host keeps the window drawing instead of freezing it until it is over."""
        data = bytes(self._socket.readAll().data())
        try:
            self._frames.extend(self._endpoint.frames(data))
        except FramingError as exc:
            log.error("the host sent an unreadable stream (%s); disconnecting", exc)
            self._frames.clear()
            self._socket.abort()
            return
        if not self._drainer.isActive():  # else they wait their turn behind the others
            self._drainer.start()

    def _drain(self) -> None:
        started = time.perf_counter()
        while self._frames:
            body = self._frames.popleft()
            begun = time.perf_counter()
            self._endpoint.handle(body)
            done = time.perf_counter()
            if (done - begun) * 1000 > SLOW_GUI_MS:
                log.warning(
                    "handling a frame of %d bytes from the host kept the GUI busy %.0f ms",
                    len(body),
                    (done - begun) * 1000,
                )
            if done - started > FRAME_BUDGET_S and self._frames:
                self._drainer.start()  # the rest after what the loop has waiting
                return

    def _lost(self) -> None:
        # what the host said before it went is heard first (the answer to host.shutdown)
        self._drainer.stop()
        while self._frames:
            self._endpoint.handle(self._frames.popleft())
        self._endpoint.close("the host closed the connection")
        self.disconnected.emit()


def describe(exc: BaseException) -> str:
    return getattr(exc, "message", None) or str(exc) or type(exc).__name__


__all__ = ["RpcClient", "describe"]
