"""The scripted modes: `--smoke-test` (a demo turn offscreen; exit 0 once the dock drew
the finished checklist) and `--screenshot PATH` (the README's picture). Each waits on the
store's change notifications, never by polling."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtQuick import QQuickWindow

from nib_desktop.main_role import MainRole
from nib_desktop.state import events as ev, store
from nib_desktop.state.store import Change
from nib_desktop.state.types import Snapshot

Script = Callable[[MainRole, QQuickWindow], Awaitable[int]]

SCRIPT_TIMEOUT_S = 60.0

DEMO_REQUEST = (
    "Ship the session checklist:\n"
    "1. Add the session_todo table\n"
    "2. Write the migration tests\n"
    "3. Validate TodoWrite arguments\n"
    "4. Show the checklist above the Composer\n"
    "5. Document the contract"
)


def bounded(script: Script) -> Script:
    """`script` after the Main role started, bounded in time: its exit code, or 1 with
    the reason."""

    async def run(main: MainRole, window: QQuickWindow) -> int:
        try:
            async with main:
                if not main.ready:
                    raise RuntimeError(f"host failed: {main.state.connection_error}")
                return await asyncio.wait_for(script(main, window), SCRIPT_TIMEOUT_S)
        except Exception as exc:
            print(f"scripted run failed: {exc!r}", flush=True)
            return 1

    return run


async def next_frame(window: QQuickWindow, timeout: float = 5.0) -> None:
    """Ask for a frame and wait until it is on screen."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()

    def done() -> None:
        if not future.done():
            future.set_result(None)

    def swapped() -> None:  # (on the render thread, with a threaded render loop)
        loop.call_soon_threadsafe(done)

    window.frameSwapped.connect(swapped)
    window.update()
    try:
        await asyncio.wait_for(future, timeout)
    finally:
        window.frameSwapped.disconnect(swapped)


async def demo_turn(
    main: MainRole, until: Callable[[Snapshot], bool], request: str = DEMO_REQUEST
) -> Snapshot:
    """Start a turn with `request` in a new session; the first snapshot of it for which
    `until` holds."""
    reached: asyncio.Future[Snapshot] = asyncio.get_running_loop().create_future()
    session = await main.intents.sessions.create_session("agent")

    def changed(_event: ev.Event, change: Change) -> None:
        snapshot = main.state.snapshot(session.id)
        if store.CHECKLIST not in change or change.session_id != session.id:
            return
        if snapshot is not None and until(snapshot) and not reached.done():
            reached.set_result(snapshot)

    main.state.subscribe(changed)
    await main.intents.sessions.start_turn(request)
    return await reached


def find(window: QQuickWindow, name: str) -> QObject:
    item = window.findChild(QObject, name)
    if item is None:
        raise LookupError(f"no item named {name!r} in the window")
    return item


async def smoke(main: MainRole, window: QQuickWindow) -> int:
    snapshot = await demo_turn(main, lambda s: s.revision >= 11)
    if not all(item.status == "completed" for item in snapshot.items):
        raise RuntimeError("the last snapshot is not all completed")
    await next_frame(window)
    count = find(window, "progressCount").property("text")
    if count != "5 / 5":
        raise RuntimeError(f"the dock shows {count!r}, not '5 / 5'")
    if window.icon().isNull():
        raise RuntimeError("the window has no icon")
    print(f"smoke test passed: revision {snapshot.revision}, dock shows {count}", flush=True)
    return 0


def screenshot(path: Path) -> Script:
    async def take(main: MainRole, window: QQuickWindow) -> int:
        await demo_turn(main, lambda s: s.revision >= 6)
        main.state.apply(ev.DockExpanded(True))
        await next_frame(window)
        await next_frame(window)
        if not window.grabWindow().save(str(path)):
            raise RuntimeError(f"cannot write {path}")
        print(f"wrote {path}", flush=True)
        return 0

    return take
