"""Window geometry, the dock's expanded state and reduced motion persist in QSettings."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtQml import QQmlEngine

from nib_desktop.shell.main_qml import close_window, load_window
from nib_desktop.shell.prefs import restore_prefs, saved_geometry, state_saver
from nib_desktop.shell.window import Asker, make_views
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState


def open_window(data_dir=None) -> tuple:
    state = AppState()
    restore_prefs(state)
    views = make_views(state, Asker())
    engine = QQmlEngine()
    window = load_window(engine, views, saved_geometry(data_dir))
    return state, views, engine, window


def close(engine, window) -> None:
    close_window(window, engine)


def test_geometry_expanded_persist_and_the_environment_stills_motion(
    qapp, tmp_path, monkeypatch
) -> None:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    try:
        state, views, engine, window = open_window()
        save = state_saver(window, state)
        assert views.dock_view.property("expanded") is False
        assert (window.width(), window.height()) == (1100, 760)  # nothing saved yet
        window.setGeometry(40, 50, 900, 640)
        state.apply(ev.DockExpanded(True))
        save()
        close(engine, window)
        monkeypatch.setenv("NIB_REDUCED_MOTION", "1")  # the setting is settings.json's

        # made where it was: it opens there, and never moves there after it is shown
        state, views, engine, window = open_window()
        assert (window.x(), window.y(), window.width(), window.height()) == (40, 50, 900, 640)
        assert views.dock_view.property("expanded") is True
        assert views.dock_view.property("reducedMotion") is True
        close(engine, window)
    finally:
        QSettings.setDefaultFormat(QSettings.Format.NativeFormat)


def test_each_data_folder_keeps_its_own_window_geometry(qapp, tmp_path) -> None:
    """Issue 35, point 5: a window on another data folder opens where that folder's last
    closed, not where the other one's did."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    first, second = tmp_path / "work", tmp_path / "home"
    try:
        for folder, place in ((first, (40, 50, 900, 640)), (second, (60, 70, 800, 600))):
            state, _views, engine, window = open_window(folder)
            window.setGeometry(*place)
            state_saver(window, state, folder)()
            close(engine, window)
        for folder, place in ((first, (40, 50, 900, 640)), (second, (60, 70, 800, 600))):
            _state, _views, engine, window = open_window(folder)
            assert (window.x(), window.y(), window.width(), window.height()) == place
            close(engine, window)
    finally:
        QSettings.setDefaultFormat(QSettings.Format.NativeFormat)
