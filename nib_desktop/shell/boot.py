"""The first steps of start-up, kept light: the application object, made before the
heavier modules (QML types, the protocol's models) are imported."""

from __future__ import annotations

import os

from PySide6.QtGui import QGuiApplication

from host.protocol.appinfo import APPLICATION, DESKTOP_ID, ORGANIZATION
from nib_desktop.shell import paths


def create_app() -> QGuiApplication:
    existing = QGuiApplication.instance()
    if isinstance(existing, QGuiApplication):
        return existing
    # The sweep is painted by Python (a QQuickPaintedItem). Qt's threaded render loop
    # would call that paint from its render thread while the GUI thread waits for it,
    # and Python code holding the interpreter lock then could never let it finish. The
    # basic loop paints on the GUI thread; the app draws little, so it loses nothing.
    os.environ.setdefault("QSG_RENDER_LOOP", "basic")
    QGuiApplication.setOrganizationName(ORGANIZATION)
    QGuiApplication.setApplicationName(APPLICATION)
    QGuiApplication.setDesktopFileName(DESKTOP_ID)
    # the style by its environment variable: the QtQuickControls2 module is not imported
    os.environ["QT_QUICK_CONTROLS_STYLE"] = "Fusion"
    # its first argument names the window's WM_CLASS instance on X11: the desktop entry's
    # StartupWMClass, so a dock matches the window to its launcher
    return QGuiApplication([DESKTOP_ID])


def set_window_icon(app: QGuiApplication) -> None:
    """The app's icon in every size it has; set once the sessions are shown (the PNGs
    are read then), and Qt gives it to the window already shown."""
    import logging

    from PySide6.QtGui import QIcon

    icon = QIcon()
    sizes = sorted(paths.resource("icons").glob("nib-desktop-*.png"))
    for png in sizes:
        icon.addFile(str(png))
    app.setWindowIcon(icon)
    logging.getLogger("nib").debug("the window's icon set, in %d sizes", len(sizes))
