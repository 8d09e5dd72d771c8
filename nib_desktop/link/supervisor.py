"""Spawning and supervising the host process.

From source the host is `python -m host`; frozen, the same executable with `--host`.
A fresh random token goes through the environment, the socket lives in a private
folder, and the host's stdin stays open so that it exits with the app. The ready line is
awaited with a bound and validated with the contract's model (after the window's first
frame: the line is only kept until then); the host's stderr is forwarded to the app's log
and its last lines are kept for the error shown when it fails.
"""

from __future__ import annotations

import base64
import collections
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

from host.protocol.appinfo import TOKEN_ENV

if TYPE_CHECKING:
    import asyncio

    from host.protocol.plain_models import ReadyLine

log = logging.getLogger("nib.host")

READY_TIMEOUT_S = 15.0
STOP_TIMEOUT_MS = 3000


class HostStartError(Exception):
    def __init__(self, reason: str, stderr_tail: list[str]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stderr_tail = stderr_tail


def host_command() -> tuple[str, list[str]]:
    if getattr(sys, "frozen", False):
        return sys.executable, ["--host"]
    return sys.executable, ["-m", "host"]


class HostSupervisor(QObject):
    exited = Signal(int)  # the host's exit code, for a host that was ready

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data_dir = data_dir
        # 32 random bytes, as secrets.token_urlsafe(32) (whose hmac import loads OpenSSL)
        self.token = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
        self._folder = tempfile.TemporaryDirectory(prefix="nib-")
        os.chmod(self._folder.name, 0o700)
        self.socket_path = str(Path(self._folder.name) / "host.sock")
        self._process: QProcess | None = None
        self._stdout = b""
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=30)
        self._ready: asyncio.Future[bytes] | None = None
        self._outcome: bytes | HostStartError | None = None
        self._spawned = False
        self._stopping = False
        self.ready_timeout = READY_TIMEOUT_S
        self.command = host_command()

    @property
    def pid(self) -> int:
        return int(self._process.processId()) if self._process is not None else 0

    @property
    def stderr_tail(self) -> list[str]:
        return list(self._stderr_tail)

    async def start(self) -> ReadyLine:
        """Spawn the host (unless `spawn` already did) and wait, at most
        `ready_timeout`, for its ready line; HostStartError otherwise."""
        import json

        from host.protocol.plain_models import ReadyLine

        if not self._spawned:
            self.spawn()
        self._spawned = False
        import asyncio

        ready: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._ready = ready
        if self._outcome is not None:
            self._settle(self._outcome)
        try:
            line = await asyncio.wait_for(asyncio.shield(ready), self.ready_timeout)
        except TimeoutError:
            ready.cancel()
            self._ready = None
            await self.end()
            raise HostStartError(
                f"the host did not become ready within {self.ready_timeout:g} s", self.stderr_tail
            ) from None
        finally:
            self._ready, self._outcome = None, None
            if not ready.done():
                ready.cancel()
        try:
            return ReadyLine.from_wire(json.loads(line))
        except ValueError:  # not JSON, or not the ready line (DecodeError)
            await self.end()
            raise HostStartError(
                f"the host printed an unexpected line: {line[:200]!r}", self.stderr_tail
            ) from None

    def spawn(self) -> None:
        """Start the host process now; `start` then waits for it. Called as early as
        possible, so that the host boots while the window loads."""
        self._stopping = False
        self._outcome = None
        if self._process is not None:
            self.kill()
            self._process.deleteLater()
        process = QProcess(self)
        env = QProcessEnvironment.systemEnvironment()
        env.insert(TOKEN_ENV, self.token)
        env.insert("PYTHONUNBUFFERED", "1")
        process.setProcessEnvironment(env)
        program, args = self.command[0], list(self.command[1])
        args += ["--socket", self.socket_path, "--data-dir", str(self.data_dir)]
        process.setProgram(program)
        process.setArguments(args)
        process.readyReadStandardOutput.connect(self._read_stdout)
        process.readyReadStandardError.connect(self._read_stderr)
        process.finished.connect(self._finished)
        process.errorOccurred.connect(self._error)
        self._process = process
        self._stdout = b""
        self._spawned = True
        process.start()  # stdin stays open: the host exits when we do

    def _settle(self, outcome: bytes | HostStartError) -> None:
        """Record how the start went; hand it to a waiting `start` if there is one."""
        if self._outcome is None:
            self._outcome = outcome
        ready = self._ready
        if ready is None or ready.done():
            return
        if isinstance(outcome, HostStartError):
            ready.set_exception(outcome)
        else:
            ready.set_result(outcome)

    def kill(self) -> None:
        """Kill the host and wait (bounded) until it is gone: for start-up and quitting,
        never while the window runs (`end` is the one that does not block)."""
        if self._process is not None and self._process.state() != QProcess.ProcessState.NotRunning:
            self._stopping = True
            self._process.kill()
            self._process.waitForFinished(STOP_TIMEOUT_MS)

    async def end(self) -> None:
        """Kill the host and wait until it is gone (at most STOP_TIMEOUT_MS), without
        blocking the event loop: the window keeps drawing through a restart."""
        process = self._process
        if process is None or process.state() == QProcess.ProcessState.NotRunning:
            return
        self._stopping = True
        import asyncio

        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def finished(_code: int, _status: QProcess.ExitStatus) -> None:
            if not gone.done():
                gone.set_result(None)

        process.finished.connect(finished)
        process.kill()
        try:
            await asyncio.wait_for(gone, STOP_TIMEOUT_MS / 1000)
        except TimeoutError:
            log.warning("the host did not end within %d ms of being killed", STOP_TIMEOUT_MS)
        finally:
            process.finished.disconnect(finished)

    def stop(self) -> None:
        """After host.shutdown (or without it): a bounded wait, then terminate, then kill."""
        process = self._process
        if process is None:
            return
        self._stopping = True
        if process.state() != QProcess.ProcessState.NotRunning:
            process.closeWriteChannel()
            if not process.waitForFinished(STOP_TIMEOUT_MS):
                process.terminate()
                if not process.waitForFinished(STOP_TIMEOUT_MS):
                    process.kill()
                    process.waitForFinished(STOP_TIMEOUT_MS)
        self._process = None

    def cleanup(self) -> None:
        """Stop the host and remove the private socket folder."""
        self.stop()
        self._folder.cleanup()

    def _read_stdout(self) -> None:
        if self._process is None:
            return
        self._stdout += bytes(self._process.readAllStandardOutput().data())
        if self._outcome is not None or b"\n" not in self._stdout:
            return
        self._settle(self._stdout.split(b"\n", 1)[0])

    def _read_stderr(self) -> None:
        if self._process is None:
            return
        text = bytes(self._process.readAllStandardError().data()).decode(errors="replace")
        for line in text.splitlines():
            if line.strip():
                self._stderr_tail.append(line)
                log.info("%s", line)

    def _finished(self, code: int, _status: QProcess.ExitStatus) -> None:
        self._read_stderr()
        if self._outcome is None and (self._spawned or self._ready is not None):
            reason = f"the host exited with code {code} before it was ready"
            self._settle(HostStartError(reason, self.stderr_tail))
            return
        if not self._stopping:
            log.warning("the host exited unexpectedly (code %d)", code)
            self.exited.emit(code)

    def _error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._outcome is None:
            reason = self._process.errorString() if self._process else "unknown"
            self._settle(HostStartError(f"cannot start the host: {reason}", []))
