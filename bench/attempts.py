"""The runs of an attempt side by side in the real window (issue 50): three runs streaming
at once with the runs' view open, against one session streaming alone; and an attempt's
news on screen, against a checklist's.

    python -m bench.attempts [--seconds 5] [--changes 200]

Offscreen by default (the software scene graph); on a display, as the app chooses
(`DISPLAY=:N QT_QPA_PLATFORM=xcb`). Every notification goes through the window's router
as its wire model, into the state, the views and the QML, as in the app.

- three runs streaming at 200 chunks a second each, with the runs' view open and each
  run's checklist and the attempt told twice a second (as `attempts.changed` at most 4 a
  second): frame intervals (p99; target <= 16.7 ms) and the GUI thread's CPU against one
  session streaming alone with no view open (target <= 1.5x).
- `attempts.changed` routed, to the next frame swapped with the runs' view open, against
  `todos.changed` routed to the next frame with the dock shown (target: p99 within one
  frame, 16.7 ms, of the floor's).
The host's memory per run is `bench.worktrees`' and the real-agent tests' business: this
measures the window.
"""

from __future__ import annotations

import argparse
import sys
import time

import shiboken6
from PySide6.QtCore import Q_ARG, QMetaObject

from bench.stats import percentile
from bench.transcript import Frames, Stream, figures, real_window, wait_frame
from host.protocol import models as m
from nib_desktop.state import events as ev
from nib_desktop.state.types import Session

RUNS = ("a", "b", "c")
STEPS = 5


def snapshot(session: str, revision: int) -> m.TodoSnapshot:
    done = revision % (STEPS + 1)
    items = [
        {
            "content": f"Step {i + 1} of the task",
            "status": "completed" if i < done else "in_progress" if i == done else "pending",
            "activeForm": None,
        }
        for i in range(STEPS)
    ]
    return m.TodoSnapshot.model_validate(
        {
            "sessionId": session,
            "revision": revision,
            "updatedAt": "2026-12-05T10:00:00.000Z",
            "items": items,
        }
    )


def attempt(tick: int) -> m.Attempt:
    runs = [
        {
            "sessionId": run,
            "agent": "nib",
            "turn": {
                "id": f"t{run}",
                "sessionId": run,
                "state": "running",
                "error": None,
                "startedAt": "2026-12-05T10:00:00.000Z",
                "finishedAt": None,
            },
            "todos": {"completed": tick % (STEPS + 1), "total": STEPS},
            "files": tick % 7,
            "additions": tick,
            "deletions": tick // 2,
            "usage": {"used": 1000 + tick, "size": 200_000, "cost": None},
            "durationMs": None,
            "check": None,
        }
        for run in RUNS
    ]
    return m.Attempt.model_validate(
        {
            "attemptId": "x",
            "cwd": "/src/app",
            "text": "Rename the parser's tokens",
            "base": "main",
            "baseCommit": "0" * 40,
            "createdAt": "2026-12-05T10:00:00.000Z",
            "sessions": runs,
        }
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--changes", type=int, default=200)
    args = parser.parse_args()
    runs = tuple(Session(s, f"run {s}", "agent", attempt="x", running_turn=f"t{s}") for s in RUNS)
    app, scene_graph, state, router, engine, window, _views = real_window(runs)
    for run in RUNS:
        router.route("todos.changed", snapshot(run, 1))
    for _ in range(5):
        wait_frame(window, 200)
    api = window.rendererInterface().graphicsApi().name
    print(f"platform {app.platformName()}, scene graph {api} ({scene_graph}), window 1100x760")
    frames = Frames(window)
    stream = Stream(router)

    def cpu(each: object) -> tuple[float, list[float]]:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        spent = frames.record(int(args.seconds * 1000), each)
        share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
        return share, spent

    # the floor: `todos.changed` routed to the next frame, the dock shown
    floor = []
    for i in range(args.changes):
        t0 = time.perf_counter()
        router.route("todos.changed", snapshot("a", 2 + i))
        wait_frame(window)
        floor.append(time.perf_counter() - t0)

    alone, alone_frames = cpu(lambda: stream("a"))
    state.apply(ev.TurnChanged(state.turn("a")._replace(state="completed")))

    # the runs' view open on the attempt, told as the host would
    router.route("attempts.changed", attempt(0))
    QMetaObject.invokeMethod(window, "openLibrary", Q_ARG(str, "RunsDialog.qml"))
    for _ in range(5):
        wait_frame(window, 200)
    told = []
    for i in range(args.changes):
        t0 = time.perf_counter()
        router.route("attempts.changed", attempt(1 + i))
        wait_frame(window)
        told.append(time.perf_counter() - t0)

    tick = [0]

    def three() -> None:
        stream(*RUNS)
        tick[0] += 1
        if tick[0] % 100 == 0:  # every half second: a run's checklist, and the attempt
            run = RUNS[(tick[0] // 100) % len(RUNS)]
            router.route("todos.changed", snapshot(run, 1000 + tick[0]))
            router.route("attempts.changed", attempt(1000 + tick[0]))

    both, both_frames = cpu(three)
    f99, t99 = percentile(floor, 99) * 1e3, percentile(told, 99) * 1e3
    print(
        f"attempts.changed -> frame (runs' view open): p50 {percentile(told, 50) * 1e3:5.2f} "
        f"ms, p99 {t99:5.2f} ms; floor todos.changed -> frame (dock): p50 "
        f"{percentile(floor, 50) * 1e3:5.2f} ms, p99 {f99:5.2f} ms; p99 over the floor "
        f"{t99 - f99:+5.2f} ms (target <= +16.7 ms)"
    )
    print(
        f"one session streaming at 200 chunks/s, no view open: CPU {alone * 100:5.1f} % of a "
        f"core, {figures(alone_frames)}"
    )
    print(
        f"  three runs streaming, runs' view open: CPU {both * 100:5.1f} % ({both / alone:4.2f}x;"
        f" target <= 1.5x), {figures(both_frames)} (target p99 <= 16.7 ms)"
    )
    window.close()
    shiboken6.delete(engine)  # the QML before the views it binds to, as in the app
    return 0


if __name__ == "__main__":
    sys.exit(main())
