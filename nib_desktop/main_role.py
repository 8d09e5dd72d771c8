"""The Main role assembled: the host connection, the session state, the notification
router and the actions, attached to the QML-facing controller. Data flows one way: host
-> client -> router -> session state and store -> view; user actions flow view -> actions
-> host. Created after the window's first frame, so the protocol's models are not
imported before the window is on screen.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pydantic import ValidationError

from nib_desktop.actions import Actions
from nib_desktop.connection import MAX_RECONNECTS, HostConnection, HostTimeout
from nib_desktop.controller import Action, MainController
from nib_desktop.router import NotificationRouter
from nib_desktop.rpc_client import describe
from nib_desktop.sessions import SessionState
from nib_desktop.supervisor import HostSupervisor
from ui.snapshots import Snapshot

log = logging.getLogger(__name__)


def failure_text(what: str, exc: BaseException) -> str:
    """A failed action in words for the notice."""
    if isinstance(exc, HostTimeout):
        return f"Could not {what}: {exc}. If it finishes later, the window will show it."
    if isinstance(exc, ValidationError):
        problems = "; ".join(
            str(e.get("msg", "")).removeprefix("Value error, ") for e in exc.errors()
        )
        return f"Could not {what}: {problems}"
    return f"Could not {what}: {describe(exc)}"


class MainRole:
    def __init__(
        self,
        supervisor: HostSupervisor,
        view: MainController,
        max_reconnects: int = MAX_RECONNECTS,
    ) -> None:
        self.view = view
        self.sessions = SessionState(view)
        self.connection = HostConnection(
            supervisor, self._reload, view, max_reconnects=max_reconnects
        )
        self.actions = Actions(self.connection, self.sessions, view)
        self.router = NotificationRouter(
            self.sessions, view, lambda: self.run(self.actions.show_current(), "show the session")
        )
        self.connection.notification.connect(self.router.route)
        self.connection.stateChanged.connect(view.set_connection)
        self._tasks: set[asyncio.Future[Any]] = set()
        view.attach(self.actions, self.run)
        # an open History view follows the writes as they commit
        view.todosChanged.connect(self._history_follows)

    async def start(self) -> bool:
        return await self.connection.start()

    async def shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.connection.shutdown()

    def run(self, action: Action, what: str = "do that") -> None:
        """Run a user's action; a failure is logged and shown to the user as the notice,
        saying `what` could not be done and why."""
        task = asyncio.ensure_future(action)
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._finished(done, what))

    def _finished(self, task: asyncio.Future[Any], what: str) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.warning("could not %s: %s", what, describe(exc))
            self.view.show_notice(failure_text(what, exc))

    def _history_follows(self, snapshot: Snapshot) -> None:
        if self.view.dock_model.history_session() == snapshot.session_id:
            self.run(self.actions.load_history(False), "load the checklist history")

    async def _reload(self) -> None:
        await self.actions.reload()
