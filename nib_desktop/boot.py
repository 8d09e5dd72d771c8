"""The first steps of start-up, kept light: the application object, made before the
heavier modules (QML types, the protocol's models) are imported."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtQuickControls2 import QQuickStyle

from host.protocol.appinfo import APPLICATION, DESKTOP_ID, ORGANIZATION
from nib_desktop import paths


def create_app() -> QGuiApplication:
    existing = QGuiApplication.instance()
    if isinstance(existing, QGuiApplication):
        return existing
    QGuiApplication.setOrganizationName(ORGANIZATION)
    QGuiApplication.setApplicationName(APPLICATION)
    QGuiApplication.setDesktopFileName(DESKTOP_ID)
    QQuickStyle.setStyle("Fusion")
    app = QGuiApplication([])
    icon = QIcon()
    for png in sorted(paths.resource("icons").glob("nib-desktop-*.png")):
        icon.addFile(str(png))
    app.setWindowIcon(icon)
    return app
