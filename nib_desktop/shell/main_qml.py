"""The main window's QML: made from its file on a plain engine, its first frame waited
for, brought forward, and ended before the views it binds to."""

from __future__ import annotations

import logging

import shiboken6
from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
from PySide6.QtQml import QQmlComponent, QQmlEngine
from PySide6.QtQuick import QQuickWindow

from nib_desktop.shell import paths
from ui.views.app_views import AppViews

log = logging.getLogger("nib")


def load_window(
    engine: QQmlEngine,
    views: AppViews,
    geometry: tuple[int, int, int, int] | None = None,
) -> QQuickWindow:
    """The main window, made at `geometry` (x, y, width, height) when given, else at its
    default size; Qt keeps it at least its minimum size. `close_window` ends both. A plain
    engine, not a QQmlApplicationEngine: that one's file selector looked for a platform's
    variant of every QML file and folder it loaded, about 5 % of the instructions of the
    window's whole start (the app has no such variants)."""
    initial: dict[str, object] = {"app": views}
    if geometry is not None:
        x, y, w, h = geometry
        initial |= {"x": x, "y": y, "width": w, "height": h}
    # the engine keeps the component: PySide counts the window as the component's own
    component = QQmlComponent(engine, str(paths.qml_dir() / "Main.qml"), engine)
    window = component.createWithInitialProperties(initial)
    if not isinstance(window, QQuickWindow):
        said = "; ".join(error.toString() for error in component.errors())
        raise RuntimeError(f"the main window's QML failed to load: {said or 'no window made'}")
    return window


def close_window(window: QQuickWindow, engine: QQmlEngine) -> None:
    """The window, then its engine, before the views they bind to go. The window is
    deleted by Qt (`deleteLater`), not through its Python wrapper, which PySide counts as
    the component's child: deleted that way, it was deleted again with the engine."""
    from PySide6.QtCore import QEvent  # (its Type enum is large: named only at the end)

    window.close()
    window.deleteLater()
    # its deferred deletions run now, while the engine and the views still exist
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    shiboken6.delete(engine)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def bring_forward(window: QQuickWindow) -> None:
    log.info("another launch on this data folder: the window comes forward")
    if window.visibility() == QQuickWindow.Visibility.Minimized:
        window.showNormal()
    window.show()
    window.raise_()
    window.requestActivate()


def wait_first_frame(window: QQuickWindow, timeout_ms: int = 3000) -> None:
    """Spin Qt's own loop until the window has drawn once (bounded)."""
    loop = QEventLoop()
    window.frameSwapped.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    window.update()
    loop.exec()
    window.frameSwapped.disconnect(loop.quit)
