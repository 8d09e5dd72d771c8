"""Who the app is, for both processes: the names Qt derives folders and settings from,
and the default data folder. Kept free of heavy imports: the GUI reads it before its
first frame."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ORGANIZATION = "Nib"
APPLICATION = "Nib Desktop"
DESKTOP_ID = "nib-desktop"


def default_data_dir() -> Path:
    """The platform's per-user application data folder (what Qt calls AppDataLocation)."""
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", str(Path.home())))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / ORGANIZATION / APPLICATION
