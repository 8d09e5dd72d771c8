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
    """The version from the package metadata (one place), read on first use: from the
    METADATA of the first `nib_desktop-*.dist-info` (or PKG-INFO of an egg-info) on the
    path, where importlib.metadata finds it too (`installed.metadata_folders`); from
    importlib.metadata itself where the path holds more than folders."""
    from host.protocol.installed import metadata_folders

    for folder in metadata_folders() or ():
        name = os.path.basename(folder).lower()
        if name.startswith("nib_desktop-") and name.endswith(".dist-info"):
            told = _metadata_version(os.path.join(folder, "METADATA"))
        elif name.startswith("nib_desktop") and name.endswith(".egg-info"):
            told = _metadata_version(os.path.join(folder, "PKG-INFO"))
        else:
            continue
        if told:
            return told
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nib-desktop")
    except PackageNotFoundError:
        return "0.0.0+source"


def _metadata_version(path: str) -> str:
    """The `Version:` of a distribution's METADATA (its headers end at the first empty
    line); "" if it has none or cannot be read."""
    try:
        with open(path, encoding="utf-8") as metadata:
            for line in metadata:
                if not line.strip():
                    break
                if line.startswith("Version:"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return ""


def default_data_dir() -> Path:
    """The platform's per-user application data folder (what Qt calls AppDataLocation)."""
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", str(Path.home())))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / ORGANIZATION / APPLICATION
