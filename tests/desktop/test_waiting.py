"""The tests' wait: a condition on the window's state is checked when the state changes
(its signal), not on a clock."""

from __future__ import annotations

import asyncio

from harness.waiting import until, watch
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session


def test_a_wait_on_the_state_is_woken_by_its_changes_not_a_clock() -> None:
    state = AppState()
    watch(state)
    checked: list[int] = []

    def shown() -> bool:
        checked.append(len(state.sessions))
        return len(state.sessions) == 3

    async def body() -> None:
        loop = asyncio.get_running_loop()
        for n in (1, 2, 3):  # three changes, one per turn of the loop
            sessions = tuple(Session(f"s{i}", f"s{i}", "agent") for i in range(n))
            loop.call_soon(state.apply, ev.SessionsListed(sessions))
        # a clock this slow would time the test out: only the changes can wake it
        await until(shown, timeout=60.0, what="three sessions", poll=3600.0)

    asyncio.run(body())
    assert checked[0] == 0 and checked[-1] == 3 and len(checked) <= 4
