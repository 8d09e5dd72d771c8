"""Progress outside the window: the launcher's badge and progress, desktop notifications
and the window's request for attention, following the state (`nib_desktop.state.outside`
says what; this sends it). The window title is the sessions view's (QML binds it).

- Launcher: sent when what it shows changes, never otherwise (no bus traffic while
  nothing changes), a burst coalesced to its latest state within 100 ms; the badge
  through Qt as well (`QGuiApplication.setBadgeNumber`).
- Notifications, only while the window is not active: a turn's end (finished, stopped,
  failed, interrupted) and an approval waiting, one per session, updated in place,
  withdrawn once the user looks at that session. Activating one brings the window
  forward on its session; an approval's "Allow once" / "Deny" answer it.
- Attention (`QWindow.alert`) when an approval waits and the window is not active.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtGui import QGuiApplication
from PySide6.QtQuick import QQuickWindow

from nib_desktop.outside.desktop_bus import DesktopBus
from nib_desktop.state import events as ev, intents as it, store
from nib_desktop.state.facts import End
from nib_desktop.state.outside import SHOWN_OUTSIDE, Launcher, counts, launcher
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.tool_types import Approval
from nib_desktop.state.types import TurnView

log = logging.getLogger(__name__)

LAUNCHER_INTERVAL_S = 0.1  # at most ten launcher updates a second
MAX_ARGUMENTS = 100  # characters of a tool call's arguments a notification may show
APPROVAL_ACTIONS = ("default", "Show", "allow_once", "Allow once", "deny", "Deny")
END_ACTIONS = ("default", "Show")


class _Note:
    """A session's desktop notification, and the approval it asks about (until answered)."""

    def __init__(self, notification: int, approval_id: str = "") -> None:
        self.notification, self.approval_id = notification, approval_id


def turn_words(turn: TurnView, done: int, total: int) -> str:
    """A turn's end as a notification says it."""
    progress = f" ({done} of {total} steps completed)" if total else ""
    match turn.end:
        case End.COMPLETED:
            if total and done == total:
                return "1 step completed" if total == 1 else f"All {total} steps completed"
            return f"Finished{progress}"
        case End.STOPPED:
            return f"Stopped{progress}"
        case End.INTERRUPTED:
            return f"Interrupted: the host restarted{progress}"
        case End.UNREACHABLE:
            return "Its remote host cannot be reached"
    return f"Failed: {turn.error or 'no reason given'}"


def approval_words(approval: Approval) -> str:
    shown = approval.arguments
    if len(shown) > MAX_ARGUMENTS:
        shown = shown[:MAX_ARGUMENTS] + "…"
    return (
        f"{approval.tool} waits for your approval: {shown}"
        if shown
        else (f"{approval.tool} waits for your approval")
    )


class Outside:
    def __init__(
        self, state: AppState, window: QQuickWindow, ask: Callable[[it.Intent], None]
    ) -> None:
        self._state = state
        self._window = window
        self._ask = ask
        self.bus: DesktopBus | None = None
        self._sent: Launcher | None = None
        self._wanted: Launcher | None = None
        self._flush: asyncio.TimerHandle | None = None
        self._badge = -1
        self._notes: dict[str, _Note] = {}  # session id -> its notification
        self._work: set[asyncio.Task[Any]] = set()
        self._pending: dict[str, asyncio.Task[Any]] = {}  # the latest send per session
        state.subscribe(self._changed)
        window.activeChanged.connect(lambda: state.apply(ev.WindowActivated(window.isActive())))

    async def start(self, address: str | None) -> None:
        self.bus = await DesktopBus.open(address)
        if self.bus is not None:
            self.bus.on_action = self._action
            self.bus.on_closed = self._closed
        self._follow_launcher()

    async def close(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
        for task in list(self._work):
            task.cancel()
        if self._work:
            await asyncio.wait(list(self._work))
        if self.bus is not None:
            await self.bus.close()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._work.add(task)
        task.add_done_callback(self._work.discard)
        return task

    # --- following the state -----------------------------------------------------------

    def _changed(self, event: ev.Event, change: Change) -> None:
        if change.aspects & SHOWN_OUTSIDE:
            self._follow_launcher()
        state = self._state
        prefs = state.desktop
        if isinstance(event, ev.TurnChanged) and store.ATTENTION in change:
            turn = event.turn
            if not state.window_active and prefs.notifications:
                session = state.session(turn.session_id)
                if session is not None:
                    done, total = counts(state.snapshot(turn.session_id))
                    self._notify(
                        turn.session_id, session.title, turn_words(turn, done, total), END_ACTIONS
                    )
        elif isinstance(event, ev.ApprovalRequested) and not state.window_active:
            approval = event.approval
            session = state.session(approval.session_id)
            if prefs.notifications and session is not None:
                self._notify(
                    approval.session_id,
                    session.title,
                    approval_words(approval),
                    APPROVAL_ACTIONS,
                    approval.approval_id,
                )
            if prefs.attention:
                self._window.alert(0)
        elif isinstance(event, ev.ApprovalResolved):  # its buttons go; the end updates it
            for session_id, note in list(self._notes.items()):
                session = state.session(session_id)
                if note.approval_id == event.approval_id and session is not None:
                    note.approval_id = ""
                    self._notify(
                        session_id,
                        session.title,
                        "The tool call was answered; the turn goes on",
                        END_ACTIONS,
                    )
        looked = state.current if state.window_active else None
        if looked is not None and looked in self._notes:
            self._withdraw(looked)

    def _follow_launcher(self) -> None:
        state = self._state
        now = launcher(state)
        prefs = state.desktop
        now = Launcher(
            progress=now.progress if prefs.launcher_progress else 0.0,
            progress_visible=now.progress_visible and prefs.launcher_progress,
            urgent=now.urgent and prefs.attention,
            count=now.count if prefs.badge else 0,
        )
        if now.count != self._badge:
            self._badge = now.count
            app = QGuiApplication.instance()
            # Qt's badge needs the desktop file the launcher knows the app by
            if isinstance(app, QGuiApplication) and QGuiApplication.desktopFileName():
                app.setBadgeNumber(now.count)
        held = self._wanted
        if held is not None and held.progress_visible and not now.progress_visible:
            self._wanted = held  # the list's last state is shown before the bar goes
            self._send()
        self._wanted = now
        if now != self._sent and self.bus is not None and self._flush is None:
            # coalesced: a burst of updates is one signal, the latest, within the interval
            self._flush = asyncio.get_running_loop().call_later(LAUNCHER_INTERVAL_S, self._send)

    def _send(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
        self._flush = None
        now = self._wanted
        if now is None or now == self._sent or self.bus is None:
            return
        self._sent = now
        self._spawn(self.bus.launcher(now.progress, now.progress_visible, now.urgent, now.count))

    # --- notifications ----------------------------------------------------------------

    def _notify(
        self,
        session_id: str,
        title: str,
        body: str,
        actions: tuple[str, ...],
        approval_id: str = "",
    ) -> None:
        bus = self.bus
        if bus is None:
            return
        earlier = self._pending.get(session_id)

        async def send() -> None:
            if earlier is not None and not earlier.done():
                await asyncio.wait({earlier})  # in order: the update replaces the one before
            held = self._notes.get(session_id)
            replaces = held.notification if held is not None else 0
            notification = await bus.notify(replaces, title, body, actions)
            if notification is not None:
                self._notes[session_id] = _Note(notification, approval_id)

        self._pending[session_id] = self._spawn(send())

    def _withdraw(self, session_id: str) -> None:
        note = self._notes.pop(session_id, None)
        if note is not None and self.bus is not None:
            self._spawn(self.bus.withdraw(note.notification))

    def _session_of(self, notification: int) -> str | None:
        return next((s for s, n in self._notes.items() if n.notification == notification), None)

    def _action(self, notification: int, key: str) -> None:
        session_id = self._session_of(notification)
        if session_id is None:
            return
        note = self._notes[session_id]
        if key in ("allow_once", "deny") and note.approval_id:
            self._ask(it.Answer(note.approval_id, key))
            return
        window = self._window  # "default": the window forward, on that session
        if window.visibility() == QQuickWindow.Visibility.Minimized:
            window.showNormal()
        window.show()
        window.raise_()
        window.requestActivate()
        self._state.apply(ev.SessionShown(session_id))

    def _closed(self, notification: int) -> None:
        session_id = self._session_of(notification)
        if session_id is not None:
            self._notes.pop(session_id, None)
