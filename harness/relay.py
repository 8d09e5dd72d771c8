"""A Unix-socket relay between a client and a server that a test can cut and restore: a
link that drops while both ends keep running (a laptop's Wi-Fi, a VPN that reconnects)."""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
import time


class Relay:
    def __init__(self, listen_path: str, target_path: str) -> None:
        self.listen_path = listen_path
        self.target_path = target_path
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._listener: socket.socket | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.accepted: list[float] = []  # when each link was accepted (monotonic)

    def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.listen_path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.listen_path)
        listener.listen(8)
        self._listener = listener
        self._stop.clear()
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def cut(self) -> None:
        """Drop every link and refuse new ones until `start()`."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        with self._lock:
            for a, b in self._pairs:
                a.close()
                b.close()
            self._pairs.clear()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.listen_path)

    def _pump(self) -> None:
        assert self._listener is not None
        listener = self._listener
        while not self._stop.is_set():
            with self._lock:
                sockets = [listener] + [s for pair in self._pairs for s in pair]
            readable, _, _ = select.select(sockets, [], [], 0.05)
            for sock in readable:
                if sock is listener:
                    client, _ = listener.accept()
                    self.accepted.append(time.monotonic())
                    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    try:
                        server.connect(self.target_path)
                    except OSError:
                        client.close()
                        server.close()
                        continue
                    with self._lock:
                        self._pairs.append((client, server))
                    continue
                self._move(sock)

    def _move(self, sock: socket.socket) -> None:
        with self._lock:
            pair = next((p for p in self._pairs if sock in p), None)
        if pair is None:
            return
        other = pair[1] if sock is pair[0] else pair[0]
        try:
            data = sock.recv(65536)
        except OSError:
            data = b""
        if data:
            with contextlib.suppress(OSError):
                other.sendall(data)
            return
        with self._lock:
            if pair in self._pairs:
                self._pairs.remove(pair)
        sock.close()
        other.close()
