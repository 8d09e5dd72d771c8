"""The QML window and the run modes (interactive, smoke test, screenshot).

Start-up order: the host is already booting (see `nib_desktop.app`); the window loads and
draws its first frame; only then are qasync and the bridge (with the protocol's models)
imported and the connection made.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEventLoop, QObject, QSettings, Qt, QTimer
from PySide6.QtQml import QQmlApplicationEngine
from PySide6.QtQuick import QQuickWindow

import ui.qml_types  # noqa: F401 - registers the view-model types under `import Nib`
from nib_desktop import paths
from nib_desktop.boot import create_app
from nib_desktop.controller import MainController
from nib_desktop.supervisor import HostSupervisor

if TYPE_CHECKING:
    from nib_desktop.bridge import HostBridge

log = logging.getLogger("nib")

SMOKE_TIMEOUT_S = 60.0
DEMO_REQUEST = (
    "Ship the session checklist:\n"
    "1. Add the session_todo table\n"
    "2. Write the migration tests\n"
    "3. Validate TodoWrite arguments\n"
    "4. Show the checklist above the Composer\n"
    "5. Document the contract"
)


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
        window.setGeometry(x, y, max(w, 640), max(h, 420))
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


async def wait_until(
    condition: Callable[[], object], timeout: float = 10.0, what: str = "condition"
) -> None:
    """Wait for `condition` on the event loop, checking every 10 ms; TimeoutError after
    `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def next_frame(window: QQuickWindow, timeout: float = 5.0) -> None:
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def swapped() -> None:
        if not future.done():
            future.set_result(None)

    window.frameSwapped.connect(swapped, Qt.ConnectionType.QueuedConnection)
    window.update()
    try:
        await asyncio.wait_for(future, timeout)
    finally:
        window.frameSwapped.disconnect(swapped)


def find(window: QQuickWindow, name: str) -> QObject:
    item = window.findChild(QObject, name)
    if item is None:
        raise LookupError(f"no item named {name!r} in the window")
    return item


def wait_first_frame(window: QQuickWindow, timeout_ms: int = 3000) -> None:
    """Spin Qt's own loop until the window has drawn once (bounded)."""
    loop = QEventLoop()
    window.frameSwapped.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    window.update()
    loop.exec()
    window.frameSwapped.disconnect(loop.quit)


async def demo_run(bridge: HostBridge, until_revision: Callable[[int], bool]) -> str:
    """Start a demo turn in a new session; return its id once `until_revision` holds."""
    if not await bridge.start():
        raise RuntimeError(f"host failed: {bridge.controller.property('connectionError')}")
    session = await bridge.create_session("agent")
    await bridge.send_message(DEMO_REQUEST)

    def reached() -> bool:
        snap = bridge.store.get(session.id)
        return snap is not None and until_revision(snap.revision)

    await wait_until(reached, SMOKE_TIMEOUT_S, "the demo checklist")
    return session.id


async def smoke(bridge: HostBridge, window: QQuickWindow) -> int:
    session_id = await demo_run(bridge, lambda revision: revision >= 11)
    snapshot = bridge.store.get(session_id)
    assert snapshot is not None
    if not all(item.status == "completed" for item in snapshot.items):
        raise RuntimeError("the last snapshot is not all completed")
    await next_frame(window)
    count = find(window, "progressCount").property("text")
    if count != "5 / 5":
        raise RuntimeError(f"the dock shows {count!r}, not '5 / 5'")
    print(f"smoke test passed: revision {snapshot.revision}, dock shows {count}", flush=True)
    return 0


async def screenshot(bridge: HostBridge, window: QQuickWindow, path: Path) -> int:
    await demo_run(bridge, lambda revision: revision >= 6)
    bridge.controller.dock_model.setProperty("expanded", True)
    await next_frame(window)
    await next_frame(window)
    if not window.grabWindow().save(str(path)):
        raise RuntimeError(f"cannot write {path}")
    print(f"wrote {path}", flush=True)
    return 0


def trace(event: str, *extra: object) -> None:
    """For bench/startup.py: the monotonic time of a start-up event, so the parent can
    measure from its own clock."""
    if os.environ.get("NIB_TRACE_STARTUP"):
        print(f"nib-trace {event} {time.monotonic():.6f}", *extra, flush=True)


def run(
    supervisor: HostSupervisor, smoke_test: bool = False, screenshot_path: Path | None = None
) -> int:
    """Run the window until it closes (or the scripted mode ends); `supervisor` may
    already have spawned the host."""
    app = create_app()
    controller = MainController()
    engine = QQmlApplicationEngine()
    window = load_window(engine, controller)
    scripted = smoke_test or screenshot_path is not None
    if scripted:
        window.resize(1100, 760)
    wait_first_frame(window)
    trace("first-frame")

    import qasync

    from nib_desktop.bridge import HostBridge

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    bridge = HostBridge(supervisor, controller)
    code = 0
    with loop:
        if scripted:

            async def script() -> int:
                if screenshot_path is not None:
                    return await screenshot(bridge, window, screenshot_path)
                return await smoke(bridge, window)

            try:
                code = loop.run_until_complete(asyncio.wait_for(script(), SMOKE_TIMEOUT_S))
            except Exception as exc:
                print(f"smoke test failed: {exc}", flush=True)
                code = 1
        else:
            save = restore_state(window, controller)
            app.aboutToQuit.connect(save)

            async def connect() -> None:
                if await bridge.start():
                    trace("host-ready", supervisor.pid)

            loop.create_task(connect())
            loop.run_forever()
        loop.run_until_complete(bridge.shutdown())
    # The QML goes before the objects it binds to.
    window.close()
    shiboken6.delete(engine)
    return code
