"""Window geometry, the dock's expanded state and reduced motion persist in QSettings."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QSettings
from PySide6.QtQml import QQmlApplicationEngine

from nib_desktop.controller import MainController
from nib_desktop.window import load_window, restore_state


def open_window() -> tuple:
    controller = MainController()
    engine = QQmlApplicationEngine()
    window = load_window(engine, controller)
    return controller, engine, window


def close(engine, window) -> None:
    window.close()
    shiboken6.delete(engine)


def test_geometry_expanded_and_reduced_motion_persist(qapp, tmp_path) -> None:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    try:
        controller, engine, window = open_window()
        save = restore_state(window, controller)
        assert controller.dock_model.property("expanded") is False
        window.setGeometry(40, 50, 900, 640)
        controller.dock_model.setProperty("expanded", True)
        save()
        close(engine, window)
        QSettings().setValue("ui/reducedMotion", True)

        controller, engine, window = open_window()
        restore_state(window, controller)
        assert (window.width(), window.height()) == (900, 640)
        assert controller.dock_model.property("expanded") is True
        assert controller.dock_model.property("reducedMotion") is True
        close(engine, window)
    finally:
        QSettings.setDefaultFormat(QSettings.Format.NativeFormat)
