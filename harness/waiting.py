"""Waiting in tests and benchmarks: on a condition, with a timeout, woken by the signal
that changes it. The window's state (`AppState`) is the signal of most conditions: a
state watched with `watch` wakes every waiter at each change it applies, so a condition
on the state, a view or the QML bound to them is checked when it can have changed, not
on a clock. What no state tells (a file, a process, a frame drawn) is checked again
every POLL_S."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol

POLL_S = 0.05  # a condition no watched signal tells is checked this often

_waiting: set[asyncio.Event] = set()


class Watched(Protocol):
    def subscribe(self, listener: Callable[..., None]) -> None: ...


def wake(*_told: object) -> None:
    """Every waiter checks its condition again (a watched signal fired)."""
    for event in _waiting:
        event.set()


def watch(state: Watched) -> None:
    """Each change `state` applies wakes the waiters (the window's `AppState`)."""
    state.subscribe(wake)


async def until(
    condition: Callable[[], object],
    timeout: float = 10.0,
    what: str | Callable[[], str] = "it",
    poll: float = POLL_S,
) -> None:
    """Return once `condition()` is true; TimeoutError naming `what` after `timeout` s
    (a callable: what it says then, as the state stood when the wait gave up)."""
    deadline = time.monotonic() + timeout
    woken = asyncio.Event()
    _waiting.add(woken)
    try:
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                said = what() if callable(what) else what
                raise TimeoutError(f"timed out waiting for {said}")
            woken.clear()
            # past `poll` it is checked again on the clock: nothing watched told it
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), min(poll, left))
    finally:
        _waiting.discard(woken)


def until_now(condition: Callable[[], object], timeout: float = 10.0, what: str = "it") -> None:
    """`until` for what no signal tells, outside an event loop (a file a process removes):
    checked every POLL_S; TimeoutError naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(POLL_S)
