"""The `"desktop"` section of `DIR/settings.json`: what the app shows outside its window.

    {"desktop": {"titleProgress": true, "badge": true, "launcherProgress": true,
                 "notifications": true, "attention": true,
                 "appearance": "system", "reducedMotion": false}}

A missing key has its default (on; the system's palette; motion). The Tools view's
Disable / Enable writes an MCP server's `"disabled"` here too (`set_server_disabled`).
Saving rewrites the file whole (a temporary file renamed over it), keeping every other key
as it was; a file that is not a JSON object is never rewritten."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from host.protocol.settings_file import SETTINGS_FILENAME, SettingsFileError, read_settings_file
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


class PrefsError(Exception):
    """The settings file cannot be read or written; the message says why, in words."""


def _read(data_dir: Path) -> dict[str, Any]:
    try:
        return read_settings_file(data_dir) or {}
    except SettingsFileError as exc:
        raise PrefsError(str(exc)) from None


def load(data_dir: Path) -> DesktopPrefs:
    """The preferences; the defaults where the file or a key is missing or unreadable
    (the Tools view and the host report a broken settings file)."""
    try:
        section = _read(data_dir).get(SECTION)
    except PrefsError:
        return DesktopPrefs()
    if not isinstance(section, dict):
        return DesktopPrefs()
    chosen: dict[str, Any] = {
        attr: section[key] for key, attr in KEYS.items() if isinstance(section.get(key), bool)
    }
    if section.get(APPEARANCE) in APPEARANCES:
        chosen["appearance"] = section[APPEARANCE]
    return DesktopPrefs()._replace(**chosen)


def save(data_dir: Path, prefs: DesktopPrefs) -> None:
    settings = _read(data_dir)
    held = settings.get(SECTION)
    section: dict[str, Any] = held if isinstance(held, dict) else {}
    names = {attr: key for key, attr in KEYS.items()} | {"appearance": APPEARANCE}
    section = {**section, **{names[name]: getattr(prefs, name) for name in prefs._fields}}
    settings[SECTION] = section
    _write(data_dir, settings)


def set_server_disabled(data_dir: Path, name: str, disabled: bool) -> None:
    """The MCP server `name` of settings.json disabled (or enabled again); the host reads
    the file again within a second and stops (or starts) it."""
    settings = _read(data_dir)
    servers = settings.get("mcpServers")
    entry = servers.get(name) if isinstance(servers, dict) else None
    if not isinstance(entry, dict):
        raise PrefsError(f"settings.json has no MCP server named {name!r} to change")
    if disabled:
        entry["disabled"] = True
    else:
        entry.pop("disabled", None)
    _write(data_dir, settings)


def _write(data_dir: Path, settings: dict[str, Any]) -> None:
    path = data_dir / SETTINGS_FILENAME
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        replace_file(path, text)
    except OSError as exc:
        raise PrefsError(f"{path} cannot be written: {exc.strerror or exc}") from None


def replace_file(path: Path, text: str) -> None:
    """`path` holds `text`, whole or not at all: a temporary file beside it, synced and
    readable by its owner alone, renamed over it. OSError when it cannot be."""
    import tempfile  # when a file is written: the first frame does not wait for it

    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
