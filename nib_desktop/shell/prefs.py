"""What the window keeps between runs in QSettings: its geometry (per data folder) and the
dock's expanded state. (Still motion is settings.json's `desktop.reducedMotion`, or
NIB_REDUCED_MOTION=1.)"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtQuick import QQuickWindow

from nib_desktop.state.motion import still_motion
from nib_desktop.state.store import AppState


def restore_prefs(state: AppState) -> None:
    """The dock's expanded state from QSettings, and still motion if the environment asks
    (NIB_REDUCED_MOTION=1). Set on the new state before any view watches it (no event:
    the events module loads after the first frame)."""
    settings = QSettings()
    state.dock_expanded = bool(settings.value("dock/expanded", False, type=bool))
    state.reduced_motion = still_motion(False)


def geometry_key(data_dir: Path | None) -> str:
    """The QSettings key of the window's geometry for a data folder: each folder's window
    opens where that folder's window last closed."""
    if data_dir is None:
        return "window/geometry"
    folder = _sha256(str(data_dir.resolve()).encode())[:16]
    return f"window/{folder}/geometry"


def saved_geometry(data_dir: Path | None = None) -> tuple[int, int, int, int] | None:
    """The window's geometry (x, y, width, height) when it last closed on this data
    folder, if any: given to the window as it is made, so it opens where it was instead of
    moving there later."""
    geometry = QSettings().value(geometry_key(data_dir))
    if isinstance(geometry, list) and len(geometry) == 4:
        with contextlib.suppress(TypeError, ValueError):
            x, y, w, h = (int(v) for v in geometry)
            return x, y, w, h
    return None


def state_saver(
    window: QQuickWindow, state: AppState, data_dir: Path | None = None
) -> Callable[[], None]:
    """The function that keeps the window's geometry (for its data folder) and the dock's
    expanded state in QSettings (run as the app quits)."""

    def save() -> None:
        settings = QSettings()
        g = window.geometry()
        settings.setValue(geometry_key(data_dir), [g.x(), g.y(), g.width(), g.height()])
        settings.setValue("dock/expanded", state.dock_expanded)
        settings.sync()

    return save


def _sha256(data: bytes) -> str:
    """The hex SHA-256 of `data`, from Python's own module: `hashlib` imports every
    digest it offers (1 ms of the first frame) for this one."""
    import importlib

    try:
        own = importlib.import_module("_sha256")  # Python 3.11
    except ImportError:
        own = importlib.import_module("hashlib")
    return str(own.sha256(data).hexdigest())
