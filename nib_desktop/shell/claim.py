"""One app per data folder: a second launch brings the running window forward and exits.

Who is first is decided by an OS lock on `DIR/app.lock` (released by the kernel however
the app ends), so two launches at the same moment cannot both win and a crashed app
leaves nothing in the way. The first instance listens on a user-only Unix socket named
after the data folder (`instance.SingleInstance`, after its first frame); a later launch
connects to it, sends one line and exits 0.

Claiming uses plain sockets and no Qt: it runs first, before the app starts its host
(a second launch starts none) and imports Qt.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from _blake2 import blake2b
from pathlib import Path

FORWARD_WAIT_S = 3.0  # the first instance may still be starting its listener
MESSAGE = b"raise\n"
LOCK_FILENAME = "app.lock"


def instance_path(data_dir: Path) -> str:
    # BLAKE2 from Python's own module: hashlib would load OpenSSL (3.5 MB) for one digest
    digest = blake2b(str(data_dir.resolve()).encode(), digest_size=8).hexdigest()
    return os.path.join(tempfile.gettempdir(), f"nib-desktop-{os.getuid()}-{digest}")


class FolderClaim:
    def __init__(self, data_dir: Path) -> None:
        self.path = instance_path(data_dir)
        self._lock_path = data_dir / LOCK_FILENAME
        self._lock_fd: int | None = None  # held open: the lock lasts as the process does

    def claim(self) -> bool:
        """True if this is the first instance: it holds the lock until its process ends
        (the kernel releases it). False if another one runs (asked to come forward, if
        it could be reached)."""
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
