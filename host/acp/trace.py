"""A record of one agent process's traffic, for finding why a turn waits: with
`NIB_ACP_TRACE` naming a folder, each agent process writes `<agent>-<pid>.log` there,
one line per message it was sent (`>`), sent us (`<`) or wrote on standard error (`!`),
each with the host's monotonic time and at most TRACE_LINE bytes of it. Off by default:
the traffic holds the user's words and files."""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path
from typing import BinaryIO

TRACE_ENV = "NIB_ACP_TRACE"
TRACE_LINE = 4096  # bytes of one message kept


class Trace:
    def __init__(self, file: BinaryIO) -> None:
        self._file = file

    @classmethod
    def open(cls, agent: str, pid: int) -> Trace | None:
        """The trace of a process just started, or None when tracing is off."""
        folder = os.environ.get(TRACE_ENV)
        if not folder:
            return None
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", agent)[:60] or "agent"
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
            return cls((Path(folder) / f"{safe}-{pid}.log").open("ab", buffering=0))
        except OSError:
            return None  # a trace never stops an agent

    def write(self, direction: str, line: bytes) -> None:
        head = line[:TRACE_LINE].rstrip(b"\n")
        more = b" ..." if len(line) > TRACE_LINE else b""
        stamp = f"{time.monotonic():.3f} {direction} ".encode()
        with contextlib.suppress(OSError, ValueError):  # closed meanwhile, or a full disk
            self._file.write(stamp + head + more + b"\n")

    def close(self) -> None:
        self._file.close()
