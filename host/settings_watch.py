"""`DIR/settings.json` read again when it changes, without a restart: one `stat` a second
(no thread, no inotify), and on a change the MCP servers and ACP agents are loaded again
and told (`tools.changed`, `agents.changed`). The model's settings are read at each turn
anyway."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from host.protocol.settings_file import SETTINGS_FILENAME

log = logging.getLogger(__name__)

POLL_S = 1.0

Signature = tuple[int, int, int] | None  # mtime (ns), size, inode; None: no file


def signature(path: Path) -> Signature:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


class SettingsWatcher:
    def __init__(self, data_dir: Path, on_change: Callable[[], Awaitable[None]]) -> None:
        self.path = data_dir / SETTINGS_FILENAME
        self._on_change = on_change
        self._seen = signature(self.path)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(POLL_S)
            now = signature(self.path)
            if now == self._seen:
                continue
            self._seen = now
            log.info("%s changed: reading it again", self.path)
            try:
                await self._on_change()
            except Exception:  # a bad file is reported by what reads it; the watch goes on
                log.exception("reading %s again failed", self.path)
