"""One app per data folder: a second launch brings the running window forward and exits.

Who is first is decided by an OS lock on `DIR/app.lock` (released by the kernel however
the app ends), so two launches at the same moment cannot both win and a crashed app
leaves nothing in the way. The first instance listens on a user-only local socket named
after the data folder; a later launch connects to it, sends one line and exits 0.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import time
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

CONNECT_MS = 300
FORWARD_WAIT_S = 3.0  # the first instance may still be setting up its socket
MESSAGE = b"raise\n"
LOCK_FILENAME = "app.lock"


def instance_name(data_dir: Path) -> str:
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:16]
    return f"nib-desktop-{os.getuid()}-{digest}"


class SingleInstance(QObject):
    activated = Signal()  # another launch asked for this window

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = instance_name(data_dir)
        self._lock_path = data_dir / LOCK_FILENAME
        self._lock_fd: int | None = None
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._accept)

    def claim(self) -> bool:
        """True if this is the first instance (it now holds the lock and listens);
        False if another one runs and was asked to come forward."""
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            deadline = time.monotonic() + FORWARD_WAIT_S
            while not self._forward():
                if time.monotonic() > deadline:
                    return False  # the other one holds the folder; it is not ours either
                time.sleep(0.05)
            return False
        self._lock_fd = fd
        QLocalServer.removeServer(self.name)  # we hold the lock: any socket there is stale
        self._server.listen(self.name)
        return True

    def release(self) -> None:
        self._server.close()
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)
            self._lock_fd = None

    def _forward(self) -> bool:
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(CONNECT_MS):
            return False
        socket.write(MESSAGE)
        socket.waitForBytesWritten(CONNECT_MS)
        socket.disconnectFromServer()
        if socket.state() != QLocalSocket.LocalSocketState.UnconnectedState:
            socket.waitForDisconnected(CONNECT_MS)
        return True

    def _accept(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket) -> None:
        if bytes(socket.readAll().data()).startswith(MESSAGE.strip()):
            self.activated.emit()
        socket.disconnectFromServer()
