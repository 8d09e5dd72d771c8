"""The real app in a real (offscreen) window: the QML, the controller, and a real host
process. Tests drive it inside the qasync loop with `gui.run(coroutine)`."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QWheelEvent
from PySide6.QtQml import QQmlEngine
from PySide6.QtQuick import QQuickItem, QQuickWindow
from PySide6.QtTest import QTest

from harness.paired import MemoryLink
from harness.waiting import until, watch
from host.core import HostCore
from nib_desktop.link.supervisor import HostSupervisor
from nib_desktop.main_role import MainRole
from nib_desktop.shell.main_qml import close_window, load_window
from nib_desktop.shell.scripted import next_frame
from nib_desktop.shell.window import Asker, make_views, restore_from_data_dir
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from ui.snapshots import Item, Snapshot

if TYPE_CHECKING:
    from nib_desktop.work.dispatch import Intents


def walk(item: QQuickItem) -> list[QQuickItem]:
    found = [item]
    for child in item.childItems():
        found.extend(walk(child))
    return found


class Gui:
    def __init__(
        self, loop: asyncio.AbstractEventLoop, data_dir: Path, in_memory: bool = False
    ) -> None:
        """`in_memory`: the host core in this process, its link through memory (for what
        needs no host process: no socket, no process to kill, no stderr)."""
        self.loop = loop
        self.data_dir = data_dir
        self.state = AppState()
        watch(self.state)  # its changes wake the waits on conditions
        restore_from_data_dir(self.state, data_dir)  # as the app does: prefs, the last list
        asker = Asker()
        self.views = make_views(self.state, asker)
        self.engine = QQmlEngine()
        self.window: QQuickWindow = load_window(self.engine, self.views)
        self.window.resize(1000, 720)
        self.core: HostCore | None = None
        self._supervisor: HostSupervisor | None = None
        if in_memory:
            core = self.core = HostCore(data_dir)
            self.main = MainRole(self.state, lambda hooks: MemoryLink(core, hooks), data_dir)
        else:
            self._supervisor = HostSupervisor(data_dir)
            self.main = MainRole.on_host(self._supervisor, self.state)
        self._opened = contextlib.AsyncExitStack()  # the Main role, once started
        asker.target = self.main.ask  # as the app's window asks
        # progress outside the window; on a session bus when a test gives one
        from nib_desktop.outside.progress import Outside

        self.outside = Outside(self.state, self.window, self.main.ask)
        self.bus_address: str | None = None
        # the views, by area
        self.sessions = self.views.sessions_view
        self.composer = self.views.composer_view
        self.transcript = self.views.transcript_view
        self.dock = self.views.dock_view
        self.history = self.views.history_view
        self.approvals = self.views.approvals_view
        self.tools = self.views.tools_view
        self.connection = self.views.connection_view
        self.notice = self.views.notice_view
        self.remote = self.views.remote_view
        self.calls = self._count_calls()

    @property
    def supervisor(self) -> HostSupervisor:
        """The host process's supervisor (none with the host core in this process)."""
        assert self._supervisor is not None, "this test's host runs in memory (in_memory)"
        return self._supervisor

    def _count_calls(self) -> Counter[str]:
        """The host calls the Main role makes, by method name."""
        calls: Counter[str] = Counter()
        connection = self.main.link
        original = connection.call

        async def counting(method: Any, params: Any, timeout: float | None = None) -> Any:
            calls[method.name] += 1
            return await original(method, params, timeout)

        connection.call = counting  # type: ignore[method-assign]
        return calls

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 45.0) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    async def start(self, activate: bool = True) -> None:
        """Start the host and connect. `activate=False` leaves activation to the window
        manager, as at a real launch."""
        await self.outside.start(self.bus_address)
        assert await self.open(), self.state.connection_error
        await next_frame(self.window)
        self.main.settle()  # as the app does once that frame is drawn
        if not activate:
            return
        # window shortcuts answer only in the active window; offscreen it is active at
        # once, on X11 without a window manager it is activated as `xdotool windowfocus`
        # would (typing itself needs no activation: see the launch test)
        self.window.requestActivate()
        deadline = time.monotonic() + 2.0
        while not self.window.isActive() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    async def open(self) -> bool:
        """The Main role opened, as the app opens it (closed by `close`): whether the
        host started."""
        await self._opened.enter_async_context(self.main)
        return self.main.ready

    @property
    def actions(self) -> Intents:
        """The Main role's intents, by area (made on first use, as in the app)."""
        return self.main.intents

    async def frame(self) -> None:
        await next_frame(self.window)

    async def act(self, action: Callable[[], Any]) -> None:
        """Run `action` (QTest input, which processes events itself) from a plain loop
        callback: inside a coroutine it would re-enter the running task."""
        done: asyncio.Future[None] = self.loop.create_future()

        def call() -> None:
            try:
                action()
            except BaseException as exc:
                done.set_exception(exc)
            else:
                done.set_result(None)

        self.loop.call_soon(call)
        await done
        await self.frame()

    async def click(self, item: QQuickItem) -> None:
        point = self.centre(item).toPoint()
        await self.act(
            lambda: QTest.mouseClick(
                self.window, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point
            )
        )

    async def wheel(self, item: QQuickItem, steps: int = 1) -> None:
        """The mouse wheel turned down `steps` notches over `item`'s centre."""
        centre = self.centre(item)
        for _ in range(steps):
            event = QWheelEvent(
                centre,
                self.window.mapToGlobal(centre),
                QPoint(0, 0),
                QPoint(0, -120),
                Qt.MouseButton.NoButton,
                Qt.KeyboardModifier.NoModifier,
                Qt.ScrollPhase.NoScrollPhase,
                False,
            )
            await self.act(lambda event=event: QCoreApplication.sendEvent(self.window, event))

    async def key(
        self, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> None:
        await self.act(lambda: QTest.keyClick(self.window, key, modifier))

    def animating(self) -> list[str]:
        """Everything in the window that would draw frames on its own: a sweep whose clock
        runs, a busy indicator that spins, any running QML animation. [] when the window
        is still (read from the items' state, not by waiting and counting frames)."""
        from ui.sweep import SweepText

        found = []
        for item in walk(self.window.contentItem()):
            if not item.isVisible():
                continue
            # Qt's own inherits(): no Python wrapper of a QML type's meta-object, which
            # would outlive the engine and be mistaken for the next item at its address
            name = item.objectName() or "an item"
            if isinstance(item, SweepText) and item.property("running"):
                found.append(f"the sweep {item.objectName()!r}")
            elif item.inherits("QQuickBusyIndicator") and item.property("running"):
                found.append(f"a busy indicator ({name})")
            found += [
                f"an animation in {name}"
                for child in item.children()
                if child.inherits("QQuickAbstractAnimation") and child.property("running")
            ]
        return found

    async def open_remote_dialog(self) -> Any:
        """The attach dialog, opened as the New menu's item does (it is made on first use)."""
        from PySide6.QtCore import QMetaObject

        sidebar = self.item("sidebar")
        await self.act(lambda: QMetaObject.invokeMethod(sidebar, "remoteAsked"))
        await until(lambda: self.window.findChild(object, "remoteDialog"), what="the dialog")
        dialog = self.window.findChild(object, "remoteDialog")
        await until(lambda: dialog.property("opened"), what="the dialog open")
        return dialog

    def close(self) -> None:
        self.run(self.outside.close())
        self.run(self._opened.aclose())
        if self.core is not None:
            self.core.close()
        self.window.setProperty("closeConfirmed", True)  # a test's running turn ends here
        self.window.close()
        self.release()

    def release(self) -> None:
        """The QML goes before the views it binds to, as in the app."""
        close_window(self.window, self.engine)

    # --- finding items --------------------------------------------------------------

    def items(self, name: str) -> list[QQuickItem]:
        return [i for i in walk(self.window.contentItem()) if i.objectName() == name]

    def item(self, name: str) -> QQuickItem:
        found = self.items(name)
        assert found, f"no item {name!r}"
        return found[0]

    def visible_items(self, name: str) -> list[QQuickItem]:
        return [i for i in self.items(name) if i.isVisible()]

    def rect_of(self, item: QQuickItem) -> tuple[int, int, int, int]:
        top_left = item.mapToScene(QPointF(0, 0))
        ratio = self.window.devicePixelRatio()
        return (
            int(top_left.x() * ratio),
            int(top_left.y() * ratio),
            int(item.width() * ratio),
            int(item.height() * ratio),
        )

    async def laid_out_dock_list(self) -> QQuickItem:
        """The expanded dock list once its height has caught up with its rows: it follows
        them through a delayed binding, so one frame after a change may not show it; the
        dock is made when it first shows."""
        await until(lambda: self.items("dockList"), what="the dock made")
        listview = self.item("dockList")
        dock = self.item("todoDock")

        def settled() -> bool:
            wanted = min(listview.property("contentHeight"), dock.property("maxListHeight"))
            return listview.height() > 0 and abs(listview.height() - wanted) < 1

        await until(settled, what="the expanded list laid out")
        return listview

    async def steady(self, item: QQuickItem, timeout: float = 10.0) -> None:
        """Until `item` stands where it stood a frame before (a dialog that grows as what
        it shows arrives moves its buttons: a click at the old place lands beside them)."""
        deadline = time.monotonic() + timeout
        before = self.rect_of(item)
        while True:
            await self.frame()
            now = self.rect_of(item)
            if now == before:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{item.objectName()} never stood still")
            before = now

    def centre(self, item: QQuickItem) -> QPointF:
        return item.mapToScene(QPointF(item.width() / 2, item.height() / 2))

    def grab(self) -> QImage:
        return self.window.grabWindow()

    # --- feeding the state as the router does -------------------------------------------

    def push(
        self, session_id: str, revision: int, items: list[tuple[str, str]] | list[Item]
    ) -> None:
        rows = tuple(i if isinstance(i, Item) else Item(i[0], i[1]) for i in items)  # type: ignore[arg-type]
        self.state.apply(ev.SnapshotArrived(Snapshot(session_id, revision, rows)))

    def expand(self, expanded: bool = True) -> None:
        self.state.apply(ev.DockExpanded(expanded))
