"""`DIR/settings.json` in the host, its only writer.

Read again when it changes, without a restart: one `stat` a second (no thread, no inotify),
and on a change the MCP servers and ACP agents are loaded again and told (`tools.changed`,
`agents.changed`), and the "desktop" section, if it changed, too (`settings.changed`). The
model's settings are read at each turn anyway.

Written by `settings.set` (the project's: the window's switches and an MCP server's
Disable): the file read, the one change made, and written whole (a temporary file renamed
over it) off the loop, every other key kept as it was; a file that is not a JSON object is
never rewritten. A change is told as soon as it is written, not a poll later.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.protocol.settings_file import (
    SETTINGS_FILENAME,
    SettingsFileError,
    Signature,
    read_settings_file,
    replace_file,
    settings_signature,
)

log = logging.getLogger(__name__)
WRITE_ATTEMPTS = 3  # reads and writes of a change while another program changes the file

POLL_S = 1.0
DESKTOP = "desktop"


def desktop_of(settings: dict[str, Any] | None) -> m.DesktopSettings:
    """The "desktop" section as the window uses it: a key missing or of the wrong type
    has its default."""
    section = (settings or {}).get(DESKTOP)
    if not isinstance(section, dict):
        return m.DesktopSettings()
    chosen: dict[str, Any] = {}
    for name, field in m.DesktopSettings.model_fields.items():
        value = section.get(field.alias or name)
        if (isinstance(value, bool) and isinstance(field.default, bool)) or (
            name == "appearance" and value in ("system", "light", "dark")
        ):
            chosen[name] = value
    return m.DesktopSettings.model_validate(chosen)


class Settings:
    def __init__(
        self, data_dir: Path, publisher: Publisher, on_change: Callable[[], Awaitable[None]]
    ) -> None:
        self.data_dir = data_dir
        self.path = data_dir / SETTINGS_FILENAME
        self._publisher = publisher
        self._on_change = on_change
        self._seen = settings_signature(data_dir)
        self._told = self.get(m.Empty()).desktop
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def get(self, _params: m.Empty) -> m.SettingsView:
        try:
            return m.SettingsView(desktop=desktop_of(read_settings_file(self.data_dir)))
        except SettingsFileError:  # the Tools view and the host report a broken file
            return m.SettingsView(desktop=m.DesktopSettings())

    async def set(self, params: m.SettingsSetParams) -> m.SettingsView:
        async with self._lock:  # one change at a time: none is lost between read and write
            for _attempt in range(WRITE_ATTEMPTS):
                read = settings_signature(self.data_dir)
                before = self._bytes()
                try:
                    settings = read_settings_file(self.data_dir) or {}
                except SettingsFileError as exc:
                    raise errors.SettingsUnusable(f"{exc}; it was not changed") from None
                if self._bytes() != before:
                    continue  # saved while it was read: read it again
                if params.desktop is not None:
                    held = settings.get(DESKTOP)
                    section: dict[str, Any] = held if isinstance(held, dict) else {}
                    section.update(params.desktop.model_dump(by_alias=True, exclude_none=True))
                    settings[DESKTOP] = section
                elif params.server is not None:
                    _switch(settings, params.server)
                text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
                try:
                    if await asyncio.to_thread(self._write, text, read, before):
                        break
                except OSError as exc:
                    raise errors.SettingsUnusable(
                        f"{self.path} cannot be written: {exc.strerror or exc}"
                    ) from None
            else:
                raise errors.SettingsUnusable(
                    f"{self.path} kept changing while it was being written (another program"
                    " is writing it); it was not changed: try again"
                )
            self._seen = settings_signature(self.data_dir)
        view = self.get(m.Empty())
        self._tell(view.desktop)
        if params.server is not None:
            await self._reload()
        return view

    def _bytes(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except OSError:
            return None

    def _write(self, text: str, read: Signature, content: bytes | None) -> bool:
        """`text` written over the file, unless it changed since it was read as `read`
        and `content` (False: read it again), readable by its owner alone. Its bytes are
        compared, not only its time and size: two saves within the file system's clock
        tick, of one size, look the same to `stat`. A link is written through to its
        target, whose mode (the user's choice) is kept; the link stays a link."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if settings_signature(self.data_dir) != read or self._bytes() != content:
            return False  # an editor saved it meanwhile: that change is not overwritten
        if not self.path.is_symlink():
            replace_file(self.path, text, keep_mode=False)  # its owner's alone (keys)
            return True
        target = self.path.resolve()
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = 0o600
        replace_file(target, text, mode)
        return True

    def _tell(self, desktop: m.DesktopSettings) -> None:
        if desktop != self._told:
            self._told = desktop
            self._publisher.publish(rpc.SETTINGS_CHANGED, m.SettingsView(desktop=desktop))

    # --- following the file ---------------------------------------------------------------

    def watch(self) -> None:
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
            self._tell(self.get(m.Empty()).desktop)
            await self._reload()

    async def _reload(self) -> None:
        try:
            await self._on_change()
        except Exception:  # a bad file is reported by what reads it; the watch goes on
            log.exception("reading %s again failed", self.path)


def _switch(settings: dict[str, Any], server: m.ServerSwitch) -> None:
    servers = settings.get("mcpServers")
    entry = servers.get(server.name) if isinstance(servers, dict) else None
    if not isinstance(entry, dict):
        raise errors.InvalidParams(f"settings.json has no MCP server named {server.name!r}")
    if server.disabled:
        entry["disabled"] = True
    else:
        entry.pop("disabled", None)
