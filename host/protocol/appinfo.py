"""Who the app is, for both processes: the names Qt derives folders and settings from,
the default data folder, the version, and the environment variable that carries the host's
token. Kept free of heavy imports: the GUI reads it before its first frame."""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

ORGANIZATION = "Nib"
APPLICATION = "Nib Desktop"
DESKTOP_ID = "nib-desktop"
# The shared secret reaches the host only through this environment variable (contract 1).
TOKEN_ENV = "NIB_HOST_TOKEN"


@cache
def app_version() -> str:
    """The version from the package metadata (one place), read on first use."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nib-desktop")
    except PackageNotFoundError:
        return "0.0.0+source"


def default_data_dir() -> Path:
    """The platform's per-user application data folder (what Qt calls AppDataLocation)."""
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", str(Path.home())))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / ORGANIZATION / APPLICATION
