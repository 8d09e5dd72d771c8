"""The QML window and its event loop.

Start-up order: the host is already booting (see `nib_desktop.shell.app`); the state and the
views are made and the window loads and draws its first frame; only then are qasync and
the Main role (with the protocol's models) imported, its intents attached to the views
and the connection made.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtQml import QQmlEngine
from PySide6.QtQuick import QQuickItem, QQuickWindow

import ui.qml_types  # noqa: F401 - registers the view-model types under `import Nib`
from nib_desktop.link.supervisor import HostSupervisor
from nib_desktop.shell.boot import create_app, set_window_icon
from nib_desktop.shell.graphics import choose_scene_graph
from nib_desktop.shell.lean import lean_start, resume_collector
from nib_desktop.shell.main_qml import bring_forward, close_window, load_window, wait_first_frame
from nib_desktop.shell.prefs import restore_prefs, saved_geometry, state_saver
from nib_desktop.state.store import AppState
from ui.views.app_views import AppViews

if TYPE_CHECKING:
    import asyncio

    from nib_desktop.main_role import MainRole
    from nib_desktop.shell.instance import SingleInstance
    from nib_desktop.state.events import Event
    from nib_desktop.state.intents import Ask, Intent

log = logging.getLogger("nib")

# A scripted run (smoke test, screenshot) gets the window and the Main role.
Script = Callable[["MainRole", QQuickWindow], Awaitable[int]]


class Asker:
    """The views' way to the Main role's intents: until it is attached (after the first
    frame), an intent does nothing."""

    def __init__(self) -> None:
        self.target: Ask | None = None

    def __call__(self, intent: Intent | Event) -> None:
        if self.target is not None:
            self.target(intent)


def endpoint_problem(endpoint: str) -> str:
    from nib_desktop.work.remote_work import endpoint_problem as check

    return check(endpoint)


def restore_from_data_dir(state: AppState, data_dir: Path) -> None:
    """What the first frame shows from the data folder, on a new state before any view
    watches it: the appearance and motion chosen in settings.json (so the window is drawn
    in the user's palette from its first frame, not in the system's for a moment), and
    the last run's sessions."""
    from nib_desktop.outside import desktop_prefs
    from nib_desktop.shell import drafts

    state.desktop = desktop_prefs.load(data_dir)
    drafts.load(data_dir).onto(state)  # what was written and not sent, back in place
    state.reduced_motion = state.reduced_motion or state.desktop.reduced_motion
    restore_sessions(state, data_dir)


def restore_sessions(state: AppState, data_dir: Path) -> None:
    """The last run's sessions list on a new state, drawn in the first frame and replaced
    by the host's list when it answers."""
    from nib_desktop.shell import session_cache

    cached = session_cache.load(data_dir)
    if cached:
        state.sessions, state.sessions_cached = cached, True


def settle_after_frame(
    window: QQuickWindow, main_role: MainRole, loop: asyncio.AbstractEventLoop
) -> None:
    """The Main role's intents made once the next frame is drawn: the one that shows
    what the start loaded (an intent or a notification before it makes them itself)."""

    def drawn() -> None:
        window.frameSwapped.disconnect(drawn)
        loop.call_soon(main_role.settle)

    window.frameSwapped.connect(drawn)
    window.update()


def make_views(state: AppState, ask: Asker) -> AppViews:
    return AppViews(state, ask, endpoint_problem)


def run(
    supervisor: HostSupervisor, script: Script | None = None, instance: SingleInstance | None = None
) -> int:
    """Run the window until it closes, or until `script` ends; `supervisor` may already
    have spawned the host. Another launch on the same data folder (`instance`) brings the
    window forward."""
    lean_start()  # (the app's start did so already; a script's start may not have)
    app = create_app()
    choose_scene_graph(app)
    state, ask = AppState(), Asker()
    restore_prefs(state)
    restore_from_data_dir(state, supervisor.data_dir)
    views = make_views(state, ask)
    engine = QQmlEngine()
    # where it was when it last closed; a scripted run (smoke test, screenshot) at the
    # default size
    where = saved_geometry(supervisor.data_dir) if script is None else None
    window = load_window(engine, views, where)
    if instance is not None:
        instance.activated.connect(lambda: bring_forward(window))
    wait_first_frame(window)
    # The start-up benchmark reads this line; time.monotonic() is the system's clock.
    log.debug("first frame drawn at monotonic %.6f", time.monotonic())

    if instance is not None:
        instance.listen()
    # Only now: the event loop's and the protocol's modules.
    import asyncio
    import gc
    import signal

    from nib_desktop.main_role import MainRole
    from nib_desktop.shell.event_loop import qt_event_loop

    loop = qt_event_loop(app)
    asyncio.set_event_loop(loop)
    main_role = MainRole.on_host(supervisor, state)
    ask.target = main_role.ask
    from nib_desktop.outside.desktop_bus import bus_address
    from nib_desktop.outside.progress import Outside

    outside = Outside(state, window, main_role.ask)
    resume_collector()  # (paused by the app's start, if it was)
    code = 0
    with loop:
        if script is not None:
            set_window_icon(app)
            code = loop.run_until_complete(script(main_role, window))
        else:
            app.aboutToQuit.connect(state_saver(window, state, supervisor.data_dir))
            quitting: asyncio.Future[None] = loop.create_future()

            def quit_now() -> None:
                if not quitting.done():
                    quitting.set_result(None)

            app.aboutToQuit.connect(quit_now)

            def quit_asked() -> None:
                # a SIGTERM or SIGINT (the desktop's logout, `kill`, Ctrl+C where it was
                # started) quits as closing the window does, nothing asked: the drafts and
                # the window's place kept, the host stopped, the socket's folder removed
                window.setProperty("closeConfirmed", True)
                app.quit()

            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(signum, quit_asked)

            settled = False  # started, and waiting for the app to quit

            async def live() -> None:
                nonlocal settled
                async with main_role:  # the host started here, and shut down here
                    if main_role.ready:
                        log.debug(
                            "host %d ready at monotonic %.6f", supervisor.pid, time.monotonic()
                        )
                    settle_after_frame(window, main_role, loop)
                    # the icon's PNGs read once the sessions are shown (3 ms): Qt gives
                    # it to the window already shown
                    set_window_icon(app)
                    try:
                        # after the host's answers: the session bus's client (jeepney)
                        # costs about 40 ms to import and connect, which the sessions need
                        # not wait for
                        await outside.start(bus_address())
                        # what start-up made lives as long as the window: the collector's
                        # full passes need not walk it again (a pass is a pause of the window)
                        gc.freeze()
                        settled = True
                        await quitting
                    finally:
                        await outside.close()

            running = loop.create_task(live())
            loop.run_forever()  # until the app quits
            if not settled:  # quit while starting: the start is not waited for
                running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                loop.run_until_complete(running)  # the Main role closes
    if not state.sessions_cached:  # the host's list, for the next start's first frame
        from nib_desktop.shell import session_cache

        session_cache.save(supervisor.data_dir, state.sessions)
    # The QML goes before the objects it binds to.
    window.setProperty("closeConfirmed", True)
    close_window(window, engine)
    # Dock rows the list kept for reuse can outlive the engine as the application's
    # children; deleted at the interpreter's exit, after the items they bind to, they
    # crashed it (SIGSEGV): they go now, while all they refer to is still there.
    for stray in app.children():
        if isinstance(stray, QQuickItem):
            shiboken6.delete(stray)
    return code
