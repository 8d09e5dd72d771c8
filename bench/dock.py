"""The TodoDock's cost, in the real window (offscreen by default: software scene graph).

    python -m bench.dock [--iterations 200] [--sweep-seconds 10]

On a real display too: `DISPLAY=:N QT_QPA_PLATFORM=xcb python -m bench.dock`, with the
app's own choice of scene graph, and `NIB_SCENE_GRAPH=opengl` to force OpenGL.

- update latency: a snapshot applied to the state (as the router does) -> dock view ->
  the next frame swapped, for 10 and 200 items (p50/p99);
- 10,000 items: store-level apply + model update (validation caps writes at 200, so this
  is the renderer's own limit), the expanded dock's first frame and its live delegates;
- CPU share of one core while the sweep runs, and with no running step, with the frames
  drawn in each window; the floor is the same window idle with the dock hidden.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bench.stats import percentile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# one thread renders and is measured: the threaded loop's frame signal comes from another
# thread, which the frame waits below do not follow
os.environ.setdefault("QSG_RENDER_LOOP", "basic")

from PySide6.QtCore import QEventLoop, QTimer, QUrl
from PySide6.QtQml import QQmlComponent, QQmlEngine
from PySide6.QtQuick import QQuickItem, QQuickWindow

from harness.gui import walk
from nib_desktop.shell.boot import create_app
from nib_desktop.shell.graphics import choose_scene_graph
from nib_desktop.shell.main_qml import close_window, load_window
from nib_desktop.shell.window import Asker, make_views
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session
from ui.snapshots import Item, Snapshot, TurnView

SESSION = "bench"


def wait_frame(window: QQuickWindow, timeout_ms: int = 2000) -> bool:
    loop = QEventLoop()
    swapped = []
    window.frameSwapped.connect(loop.quit)
    window.frameSwapped.connect(lambda: swapped.append(1))
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    window.frameSwapped.disconnect()
    return bool(swapped)


def spin(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def items(n: int, step: int, running: bool = False) -> tuple[Item, ...]:
    done = step % (n + 1)
    out = []
    for i in range(n):
        if i < done:
            out.append(Item(f"Step {i}: finish part {i} of the work", "completed"))
        elif i == done and running:
            out.append(Item(f"Step {i}: do part {i}", "in_progress", f"Doing part {i}"))
        else:
            out.append(Item(f"Step {i}: do part {i} of the work", "pending"))
    return tuple(out)


def delegates(window: QQuickWindow) -> int:
    return sum(1 for item in walk(window.contentItem()) if item.objectName() == "todoRow")


def find(window: QQuickWindow, name: str) -> QQuickItem:
    return next(item for item in walk(window.contentItem()) if item.objectName() == name)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--sweep-seconds", type=float, default=10.0)
    args = parser.parse_args()
    app = create_app()
    scene_graph = choose_scene_graph(app)  # as the app does; NIB_SCENE_GRAPH overrides
    state = AppState()
    views = make_views(state, Asker())
    engine = QQmlEngine()
    window = load_window(engine, views)
    window.resize(1100, 760)
    wait_frame(window)
    state.apply(ev.ConnectionChanged("ready"))  # as if the host were connected: no busy indicator
    state.apply(ev.SessionsListed((Session(SESSION, "bench", "agent"),)))
    state.apply(ev.DockExpanded(True))
    revision = 0

    def push(snapshot_items: tuple[Item, ...]) -> None:
        nonlocal revision
        revision += 1
        state.apply(ev.SnapshotArrived(Snapshot(SESSION, revision, snapshot_items)))

    api = window.rendererInterface().graphicsApi().name
    print(
        f"platform {app.platformName()}, scene graph {api} (choice: {scene_graph}), "
        f"render loop {os.environ.get('QSG_RENDER_LOOP', 'default')}, window 1100x760, "
        f"{args.iterations} updates per size"
    )
    for n in (10, 200):
        push(items(n, 0))
        wait_frame(window)
        latencies = []
        for step in range(1, args.iterations + 1):
            t0 = time.perf_counter()
            push(items(n, step))
            if not wait_frame(window):
                print("no frame after an update", file=sys.stderr)
                return 1
            latencies.append(time.perf_counter() - t0)
        print(
            f"{n:>6} items: update -> frame p50 {percentile(latencies, 50) * 1e3:6.2f} ms, "
            f"p99 {percentile(latencies, 99) * 1e3:6.2f} ms (target p99 <= 16.7 ms at 200)"
        )

    big = [items(10_000, step) for step in range(21)]
    store_times = []
    for snapshot_items in big[1:]:
        t0 = time.perf_counter()
        push(snapshot_items)
        store_times.append(time.perf_counter() - t0)
    print(
        f" 10000 items: store + model update p50 {percentile(store_times, 50) * 1e3:6.2f} ms, "
        f"p99 {percentile(store_times, 99) * 1e3:6.2f} ms (no frame)"
    )
    state.apply(ev.DockExpanded(False))
    wait_frame(window)
    listview = find(window, "dockList")
    t0 = time.perf_counter()
    state.apply(ev.DockExpanded(True))
    frames = 0
    while frames < 10:  # the frame that shows the list at its full height
        wait_frame(window)
        frames += 1
        if listview.height() > 0:
            break
    first = time.perf_counter() - t0
    print(
        f" 10000 items: expanded dock's first frame {first * 1e3:6.2f} ms ({frames} frames;"
        f" target 15 ms), "
        f"live delegates {delegates(window)} (target <= 40)"
    )

    def cpu_share(seconds: float) -> tuple[float, int]:
        # no blinking text cursor in the CPU windows: the dock alone is measured
        find(window, "composerInput").setFocus(False)
        spin(1000)  # let any fading scroll bar finish first
        frames = []
        window.frameSwapped.connect(lambda: frames.append(1))
        cpu0, wall0 = time.process_time(), time.perf_counter()
        spin(int(seconds * 1000))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        window.frameSwapped.disconnect()
        return cpu / wall * 100, len(frames)

    push(())  # hidden dock: the floor
    wait_frame(window)
    floor_cpu, floor_frames = cpu_share(args.sweep_seconds)
    # a second floor: the cost of any 60 fps animation in this window (a 1-pixel
    # rectangle moving), which the sweep pays too
    component = QQmlComponent(engine)
    component.setData(
        b"import QtQuick\nRectangle { width: 1; height: 1; color: 'transparent';"
        b" NumberAnimation on x { from: 0; to: 50; duration: 1000;"
        b" loops: Animation.Infinite } }",
        QUrl(),
    )
    mover = component.create()
    mover.setParentItem(window.contentItem())
    anim_cpu, anim_frames = cpu_share(args.sweep_seconds)
    mover.deleteLater()
    push(items(8, 3))
    wait_frame(window)
    idle_cpu, idle_frames = cpu_share(args.sweep_seconds)
    state.apply(ev.TurnChanged(TurnView(SESSION, "running")))
    push(items(8, 3, running=True))
    wait_frame(window)
    sweep_cpu, sweep_frames = cpu_share(args.sweep_seconds)
    state.apply(ev.DockExpanded(False))  # the collapsed header carries the sweep
    wait_frame(window)
    header_cpu, header_frames = cpu_share(args.sweep_seconds)
    state.apply(ev.TurnChanged(TurnView(SESSION, "cancelled")))  # the turn stops
    wait_frame(window)
    ended_cpu, ended_frames = cpu_share(args.sweep_seconds)
    print(f"CPU over {args.sweep_seconds:g} s (share of one core, frames drawn):")
    print(f"  dock hidden (floor)      {floor_cpu:5.2f} %  {floor_frames:4d} frames")
    print(f"  any 60 fps animation     {anim_cpu:5.2f} %  {anim_frames:4d} frames (floor)")
    print(f"  no running step          {idle_cpu:5.2f} %  {idle_frames:4d} frames (target 0)")
    for label, cpu, frames in (
        ("sweep, expanded row", sweep_cpu, sweep_frames),
        ("sweep, collapsed header", header_cpu, header_frames),
    ):
        print(
            f"  {label:<24} {cpu:5.2f} %  {frames:4d} frames "
            f"(target <= 4 %; {cpu / max(anim_cpu, 0.01):.2f}x any animation)"
        )
    print(f"  turn stopped             {ended_cpu:5.2f} %  {ended_frames:4d} frames (target 0)")
    close_window(window, engine)  # the QML goes before the views it binds to, as in the app
    return 0


if __name__ == "__main__":
    sys.exit(main())
