"""The `"desktop"` section of `DIR/settings.json`: what the app shows outside its window.

    {"desktop": {"titleProgress": true, "badge": true, "launcherProgress": true,
                 "notifications": true, "attention": true}}

A missing key is on. Saving rewrites the file whole (a temporary file renamed over it),
keeping every other key as it was; a file that is not a JSON object is never rewritten."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from nib_desktop.state.types import DesktopPrefs

FILENAME = "settings.json"
SECTION = "desktop"
KEYS = {
    "titleProgress": "title_progress",
    "badge": "badge",
    "launcherProgress": "launcher_progress",
    "notifications": "notifications",
    "attention": "attention",
}


class PrefsError(Exception):
    """The settings file cannot be read or written; the message says why, in words."""


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise PrefsError(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PrefsError(f"{path} is not valid JSON (line {exc.lineno}): fix it first") from None
    except ValueError as exc:
        raise PrefsError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(loaded, dict):
        raise PrefsError(f"{path} must hold a JSON object")
    return loaded


def load(data_dir: Path) -> DesktopPrefs:
    """The preferences; the defaults where the file or a key is missing or unreadable
    (the Tools view and the host report a broken settings file)."""
    try:
        section = _read(data_dir / FILENAME).get(SECTION)
    except PrefsError:
        return DesktopPrefs()
    if not isinstance(section, dict):
        return DesktopPrefs()
    chosen = {
        attr: section[key] for key, attr in KEYS.items() if isinstance(section.get(key), bool)
    }
    return replace(DesktopPrefs(), **chosen)


def save(data_dir: Path, prefs: DesktopPrefs) -> None:
    path = data_dir / FILENAME
    settings = _read(path)
    held = settings.get(SECTION)
    section: dict[str, Any] = held if isinstance(held, dict) else {}
    names = {attr: key for key, attr in KEYS.items()}
    section = {**section, **{names[f.name]: getattr(prefs, f.name) for f in fields(prefs)}}
    settings[SECTION] = section
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=data_dir, prefix=".settings-", suffix=".json")
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
    except OSError as exc:
        raise PrefsError(f"{path} cannot be written: {exc.strerror or exc}") from None
