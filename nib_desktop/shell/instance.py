"""One app per data folder: a second launch brings the running window forward and exits.

Who is first is decided by an OS lock on `DIR/app.lock` (released by the kernel however
the app ends), so two launches at the same moment cannot both win and a crashed app
leaves nothing in the way. The first instance listens on a user-only Unix socket named
after the data folder; a later launch connects to it, sends one line and exits 0.

Claiming uses plain sockets and runs before the window exists; the listener (a
QLocalServer) starts after the first frame, so neither costs the window any time.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
from _blake2 import blake2b
from pathlib import Path

from PySide6.QtCore import QObject, Signal

FORWARD_WAIT_S = 3.0  # the first instance may still be starting its listener
MESSAGE = b"raise\n"
LOCK_FILENAME = "app.lock"


def instance_path(data_dir: Path) -> str:
    # BLAKE2 from Python's own module: hashlib would load OpenSSL (3.5 MB) for one digest
    digest = blake2b(str(data_dir.resolve()).encode(), digest_size=8).hexdigest()
    return os.path.join(tempfile.gettempdir(), f"nib-desktop-{os.getuid()}-{digest}")


class SingleInstance(QObject):
    activated = Signal()  # another launch asked for this window

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = instance_path(data_dir)
        self._lock_path = data_dir / LOCK_FILENAME
        self._lock_fd: int | None = None
        self._server: QObject | None = None

    def claim(self) -> bool:
        """True if this is the first instance (it now holds the lock); False if another
        one runs (it was asked to come forward if it could be reached)."""
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            deadline = time.monotonic() + FORWARD_WAIT_S
            while not self._forward() and time.monotonic() < deadline:
                time.sleep(0.05)
            return False
        self._lock_fd = fd
        return True

    def listen(self) -> None:
        """Start answering later launches (after the first frame)."""
        from PySide6.QtNetwork import QLocalServer

        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(self.path)  # we hold the lock: any socket there is stale
        server.newConnection.connect(lambda: self._accept(server))
        server.listen(self.path)
        self._server = server

    def _forward(self) -> bool:
        import socket  # only a later launch talks to the first

        with socket.socket(socket.AF_UNIX) as peer:
            peer.settimeout(0.5)
            try:
                peer.connect(self.path)
                peer.sendall(MESSAGE)
            except OSError:
                return False
        return True

    def _accept(self, server: QObject) -> None:
        from PySide6.QtNetwork import QLocalServer

        assert isinstance(server, QLocalServer)
        while (peer := server.nextPendingConnection()) is not None:
            peer.readyRead.connect(lambda p=peer: self._read(p))
            peer.disconnected.connect(peer.deleteLater)

    def _read(self, peer: QObject) -> None:
        from PySide6.QtNetwork import QLocalSocket

        assert isinstance(peer, QLocalSocket)
        if bytes(peer.readAll().data()).startswith(MESSAGE.strip()):
            self.activated.emit()
        peer.disconnectFromServer()

    def release(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)
            self._lock_fd = None
