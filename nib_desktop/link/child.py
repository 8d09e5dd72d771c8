"""The host's process as its supervisor reads it: a `subprocess.Popen` (which `launch`
can start before Qt is imported), read by three threads: one for its output, one for
its errors, one waiting for its end. Each hands what it got to the GUI thread as a queued
signal, the end last, after everything the host wrote before it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from typing import IO

from PySide6.QtCore import QObject, Signal, SignalInstance

# once the host has ended, how long its last output may take to arrive: a process the
# host started and left running could hold its pipes open forever
READ_AFTER_END_S = 1.0


class HostChild(QObject):
    output = Signal(bytes)  # from its stdout, as it came
    errors = Signal(bytes)  # from its stderr, as it came
    ended = Signal(int)  # its exit code (negative: the signal that ended it)

    def __init__(self, popen: subprocess.Popen[bytes], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.popen = popen

    def read(self) -> None:
        """Start handing over what it writes, and its end: once its signals are
        connected (what is emitted before would be lost)."""
        popen = self.popen
        readers = [
            threading.Thread(target=self._pump, args=(stream, signal), daemon=True, name=name)
            for stream, signal, name in (
                (popen.stdout, self.output, "host-stdout"),
                (popen.stderr, self.errors, "host-stderr"),
            )
        ]
        for reader in readers:
            reader.start()
        threading.Thread(target=self._wait, args=(readers,), daemon=True, name="host-end").start()

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def running(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.popen.kill()

    def terminate(self) -> None:
        with contextlib.suppress(OSError):
            self.popen.terminate()

    def close_input(self) -> None:
        """The end of its standard input: the host stops as when the app quits."""
        if self.popen.stdin is not None:
            with contextlib.suppress(OSError):
                self.popen.stdin.close()

    def wait(self, timeout_s: float) -> bool:
        """Whether it ended within `timeout_s` (this blocks: start-up and quitting only)."""
        try:
            self.popen.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return False
        return True

    def _pump(self, stream: IO[bytes] | None, signal: SignalInstance) -> None:
        if stream is None:
            return
        with stream:
            while data := _read(stream.fileno()):
                if not _emit(signal, data):
                    return

    def _wait(self, readers: list[threading.Thread]) -> None:
        code = self.popen.wait()
        for reader in readers:
            reader.join(READ_AFTER_END_S)
        self.close_input()
        _emit(self.ended, code)


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def _emit(signal: SignalInstance, value: object) -> bool:
    """Hand `value` to the GUI thread; False once the receiver is gone (the app quit)."""
    try:
        signal.emit(value)
    except RuntimeError:  # its C++ object deleted
        return False
    return True
