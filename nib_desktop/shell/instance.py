"""The first instance's listener: a later launch on the same data folder (`claim`)
connects to it and asks this window to come forward. A QLocalServer on a user-only Unix
socket, started after the first frame, so it costs the window no time."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from nib_desktop.shell.claim import MESSAGE, FolderClaim


class SingleInstance(QObject):
    activated = Signal()  # another launch asked for this window

    def __init__(self, claimed: FolderClaim, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.claimed = claimed
        self.path = claimed.path
        self._server: QObject | None = None

    def listen(self) -> None:
        """Start answering later launches (after the first frame)."""
        from PySide6.QtNetwork import QLocalServer

        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(self.path)  # we hold the lock: any socket there is stale
        server.newConnection.connect(lambda: self._accept(server))
        server.listen(self.path)
        self._server = server

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
