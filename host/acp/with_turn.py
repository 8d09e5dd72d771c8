"""What an agent asks of the user (a permission, a form) lives as long as the turn that
asked it: the user's answer awaited as one of the turn's tasks, cancelled with it."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Turn(Protocol):
    permissions: set[asyncio.Task[Any]]  # the recorder's: cancelled as its turn ends


async def while_turn_runs(turn: Turn, asking: Coroutine[Any, Any, T]) -> T | None:
    """`asking`'s answer, or None when the turn ended (or the ask failed) first."""
    ask = asyncio.ensure_future(asking)
    turn.permissions.add(ask)
    try:
        await asyncio.wait({ask})
    finally:
        turn.permissions.discard(ask)
        ask.cancel()
    if ask.cancelled() or ask.exception() is not None:
        return None
    return ask.result()
