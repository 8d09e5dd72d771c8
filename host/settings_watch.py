"""`DIR/settings.json` read again when it changes, without a restart: one `stat` a second
(no thread, no inotify), and on a change the MCP servers and ACP agents are loaded again
and told (`tools.changed`, `agents.changed`). The model's settings are read at each turn
anyway."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from host.protocol.settings_file import SETTINGS_FILENAME, settings_signature

log = logging.getLogger(__name__)

POLL_S = 1.0


class SettingsWatcher:
    def __init__(self, data_dir: Path, on_change: Callable[[], Awaitable[None]]) -> None:
        self.data_dir = data_dir
        self.path = data_dir / SETTINGS_FILENAME
        self._on_change = on_change
        self._seen = settings_signature(data_dir)
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
            now = settings_signature(self.data_dir)
            if now == self._seen:
                continue
            self._seen = now
            log.info("%s changed: reading it again", self.path)
            try:
                await self._on_change()
            except Exception:  # a bad file is reported by what reads it; the watch goes on
                log.exception("reading %s again failed", self.path)
