"""One host per data folder: an OS lock on `DIR/host.lock`, held for the process's life.

A second host on the same folder would end the first one's running turns as "host
restarted" and its changes would not reach the first one's clients. The lock is the
kernel's (flock), so it is released when the process ends however it ends; the file
holds the owner's pid for the message.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LOCK_FILENAME = "host.lock"


class FolderInUse(Exception):
    """Another host holds the data folder."""


class FolderLock:
    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_FILENAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Hold the lock; FolderInUse naming the other host's pid if it is held."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise FolderInUse(
                f"another Nib host (pid {owner}) is using {self.path.parent}"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
