"""Progress outside the window: what the title, the badge and the launcher entry cost per
checklist update, against the dock's own update in the same run (target <= 0.2x), and
the D-Bus traffic while nothing changes (target: none).

    QT_QPA_PLATFORM=offscreen python -m bench.outside [--updates 2000]

The dock's cost is its view following the state (`DockView`: rows, headline, progress);
the outside cost is the window title's computation plus `Outside` (the launcher entry
computed and, when it changed, the badge set and the Update signal sent on a real
session bus, `dbus-daemon --session`, when the machine has one)."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from collections.abc import Callable

from PySide6.QtGui import QGuiApplication, QWindow


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--updates", type=int, default=2000)
    args = parser.parse_args(argv)
    app = QGuiApplication.instance() or QGuiApplication([])
    from nib_desktop.outside.progress import Outside
    from nib_desktop.shell.event_loop import qt_event_loop
    from nib_desktop.state import events as ev
    from nib_desktop.state.outside import window_title
    from nib_desktop.state.store import AppState
    from nib_desktop.state.types import Item, Session, Snapshot, TurnView
    from ui.views.dock import DockView

    loop = qt_event_loop(app)
    asyncio.set_event_loop(loop)

    def fresh() -> AppState:
        state = AppState()
        state.apply(ev.SessionsListed((Session("s", "Bench", "agent", running_turn="t"),)))
        state.apply(ev.SessionShown("s"))
        state.apply(ev.TurnChanged(TurnView("s", "running", "", "t", "2026-01-01T00:00:00Z")))
        return state

    def updates(state: AppState) -> Callable[[int], None]:
        def one(k: int) -> None:
            n = 20
            done = k % (n + 1)

            def status(i: int) -> str:
                return "completed" if i < done else "in_progress" if i == done else "pending"

            items = tuple(Item(f"Step {i}", status(i)) for i in range(n))  # type: ignore[arg-type]
            state.apply(ev.SnapshotArrived(Snapshot("s", k + 1, items)))

        return one

    def timed(state: AppState) -> float:
        apply = updates(state)
        started = time.perf_counter()
        for k in range(args.updates):
            apply(k)
        return (time.perf_counter() - started) / args.updates

    with tempfile.TemporaryDirectory(prefix="nib-bench-outside-") as tmp:
        address = None
        daemon = None
        if shutil.which("dbus-daemon"):
            import subprocess

            daemon = subprocess.Popen(
                [
                    "dbus-daemon",
                    "--session",
                    "--nofork",
                    f"--address=unix:path={tmp}/bus",
                    "--print-address=1",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            assert daemon.stdout is not None
            address = daemon.stdout.readline().strip()
        try:
            bare = fresh()
            dock = DockView(bare, lambda _intent: None)
            base = fresh()
            floor = timed(base)  # the state alone
            dock_cost = timed(bare) - floor

            outside_state = fresh()
            window = QWindow()
            outside = Outside(outside_state, window, lambda _intent: None)  # type: ignore[arg-type]
            loop.run_until_complete(outside.start(address))
            sent: list[float] = []
            if outside.bus is not None:
                real = outside.bus.launcher

                async def counting(*a: object) -> None:
                    sent.append(time.perf_counter())
                    await real(*a)  # type: ignore[arg-type]

                outside.bus.launcher = counting  # type: ignore[method-assign]
            titles = [0]
            outside_state.subscribe(
                lambda _e, _c: titles.__setitem__(0, len(window_title(outside_state)))
            )
            cost = timed(outside_state) - floor
            loop.run_until_complete(asyncio.sleep(0.2))  # the signals queued are sent
            before = len(sent)
            for k in range(args.updates):  # nothing the outside shows changes
                outside_state.apply(ev.DraftSaved("s", f"typing {k}"))
            loop.run_until_complete(asyncio.sleep(0.2))
            quiet = len(sent) - before
            loop.run_until_complete(outside.close())
            del dock
        finally:
            if daemon is not None:
                daemon.terminate()
                daemon.wait(10)
                if daemon.stdout is not None:
                    daemon.stdout.close()
    bus = "a real session bus" if address else "no session bus"
    print(f"per checklist update ({args.updates} updates of 20 items, {bus}):")
    print(f"  dock view: {dock_cost * 1e6:.1f} µs")
    print(
        f"  title + badge + launcher entry: {cost * 1e6:.1f} µs ({len(sent)} Update signals sent)"
    )
    print(f"  ratio (target <= 0.2): {cost / dock_cost:.3f}x")
    print(f"D-Bus signals while nothing changed ({args.updates} unrelated events): {quiet}")


if __name__ == "__main__":
    main()
