"""Work asked for again while it runs (`Coalesced`), and work asked for with no loop."""

from __future__ import annotations

import asyncio

from nib_desktop.link.runner import Coalesced, Runner
from nib_desktop.state.store import AppState


def test_asks_during_a_run_cost_one_more_run_not_one_each() -> None:
    async def body() -> list[int]:
        runs: list[int] = []
        gate = asyncio.Event()

        async def work() -> None:
            runs.append(len(runs))
            await gate.wait()

        load = Coalesced(Runner(AppState()), work, "load")
        load()
        await asyncio.sleep(0)  # the first run is waiting at the gate
        for _ in range(10):
            load()
        assert load.busy and runs == [0]
        gate.set()
        while load.busy:
            await asyncio.sleep(0)
        return runs

    assert asyncio.run(body()) == [0, 1]


def test_a_failed_run_is_the_notice_and_the_next_ask_runs_again() -> None:
    state = AppState()

    async def body() -> int:
        tries = 0

        async def work() -> None:
            nonlocal tries
            tries += 1
            raise OSError("the disk is gone")

        load = Coalesced(Runner(state), work, "load the changes")
        for _ in range(2):
            load()
            while load.busy:
                await asyncio.sleep(0)
        return tries

    assert asyncio.run(body()) == 2
    assert state.notice.startswith("Could not load the changes:")


def test_nothing_starts_without_a_running_loop() -> None:
    async def work() -> None:
        raise AssertionError("never run")

    coroutine = work()
    assert Runner(AppState())(coroutine, "count") is None
    assert coroutine.cr_frame is None  # closed, so never "never awaited"
    load = Coalesced(Runner(AppState()), work, "count")
    load()
    assert not load.busy
