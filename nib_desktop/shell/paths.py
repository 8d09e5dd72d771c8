"""Where the app's files are, from source and frozen alike: the one helper every path
goes through."""

from __future__ import annotations

import sys
from pathlib import Path


def bundle_root() -> Path:
    """The folder that holds `ui/` and `resources/`: the repository from source, the
    bundle's data folder when frozen."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parents[2]


def qml_dir() -> Path:
    return bundle_root() / "ui" / "qml"


def resource(name: str) -> Path:
    return bundle_root() / "resources" / name
