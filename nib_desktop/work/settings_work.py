"""The window's own settings in settings.json's "desktop" section, and the MCP servers'
switches: written by the host (`settings.set`, the file's only writer) and shown once
kept (a failure is the notice); the file edited by hand or by another window is told by
the host (`settings.changed`), whose watcher follows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host.protocol import plain_methods as rpc, plain_models as m
from host.protocol.settings_file import SETTINGS_FILENAME
from nib_desktop.inbound.settings_shown import show_settings
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState


class SettingsWork:
    def __init__(self, host: HostLink, state: AppState, run: Runner, data_dir: Path | None) -> None:
        self._host = host
        self._state = state
        self._run = run
        self._data_dir = data_dir

    def disable_server(self, name: str, disabled: bool) -> None:
        """Kept in settings.json; the host loads its servers again and tells the new state."""
        verb = "disable" if disabled else "enable"
        switch = m.ServerSwitch(name=name, disabled=disabled)
        change = self._host.call(rpc.SETTINGS_SET, m.SettingsSetParams(server=switch))
        self._run(change, f"{verb} the MCP server {name}")

    def set_desktop_pref(self, name: str, on: bool | str) -> None:
        """Kept in settings.json first; shown only once kept (a failure is the notice)."""
        self._run(self._set_desktop(name, on), "change the setting")

    async def _set_desktop(self, name: str, on: bool | str) -> None:
        changed: dict[str, Any] = {name: on}  # a field's name, as DesktopPrefs names it
        params = m.SettingsSetParams(desktop=m.DesktopChange(**changed))
        show_settings(self._state, await self._host.call(rpc.SETTINGS_SET, params))

    def open_settings(self) -> None:
        """settings.json in the application the desktop opens JSON files with."""
        if self._data_dir is None:
            return
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        path = self._data_dir / SETTINGS_FILENAME
        try:
            if not path.exists():
                self._data_dir.mkdir(parents=True, exist_ok=True)
                path.write_text("{}\n", encoding="utf-8")
        except OSError as exc:
            self._tell(f"Could not make {path}: {exc.strerror or exc}")
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            self._tell(f"No application here opens {path}; edit it with any text editor.")

    def _tell(self, text: str) -> None:
        self._state.apply(ev.NoticeShown(text))
