"""Work the window started and does not wait for: each piece runs as a task, and a
failure is logged and shown to the user as the notice, in words ("Could not <what>:
<why>"). Nothing the user asked for fails silently."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from host.protocol.jsonrpc import ConnectionLost
from host.protocol.plain import DecodeError
from nib_desktop.link.connection import HostTimeout
from nib_desktop.link.rpc_client import describe
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState

log = logging.getLogger(__name__)


def failure_text(what: str, exc: BaseException) -> str:
    """A failed piece of work in words for the notice."""
    if isinstance(exc, HostTimeout):
        return f"Could not {what}: {exc}. If it finishes later, the window will show it."
    if isinstance(exc, DecodeError):
        return f"Could not {what}: {exc}"
    return f"Could not {what}: {describe(exc)}"


class Runner:
    def __init__(self, state: AppState) -> None:
        self._state = state
        self._tasks: set[asyncio.Future[Any]] = set()

    def __call__(
        self, work: Coroutine[Any, Any, object], what: str = "do that", late: str = ""
    ) -> asyncio.Future[Any] | None:
        """Start `work`; the task, for whoever wants to know when it is done. `late`: what
        shows the work was done after all when it timed out (a `NoticeShown.until`).
        Without a running loop (the window is closing) nothing starts: None."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            work.close()
            return None
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._finished(done, what, late))
        return task

    def _finished(self, task: asyncio.Future[Any], what: str, late: str) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.warning("could not %s: %s", what, describe(exc))
            self._state.apply(ev.NoticeShown(failure_text(what, exc), self._until(exc, late)))

    def _until(self, exc: BaseException, late: str) -> str:
        """What takes this failure's notice away by itself once its cause is gone."""
        shown = self._state.shown
        if shown is not None and shown.remote_state == "unreachable":
            return f"linked:{shown.session_id}"  # the action needed that remote host
        if isinstance(exc, HostTimeout) and late:
            return late  # the host may still carry it out: then the notice is untrue
        if isinstance(exc, HostTimeout | ConnectionLost) or self._state.connection != "ready":
            return "ready"
        return ""

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()


class Coalesced:
    """One piece of work asked for again and again (a load that follows what changed): it
    runs once at a time, and the asks that come while it runs cost one more run after
    it, not one each."""

    def __init__(self, run: Runner, work: Callable[[], Awaitable[None]], what: str) -> None:
        self._run, self._work, self._what = run, work, what
        self._busy = False
        self._again = False

    @property
    def busy(self) -> bool:
        return self._busy

    def __call__(self) -> None:
        if self._busy:
            self._again = True
            return
        self._busy = self._run(self._until_settled(), self._what) is not None

    async def _until_settled(self) -> None:
        try:
            while True:
                self._again = False
                await self._work()
                if not self._again:
                    return
        finally:
            self._busy = False
