"""A record of one agent process's traffic, for finding why a turn waits: with
`NIB_ACP_TRACE` naming a folder, each agent process writes `<agent>-<pid>.log` there,
one line per message it was sent (`>`), sent us (`<`) or wrote on standard error (`!`),
each with the host's monotonic time and at most TRACE_LINE bytes of it. Bounded: past
TRACE_FILE bytes the file becomes `<agent>-<pid>.log.1` (the one before it dropped) and a
new one begins, so a trace holds at most twice that on disk. Off by default: the traffic
holds the user's words and files."""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path
from typing import BinaryIO

TRACE_ENV = "NIB_ACP_TRACE"
TRACE_LINE = 4096  # bytes of one message kept
TRACE_FILE = 8 * 1024 * 1024  # bytes of one trace file, before it is rotated


class Trace:
    def __init__(self, file: BinaryIO, path: Path | None = None) -> None:
        self._file = file
        self._path = path
        self._size = file.tell() if path is not None else 0

    @classmethod
    def open(cls, agent: str, pid: int) -> Trace | None:
        """The trace of a process just started, or None when tracing is off."""
        folder = os.environ.get(TRACE_ENV)
        if not folder:
            return None
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", agent)[:60] or "agent"
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
            path = Path(folder) / f"{safe}-{pid}.log"
            return cls(path.open("ab", buffering=0), path)
        except OSError:
            return None  # a trace never stops an agent

    def write(self, direction: str, line: bytes) -> None:
        head = line[:TRACE_LINE].rstrip(b"\n")
        more = b" ..." if len(line) > TRACE_LINE else b""
        stamp = f"{time.monotonic():.3f} {direction} ".encode()
        written = stamp + head + more + b"\n"
        with contextlib.suppress(OSError, ValueError):  # closed meanwhile, or a full disk
            if self._path is not None and self._size + len(written) > TRACE_FILE:
                self._file.close()
                os.replace(self._path, self._path.with_name(self._path.name + ".1"))
                self._file = self._path.open("ab", buffering=0)
                self._size = 0
            self._file.write(written)
            self._size += len(written)

    def close(self) -> None:
        self._file.close()
