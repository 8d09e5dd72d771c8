"""An agent's controls reaching the composer's footer (issue 34): `agents.controlsChanged`
routed as the window routes it (the wire model validated from its JSON fields), into the
state, the view and the footer's text, to the next frame swapped.

    python -m bench.steering [--updates 300]

Offscreen by default (the software scene graph); `DISPLAY=:N QT_QPA_PLATFORM=xcb` for a
real display. The floor in the same run: a 1-pixel item's colour changed, to the next
frame. Target: the footer shows the change within one frame of its routing (the ratio to
the floor near 1, the figure itself under 16.7 ms).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bench.stats import percentile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QSG_RENDER_LOOP", "basic")

from PySide6.QtQml import QQmlEngine

from bench.dock import find
from bench.transcript import frame_floor, wait_frame
from host.protocol import models as m
from nib_desktop.inbound.router import HistoryFeed, LineFeed, Router
from nib_desktop.shell.boot import create_app
from nib_desktop.shell.main_qml import close_window, load_window
from nib_desktop.shell.window import Asker, make_views
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session


def controls(step: int) -> m.AgentControls:
    return m.AgentControls.model_validate(
        {
            "sessionId": "a",
            "modes": {
                "current": "plan" if step % 2 else "default",
                "available": [{"id": "default", "name": "Default"}, {"id": "plan", "name": "Plan"}],
            },
            "usage": {"used": 1000 + step, "size": 200_000},
        }
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=300)
    args = parser.parse_args()
    create_app()
    state = AppState()
    router = Router(state, LineFeed(), HistoryFeed())
    views = make_views(state, Asker())  # held: QML reads them
    engine = QQmlEngine()
    window = load_window(engine, views)
    window.resize(1100, 760)
    wait_frame(window)
    state.apply(ev.ConnectionChanged("ready"))
    state.apply(ev.SessionsListed((Session("a", "bench", "agent", agent="Agent", folder="~/w"),)))
    find(window, "composerInput").setFocus(False)
    for _ in range(5):
        wait_frame(window, 200)
    footer = find(window, "steeringText")
    floor, told = frame_floor(engine, window, args.updates), []
    for i in range(args.updates):
        t0 = time.perf_counter()
        router.route("agents.controlsChanged", controls(i))
        wait_frame(window)
        told.append(time.perf_counter() - t0)
        shown = footer.property("text")
        if ("Plan" if i % 2 else "Default") not in shown:
            print(f"the footer did not show the change: {shown!r}", file=sys.stderr)
            return 1
    print(
        f"agents.controlsChanged -> footer -> frame: p50 {percentile(told, 50) * 1e3:5.2f} ms,"
        f" p99 {percentile(told, 99) * 1e3:5.2f} ms; floor (an item changed -> frame) p50 "
        f"{percentile(floor, 50) * 1e3:5.2f} ms, p99 {percentile(floor, 99) * 1e3:5.2f} ms; "
        f"ratio p99 {percentile(told, 99) / percentile(floor, 99):4.2f}x "
        f"(target: within one frame, 16.7 ms)"
    )
    close_window(window, engine)  # the QML before the views it binds to, as in the app
    return 0


if __name__ == "__main__":
    sys.exit(main())
