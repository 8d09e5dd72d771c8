"""The GUI thread never waits on the host: while a host that died is restarted and the
window reloads, or while the host floods it, the event loop keeps turning. Measured as
the longest gap between the turns of a 4 ms ticker on the loop."""

from __future__ import annotations

import os
import signal

import pytest

from harness.flood import FRAME_S, Ticker, flood_window_gaps
from harness.waiting import until

ALLOWED_S = 2 * FRAME_S  # one frame of work, and one of scheduling noise on a busy machine
# A virtual machine's own pause (its host's scheduler) can stop the whole process once for
# longer: one gap of up to four frames is let pass; the work of 200 messages cannot hide
# in one gap, and a window that falls behind shows many.
OUTLIER_S = 4 * FRAME_S

# a stall measured while another worker loads both cores would measure that worker
pytestmark = pytest.mark.serial


def test_the_event_loop_keeps_turning_through_a_host_restart(gui) -> None:
    ticker = Ticker()

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded, what="the session shown")
        ticker.start()
        os.kill(gui.supervisor.pid, signal.SIGKILL)
        await until(lambda: gui.connection.property("state") == "reconnecting", 5)
        await until(lambda: gui.connection.property("state") == "ready", 15, "the new host")
        await until(lambda: gui.state.transcript.loaded, what="the session shown again")
        ticker.stop()

    gui.run(body())
    assert_never_froze(ticker)


def assert_never_froze(ticker: Ticker) -> None:
    longest, second = ticker.longest * 1000, ticker.second * 1000
    print(f"longest stalls of the event loop: {longest:.1f} ms, then {second:.1f} ms")
    assert ticker.second < ALLOWED_S, f"the loop stalled {longest:.0f} and {second:.0f} ms"
    assert ticker.longest < OUTLIER_S, f"the loop stalled {longest:.0f} ms"


def test_a_flood_from_the_host_never_freezes_the_window(gui, tmp_path) -> None:
    """200 messages of 256 KiB (50 MiB) for the session on screen arrive at once, through
    a real local socket into the app's RPC client, router, state, views and window: the
    loop keeps turning (its longest stall one frame of work) and every message is shown.
    (The reliability bench adds a flood of 10,000 small messages.)"""

    async def body() -> Ticker:
        await gui.start()
        return await flood_window_gaps(gui, tmp_path, 200, 256 * 1024)

    assert_never_froze(gui.run(body(), 120))
