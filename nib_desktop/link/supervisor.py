"""Supervising the host process (`launch` starts it, `child` reads it).

The ready line is awaited with a bound and validated with the contract's model (after
the window's first frame: the line is only kept until then); the host's stderr is
forwarded to the app's log and its last lines are kept for the error shown when it
fails.
"""

from __future__ import annotations

import collections
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from nib_desktop.link.child import HostChild
from nib_desktop.link.launch import Launch, host_command

if TYPE_CHECKING:
    import asyncio

    from host.protocol.plain_models import ReadyLine

__all__ = ["HostStartError", "HostSupervisor", "host_command"]

log = logging.getLogger("nib.host")

READY_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 3.0


class HostStartError(Exception):
    def __init__(self, reason: str, stderr_tail: list[str]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stderr_tail = stderr_tail


class HostSupervisor(QObject):
    exited = Signal(int)  # the host's exit code, for a host that was ready

    def __init__(
        self, data_dir: Path, parent: QObject | None = None, launch: Launch | None = None
    ) -> None:
        """`launch`: the app's, whose host may have been started already (`begin`)."""
        super().__init__(parent)
        self.data_dir = data_dir
        self._launch = launch if launch is not None else Launch()
        self.token = self._launch.token
        self.socket_path = self._launch.socket_path
        self._child: HostChild | None = None
        self._stdout = b""
        self._stderr = b""  # a line not yet ended
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=30)
        self._ready: asyncio.Future[bytes] | None = None
        self._outcome: bytes | HostStartError | None = None
        self._spawned = False
        self._stopping = False
        self.ready_timeout = READY_TIMEOUT_S
        self.command = host_command()

    @property
    def pid(self) -> int:
        return self._child.pid if self._child is not None else 0

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
        """Start the host process now (or take over the one the app started before Qt
        was imported); `start` then waits for it. Called as early as possible, so that
        the host boots while the window loads."""
        if self._child is not None:
            self.kill()  # (which marks it as stopping: the new one is not)
        self._stopping = False
        self._outcome = None
        self._child = None
        self._stdout = self._stderr = b""
        # a failure is told with this process's own last lines (an earlier one's are in
        # the log): after two attempts that failed alike, each line was said twice
        self._stderr_tail.clear()
        self._spawned = True
        try:
            popen = self._launch.take_early() or self._launch.start(self.command, self.data_dir)
        except OSError as exc:
            self._settle(HostStartError(f"cannot start the host: {exc.strerror or exc}", []))
            return
        child = HostChild(popen, self)
        # what an earlier process tells after it was replaced is not this one's
        child.output.connect(lambda data: self._read_stdout(child, data))
        child.errors.connect(lambda data: self._read_stderr(child, data))
        child.ended.connect(lambda code: self._finished(child, code))
        self._child = child
        child.read()

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
        child = self._child
        if child is not None and child.running:
            self._stopping = True
            child.kill()
            child.wait(STOP_TIMEOUT_S)

    async def end(self) -> None:
        """Kill the host and wait until it is gone (at most STOP_TIMEOUT_S), without
        blocking the event loop: the window keeps drawing through a restart."""
        child = self._child
        if child is None or not child.running:
            return
        self._stopping = True
        import asyncio

        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def ended(_code: int) -> None:
            if not gone.done():
                gone.set_result(None)

        child.ended.connect(ended)
        child.kill()
        try:
            await asyncio.wait_for(gone, STOP_TIMEOUT_S)
        except TimeoutError:
            log.warning("the host did not end within %g s of being killed", STOP_TIMEOUT_S)
        finally:
            child.ended.disconnect(ended)

    def stop(self) -> None:
        """After host.shutdown (or without it): a bounded wait, then terminate, then kill."""
        child = self._child
        if child is None:
            return
        self._stopping = True
        if child.running:
            child.close_input()
            if not child.wait(STOP_TIMEOUT_S):
                child.terminate()
                if not child.wait(STOP_TIMEOUT_S):
                    child.kill()
                    child.wait(STOP_TIMEOUT_S)
        self._child = None

    def cleanup(self) -> None:
        """Stop the host and remove the private socket folder."""
        self.stop()
        self._launch.folder.cleanup()

    def _read_stdout(self, child: HostChild, data: bytes) -> None:
        if child is not self._child:
            return
        self._stdout += data
        if self._outcome is not None or b"\n" not in self._stdout:
            return
        self._settle(self._stdout.split(b"\n", 1)[0])

    def _read_stderr(self, child: HostChild, data: bytes) -> None:
        if child is not self._child:
            return
        *lines, self._stderr = (self._stderr + data).split(b"\n")
        for line in lines:
            self._said(line)

    def _said(self, line: bytes) -> None:
        text = line.decode(errors="replace").rstrip()
        if text.strip():
            self._stderr_tail.append(text)
            log.info("%s", text)

    def _finished(self, child: HostChild, code: int) -> None:
        if child is not self._child:
            return
        if self._stderr:  # its last line, unended
            self._said(self._stderr)
            self._stderr = b""
        if self._outcome is None and (self._spawned or self._ready is not None):
            how = f"with code {code}" if code >= 0 else f"by signal {-code}"
            reason = f"the host exited {how} before it was ready"
            self._settle(HostStartError(reason, self.stderr_tail))
            return
        if not self._stopping:
            log.warning("the host exited unexpectedly (code %d)", code)
            self.exited.emit(code)
