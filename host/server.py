"""The transport adapter: QLocalServer and QLocalSocket carry bytes to and from
`ServerConnection`; nothing else in the host knows about sockets."""

from __future__ import annotations

import logging
import os
import stat

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from host.protocol import models as m
from host.protocol.endpoint import encode_notification
from host.rpc import Dispatcher, ServerConnection

log = logging.getLogger(__name__)

# A client that stops reading is dropped before its unread answers and notifications
# grow the host's memory without bound.
MAX_PENDING_WRITE = 64 * 1024 * 1024


class ListenError(Exception):
    pass


class RpcServer(QObject):
    def __init__(self, token: str, dispatcher: Dispatcher) -> None:
        super().__init__()
        self._token = token
        self._dispatcher = dispatcher
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._accept)
        self._connections: dict[QLocalSocket, ServerConnection] = {}

    def listen(self, name: str) -> str:
        """Listen on `name`; a stale socket there is replaced, anything else that exists
        there (a regular file, a folder) is refused untouched."""
        if "/" in name and os.path.lexists(name) and not stat.S_ISSOCK(os.lstat(name).st_mode):
            raise ListenError(f"cannot listen on {name}: it exists and is not a socket")
        QLocalServer.removeServer(name)
        if not self._server.listen(name):
            raise ListenError(f"cannot listen on {name}: {self._server.errorString()}")
        return self._server.fullServerName()

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    def broadcast(self, name: str, params: m.Wire) -> None:
        frame = encode_notification(name, params)
        for connection in list(self._connections.values()):
            connection.notify_frame(frame)

    def close(self) -> None:
        for connection in list(self._connections.values()):
            connection.shut()
        self._server.close()

    def _accept(self) -> None:
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            if socket is None:
                return
            self._attach(socket)

    def _attach(self, socket: QLocalSocket) -> None:
        def send(data: bytes) -> None:
            if socket.bytesToWrite() + len(data) > MAX_PENDING_WRITE:
                log.warning("dropping a client that does not read its messages")
                connection.shut()
                return
            socket.write(data)
            socket.flush()

        def close() -> None:
            socket.flush()
            socket.disconnectFromServer()

        connection = ServerConnection(self._token, self._dispatcher, send, close)
        self._connections[socket] = connection

        def read() -> None:
            data = socket.readAll().data()
            if data:
                connection.feed(bytes(data))

        def gone() -> None:
            connection.shut()
            self._connections.pop(socket, None)
            socket.deleteLater()

        socket.readyRead.connect(read)
        socket.disconnected.connect(gone)
        if socket.bytesAvailable():
            read()
