"""The window's own settings in settings.json's "desktop" section, and the MCP servers'
switches: kept in the file first and shown once kept (a failure is the notice), and
followed when the file is edited by hand or by another window."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.protocol.settings_file import SETTINGS_FILENAME, settings_signature
from nib_desktop import desktop_prefs
from nib_desktop.motion import still_motion
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer


class SettingsWork:
    def __init__(self, state: AppState, data_dir: Path | None) -> None:
        self._state = state
        self._data_dir = data_dir
        self._follow: QTimer | None = None  # settings.json watched (follow)

    def disable_server(self, name: str, disabled: bool) -> None:
        """Kept in settings.json; the host reads it again and tells the new state."""
        if self._data_dir is None:
            return
        try:
            desktop_prefs.set_server_disabled(self._data_dir, name, disabled)
        except desktop_prefs.PrefsError as exc:
            verb = "disable" if disabled else "enable"
            self._tell(f"Could not {verb} the MCP server {name}: {exc}")

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

    def follow(self) -> None:
        """settings.json edited by hand (or by another window): its "desktop" section read
        again within a second, as the host reads its servers and agents again."""
        if self._data_dir is None or self._follow is not None:
            return
        from PySide6.QtCore import QTimer

        data_dir = self._data_dir
        seen = settings_signature(data_dir)

        def check() -> None:
            nonlocal seen
            now = settings_signature(data_dir)
            if now == seen:
                return
            seen = now
            prefs = desktop_prefs.load(data_dir)
            if prefs != self._state.desktop:
                self._state.apply(ev.DesktopPrefsSet(prefs))
                self._state.apply(ev.ReducedMotionSet(still_motion(prefs.reduced_motion)))

        self._follow = QTimer()
        self._follow.setInterval(1000)
        self._follow.timeout.connect(check)
        self._follow.start()

    def stop(self) -> None:
        if self._follow is not None:
            self._follow.stop()
            self._follow = None

    def set_desktop_pref(self, name: str, on: bool | str) -> None:
        """Kept in settings.json first; shown only once kept (a failure is the notice)."""
        if self._data_dir is None:
            return
        changed: dict[str, Any] = {name: on}
        prefs = self._state.desktop._replace(**changed)
        try:
            desktop_prefs.save(self._data_dir, prefs)
        except desktop_prefs.PrefsError as exc:
            self._state.apply(ev.NoticeShown(f"Could not change the setting: {exc}"))
            return
        self._state.apply(ev.DesktopPrefsSet(prefs))
        if name == "reduced_motion":
            self._state.apply(ev.ReducedMotionSet(still_motion(bool(on))))

    def _tell(self, text: str) -> None:
        self._state.apply(ev.NoticeShown(text))
