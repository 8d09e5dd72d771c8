"""The asyncio loop on Qt's event loop (qasync), made for a window of Qt Quick alone.

Two things of qasync's cost a start that the window never uses:

- it imports PySide6.QtWidgets only to reach `QApplication.instance()` and
  `processEvents()`, both QGuiApplication's as well (the widgets library is about 4.5 MB
  resident, and its import);
- its timers end with `QObject.killTimer(int)`. Since Qt 6.8 that method has a second
  overload taking `Qt.TimerId`, and to weigh it PySide builds the whole `Qt` namespace:
  its 93 enums, about 22 ms on the first timer of every start, just as the window shakes
  hands with the host. `QBasicTimer.stop()` has no overload.
"""

from __future__ import annotations

import asyncio
import sys
import types
from typing import TYPE_CHECKING

from PySide6.QtCore import QBasicTimer, QObject, QTimerEvent
from PySide6.QtGui import QGuiApplication

if TYPE_CHECKING:
    import qasync


def without_widgets() -> None:
    """When nothing has imported the real PySide6.QtWidgets yet, qasync is given a module
    that names QGuiApplication as its QApplication."""
    if "PySide6.QtWidgets" in sys.modules:
        return
    stand_in = types.ModuleType("PySide6.QtWidgets", "QGuiApplication, for qasync")
    stand_in.QApplication = QGuiApplication  # type: ignore[attr-defined]
    sys.modules["PySide6.QtWidgets"] = stand_in


class CallbackTimer(QObject):
    """What qasync asks of its timer (`add_callback`, `stop`, `set_debug`): each delayed
    callback on a QBasicTimer of its own, run once when it fires unless cancelled.

    A callback always runs with `loop` as asyncio's running loop, as asyncio requires:
    also when Qt's events are processed outside the loop's run (a `processEvents` from
    Qt code or a test harness), where a task's step would otherwise find no running
    loop, or take its queues and futures for another loop's."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._loop = loop
        self._pending: dict[int, tuple[QBasicTimer, asyncio.Handle]] = {}
        self._stopped = False

    def add_callback(self, handle: asyncio.Handle, delay: float = 0) -> asyncio.Handle:
        timer = QBasicTimer()
        timer.start(int(max(0.0, delay) * 1000), self)
        self._pending[timer.timerId()] = (timer, handle)
        return handle

    def timerEvent(self, event: QTimerEvent) -> None:
        entry = self._pending.pop(event.timerId(), None)
        if entry is None:
            return
        timer, handle = entry
        timer.stop()
        if self._stopped or handle.cancelled():
            return
        running = asyncio.events._get_running_loop()
        asyncio.events._set_running_loop(self._loop)
        try:
            handle._run()
        finally:
            asyncio.events._set_running_loop(running)

    def stop(self) -> None:
        self._stopped = True
        for timer, _handle in self._pending.values():
            timer.stop()
        self._pending.clear()

    def set_debug(self, enabled: bool) -> None:
        """(asyncio's slow-callback warnings are not kept for these callbacks)"""


def qt_event_loop(app: QGuiApplication) -> qasync.QEventLoop:
    """A qasync loop on `app`, with the timer above in place of qasync's own."""
    without_widgets()
    import qasync

    loop = qasync.QEventLoop(app)
    loop._timer = CallbackTimer(loop)
    return loop
