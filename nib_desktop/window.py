"""The QML window and its event loop.

Start-up order: the host is already booting (see `nib_desktop.app`); the window loads and
draws its first frame; only then are qasync and the Main role (with the protocol's models)
imported and the connection made.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtQml import QQmlApplicationEngine
from PySide6.QtQuick import QQuickWindow

import ui.qml_types  # noqa: F401 - registers the view-model types under `import Nib`
from nib_desktop import paths
from nib_desktop.boot import create_app
from nib_desktop.controller import MainController
from nib_desktop.graphics import choose_scene_graph
from nib_desktop.supervisor import HostSupervisor

if TYPE_CHECKING:
    from nib_desktop.instance import SingleInstance
    from nib_desktop.main_role import MainRole

log = logging.getLogger("nib")

# A scripted run (smoke test, screenshot) gets the window and the started Main role.
Script = Callable[["MainRole", QQuickWindow], Awaitable[int]]


def load_window(engine: QQmlApplicationEngine, controller: MainController) -> QQuickWindow:
    engine.setInitialProperties({"controller": controller})
    engine.load(str(paths.qml_dir() / "Main.qml"))
    roots = engine.rootObjects()
    if not roots or not isinstance(roots[0], QQuickWindow):
        raise RuntimeError("the main window's QML failed to load")
    return roots[0]


def restore_state(window: QQuickWindow, controller: MainController) -> Callable[[], None]:
    """Window geometry and the dock's expanded state live in QSettings, and so does the
    reduced-motion preference (`ui/reducedMotion`, or NIB_REDUCED_MOTION=1); returns the
    function that saves them."""
    settings = QSettings()
    geometry = settings.value("window/geometry")
    if isinstance(geometry, list) and len(geometry) == 4:
        x, y, w, h = (int(v) for v in geometry)
        window.setGeometry(x, y, max(w, window.minimumWidth()), max(h, window.minimumHeight()))
    dock = controller.dock_model
    dock.setProperty("expanded", settings.value("dock/expanded", False, type=bool))
    if settings.value("ui/reducedMotion", False, type=bool):
        dock.setProperty("reducedMotion", True)

    def save() -> None:
        g = window.geometry()
        settings.setValue("window/geometry", [g.x(), g.y(), g.width(), g.height()])
        settings.setValue("dock/expanded", bool(dock.property("expanded")))
        settings.sync()

    return save


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


def run(
    supervisor: HostSupervisor, script: Script | None = None, instance: SingleInstance | None = None
) -> int:
    """Run the window until it closes, or until `script` ends; `supervisor` may already
    have spawned the host. Another launch on the same data folder (`instance`) brings the
    window forward."""
    app = create_app()
    choose_scene_graph(app)
    controller = MainController()
    engine = QQmlApplicationEngine()
    window = load_window(engine, controller)
    if instance is not None:
        instance.activated.connect(lambda: bring_forward(window))
    wait_first_frame(window)
    # The start-up benchmark reads this line; time.monotonic() is the system's clock.
    log.debug("first frame drawn at monotonic %.6f", time.monotonic())

    if instance is not None:
        instance.listen()
    # Only now: the event loop's and the protocol's modules.
    import asyncio

    import qasync

    from nib_desktop.main_role import MainRole

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    main_role = MainRole(supervisor, controller)
    code = 0
    with loop:
        if script is not None:
            from nib_desktop.scripted import run_script

            code = loop.run_until_complete(run_script(script, main_role, window))
        else:
            app.aboutToQuit.connect(restore_state(window, controller))

            async def connect() -> None:
                if await main_role.start():
                    log.debug("host %d ready at monotonic %.6f", supervisor.pid, time.monotonic())

            loop.create_task(connect())
            loop.run_forever()
        loop.run_until_complete(main_role.shutdown())
    # The QML goes before the objects it binds to.
    window.setProperty("closeConfirmed", True)
    window.close()
    shiboken6.delete(engine)
    return code
