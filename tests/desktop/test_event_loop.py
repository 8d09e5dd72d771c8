"""The asyncio loop on Qt's (`nib_desktop.shell.event_loop`): qasync with a timer of ours."""

from __future__ import annotations

import asyncio

from tests.test_imports import python_says


def test_delayed_callbacks_run_in_time_order_and_cancelled_ones_never(aio_loop) -> None:
    from nib_desktop.shell.event_loop import CallbackTimer

    assert isinstance(aio_loop._timer, CallbackTimer)  # as the app's loop is made
    ran: list[str] = []

    async def body() -> None:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        loop.call_later(0.03, ran.append, "third")
        loop.call_later(0.01, ran.append, "first")
        loop.call_later(0.02, ran.append, "second").cancel()
        loop.call_soon(ran.append, "soon")
        loop.call_later(0.05, done.set_result, None)
        await asyncio.wait_for(done, 5)
        assert ran == ["soon", "first", "third"]
        assert await asyncio.wait_for(asyncio.sleep(0.01, "slept"), 5) == "slept"

    aio_loop.run_until_complete(body())


def test_a_callback_run_by_qt_outside_the_loops_run_has_the_loop_running(aio_loop) -> None:
    """Qt may process events while the asyncio loop is not running (a `processEvents`
    from Qt code, or pytest-qt's between tests): a callback then still runs with its loop
    as the running one. Without it a task's step found no running loop, and a queue bound
    to the loop raised "bound to a different event loop" (seen once on CI)."""
    import time

    from PySide6.QtCore import QCoreApplication

    seen: list[object] = []

    def record() -> None:
        try:
            seen.append(asyncio.get_running_loop())
        except RuntimeError as exc:
            seen.append(exc)

    aio_loop.call_soon(record)
    deadline = time.monotonic() + 5
    while not seen and time.monotonic() < deadline:
        QCoreApplication.processEvents()  # Qt's loop, not asyncio's
    assert seen == [aio_loop]
    assert asyncio.events._get_running_loop() is None  # as it was


def test_the_loops_timers_do_not_build_the_qt_namespace() -> None:
    """qasync's own timers end with QObject.killTimer, whose Qt.TimerId overload makes
    PySide build all of Qt's namespace enums (about 22 ms) as the window connects."""
    script = """
import asyncio, enum
made = []
create = enum.EnumType._create_
def counting(cls, name, *args, **kwargs):
    made.append(name)
    return create(cls, name, *args, **kwargs)
enum.EnumType._create_ = counting
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(["-platform", "offscreen"])
from nib_desktop.shell.event_loop import qt_event_loop
loop = qt_event_loop(app)
before = len(made)
async def main():
    await asyncio.sleep(0.01)
    await asyncio.wait_for(asyncio.sleep(0.01), 1)
loop.run_until_complete(main())
print(len(made) - before, 'AlignmentFlag' in made)
"""
    assert python_says(script) == "0 False"
