"""The `"desktop"` section of `DIR/settings.json`: what the app shows outside its window.

    {"desktop": {"titleProgress": true, "badge": true, "launcherProgress": true,
                 "notifications": true, "attention": true,
                 "appearance": "system", "reducedMotion": false}}

A missing key has its default (on; the system's palette; motion). Read here once, for the
window's first frame, before the host is up; written only by the host (`settings.set`),
which tells every change (`settings.changed`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host.protocol.settings_file import SettingsFileError, read_settings_file
from nib_desktop.state.types import APPEARANCES, DesktopPrefs

SECTION = "desktop"
KEYS = {
    "titleProgress": "title_progress",
    "badge": "badge",
    "launcherProgress": "launcher_progress",
    "notifications": "notifications",
    "attention": "attention",
    "reducedMotion": "reduced_motion",
}
APPEARANCE = "appearance"  # "system", "light" or "dark"


def load(data_dir: Path) -> DesktopPrefs:
    """The preferences; the defaults where the file or a key is missing or unreadable
    (the Tools view and the host report a broken settings file)."""
    try:
        section = (read_settings_file(data_dir) or {}).get(SECTION)
    except SettingsFileError:
        return DesktopPrefs()
    if not isinstance(section, dict):
        return DesktopPrefs()
    chosen: dict[str, Any] = {
        attr: section[key] for key, attr in KEYS.items() if isinstance(section.get(key), bool)
    }
    if section.get(APPEARANCE) in APPEARANCES:
        chosen["appearance"] = section[APPEARANCE]
    return DesktopPrefs()._replace(**chosen)
