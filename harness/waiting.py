"""Waiting in tests: on a condition, checked on the event loop, with a timeout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def until(condition: Callable[[], object], timeout: float = 10.0, what: str = "it") -> None:
    """Return once `condition()` is true; TimeoutError naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
