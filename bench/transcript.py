"""The transcript's cost in the real window (issue 32): streamed text, a long diff, a
Markdown message streamed, and three sessions streaming at once.

    python -m bench.transcript [--seconds 5]

Offscreen by default (the software scene graph); on a display, as the app chooses:
`DISPLAY=:N QT_QPA_PLATFORM=xcb python -m bench.transcript` (OpenGL through llvmpipe
under Xvfb). Every delta goes through the window's router as `messages.delta` (the wire
model validated from its JSON fields, as the connection does), into the state, the view
and the QML, as in the app.

- chunk -> frame: one delta routed, to the next frame swapped (p50, p99); the floor: a
  1-pixel item's colour changed, to the next frame. Added to `bench.streaming`'s host part
  (a chunk's arrival at a client), it is the chunk on screen (target p99 <= 66.7 ms).
- a 2,000-line diff: the first frame after its line is appended, against appending a
  plain line (target <= 16.7 ms over it); then unfolded and scrolled 40 px a frame:
  the frame intervals (target: none over 16.7 ms, against the same scroll of plain lines).
- a Markdown message streamed at 200 chunks a second for `--seconds`: frame intervals
  (p50, p99, max; target no frame over 16.7 ms), and the frame when it is stored whole.
- three sessions streaming at 200 chunks a second each, one shown: the GUI thread's CPU
  against one session streaming alone (target <= 1.5x), and the frame intervals' p99.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import NamedTuple

from bench.stats import percentile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QSG_RENDER_LOOP", "basic")  # one thread renders and is measured

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer, QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlComponent, QQmlEngine
from PySide6.QtQuick import QQuickItem, QQuickWindow

from bench.dock import find, spin
from host.protocol import models as m
from nib_desktop.inbound.router import HistoryFeed, LineFeed, Router
from nib_desktop.shell.boot import create_app
from nib_desktop.shell.graphics import choose_scene_graph
from nib_desktop.shell.main_qml import close_window, load_window
from nib_desktop.shell.window import Asker, make_views
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.state.transcript_lines import Line
from nib_desktop.state.types import Session

SESSIONS = ("a", "b", "c")
CHUNK = "Streaming **Markdown** with `code` and words, "  # 46 characters, no newline


def wait_frame(window: QQuickWindow, timeout_ms: int = 2000) -> bool:
    """Until the next frame is swapped (False: none within `timeout_ms`)."""
    loop = QEventLoop()
    swapped: list[int] = []

    def done() -> None:
        swapped.append(1)
        loop.quit()

    window.frameSwapped.connect(done)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    window.frameSwapped.disconnect(done)
    return bool(swapped)


def frame_floor(engine: QQmlEngine, window: QQuickWindow, n: int) -> list[float]:
    """The floor of a window's update: a 1-pixel item's colour changed, to the next frame
    swapped, `n` times (seconds each)."""
    component = QQmlComponent(engine)
    component.setData(b"import QtQuick\nRectangle { width: 1; height: 1 }", QUrl())
    dot = component.create()
    assert isinstance(dot, QQuickItem)
    dot.setParentItem(window.contentItem())
    floor = []
    for i in range(n):
        t0 = time.perf_counter()
        dot.setProperty("color", "#ff0000" if i % 2 else "#00ff00")
        wait_frame(window)
        floor.append(time.perf_counter() - t0)
    return floor


def delta(session: str, text: str) -> m.MessageDelta:
    return m.MessageDelta.model_validate(
        {"sessionId": session, "turnId": "t", "kind": "text", "text": text}
    )


def history() -> tuple[Line, ...]:
    """A transcript of 40 lines the view holds before each measure."""
    lines = []
    for i in range(20):
        lines.append(Line("user", f"Question {i}: what does part {i} do?", seq=2 * i + 1))
        lines.append(Line("assistant", f"Part {i} **does** this:\n\n- one\n- two", seq=2 * i + 2))
    return tuple(lines)


def diff_line(lines: int, seq: int) -> Line:
    body = "\n".join(f"{'+' if i % 3 else '-'}line {i} of the file, changed" for i in range(lines))
    detail = f"--- app.py\n+++ app.py\n@@ -1,{lines} +1,{lines} @@\n{body}"
    return Line(
        "tool_call",
        f"✓ Edited app.py +{lines} −{lines}",
        seq=seq,
        detail=detail,
        detail_kind="diff",
        call_id=f"d{seq}",
    )


class Frames:
    """The intervals between the frames swapped while it records."""

    def __init__(self, window: QQuickWindow) -> None:
        self.clock = QElapsedTimer()
        self.clock.start()
        self.times: list[float] = []
        self.on = False
        window.frameSwapped.connect(self._swapped)

    def _swapped(self) -> None:
        if self.on:
            self.times.append(self.clock.nsecsElapsed() / 1e6)

    def record(self, ms: int, each: object = None, every_ms: int = 5) -> list[float]:
        """Spin `ms` with `each()` run every `every_ms`; the frame intervals in ms."""
        self.times.clear()
        timer = QTimer()
        timer.setInterval(every_ms)
        if callable(each):
            timer.timeout.connect(each)
            timer.start()
        self.on = True
        spin(ms)
        self.on = False
        timer.stop()
        return [b - a for a, b in zip(self.times, self.times[1:], strict=False)]


def figures(intervals: list[float]) -> str:
    if not intervals:
        return "no frames"
    over = sum(1 for x in intervals if x > 16.7 + 1.0)  # a timer's millisecond of slack
    return (
        f"p50 {percentile(intervals, 50):5.1f} ms, p99 {percentile(intervals, 99):5.1f} ms, "
        f"max {max(intervals):5.1f} ms, {over} of {len(intervals)} over 16.7 ms"
    )


class Stream:
    """A Markdown message streamed into sessions through the router, a chunk per call: a
    paragraph every 8 chunks (a Markdown message's blank lines), pieces between."""

    def __init__(self, router: Router) -> None:
        self.router = router
        self.sent: list[str] = []

    def __call__(self, *sessions: str) -> None:
        chunk = CHUNK + ("\n\n" if len(self.sent) % 8 == 7 else "")
        for session in sessions:
            self.router.route("messages.delta", delta(session, chunk))
        self.sent.append(chunk)


class Window(NamedTuple):
    """The app's real window on a state no host feeds: what a benchmark routes goes
    through its router, as the host's notifications do."""

    app: QGuiApplication
    scene_graph: str
    state: AppState
    router: Router
    engine: QQmlEngine
    window: QQuickWindow
    views: object  # the view models the QML binds to, kept alive as long as it


def real_window(sessions: tuple[Session, ...]) -> Window:
    """The window at 1100x760, connected, `sessions` listed, the first one shown with 40
    lines of transcript."""
    app = create_app()
    scene_graph = choose_scene_graph(app)
    state = AppState()
    router = Router(state, LineFeed(), HistoryFeed())
    views = make_views(state, Asker())
    engine = QQmlEngine()
    window = load_window(engine, views)
    window.resize(1100, 760)
    wait_frame(window)
    state.apply(ev.ConnectionChanged("ready"))
    state.apply(ev.SessionsListed(sessions))
    shown = history()
    state.apply(ev.TranscriptPage(sessions[0].session_id, shown, False, 1, newest_seq=len(shown)))
    # as the app does once started (`nib_desktop.shell.window.run`): what start-up made
    # is left out of the collector's full passes, each a pause of the window
    import gc

    gc.freeze()
    return Window(app, scene_graph, state, router, engine, window, views)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--chunks", type=int, default=300)
    args = parser.parse_args()
    made = real_window(tuple(Session(s, f"session {s}", "agent") for s in SESSIONS))
    app, scene_graph, state, router, engine, window, _views = made
    find(window, "composerInput").setFocus(False)  # no blinking cursor in the measures
    for _ in range(5):
        wait_frame(window, 200)
    api = window.rendererInterface().graphicsApi().name
    print(
        f"platform {app.platformName()}, scene graph {api} (choice: {scene_graph}), "
        f"render loop {os.environ.get('QSG_RENDER_LOOP')}, window 1100x760"
    )
    frames = Frames(window)

    # chunk -> frame, against a 1-pixel item's change -> frame
    floor, late = frame_floor(engine, window, args.chunks), []
    for _ in range(args.chunks):
        t0 = time.perf_counter()
        router.route("messages.delta", delta("a", CHUNK))
        wait_frame(window)
        late.append(time.perf_counter() - t0)
    state.apply(ev.TurnChanged(state.turn("a")._replace(state="completed")))
    print(
        f"chunk -> frame: p50 {percentile(late, 50) * 1e3:5.2f} ms, p99 "
        f"{percentile(late, 99) * 1e3:5.2f} ms; floor (an item changed -> frame) p50 "
        f"{percentile(floor, 50) * 1e3:5.2f} ms, p99 {percentile(floor, 99) * 1e3:5.2f} ms; "
        f"ratio p99 {percentile(late, 99) / percentile(floor, 99):4.2f}x"
    )

    # a 2,000-line diff: its first frame against a plain line's, then scrolled unfolded
    plain_first, diff_first = [], []
    for i in range(10):
        seq = 1000 + 2 * i
        t0 = time.perf_counter()
        state.apply(ev.LinesAppended("a", (Line("assistant", f"plain {i}", seq=seq),)))
        wait_frame(window)
        plain_first.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        state.apply(ev.LinesAppended("a", (diff_line(2000, seq + 1),)))
        wait_frame(window)
        diff_first.append(time.perf_counter() - t0)
    print(
        f"2,000-line diff appended: first frame p50 {percentile(diff_first, 50) * 1e3:5.2f} "
        f"ms, max {max(diff_first) * 1e3:5.2f} ms; a plain line's p50 "
        f"{percentile(plain_first, 50) * 1e3:5.2f} ms; over it by "
        f"{(percentile(diff_first, 50) - percentile(plain_first, 50)) * 1e3:5.2f} ms "
        f"(target <= 16.7 ms)"
    )
    listview = find(window, "transcriptList")

    def scroll() -> None:
        top = listview.property("originY")
        bottom = top + listview.property("contentHeight") - listview.height()
        y = listview.property("contentY") - 40
        listview.setProperty("contentY", y if y > top else bottom)

    listview.setProperty("unfoldAll", True)
    t0 = time.perf_counter()
    wait_frame(window)
    unfolded = time.perf_counter() - t0
    scrolled = frames.record(int(args.seconds * 1000), scroll, 16)
    listview.setProperty("unfoldAll", False)
    state.apply(ev.TranscriptPage("a", history(), False, 1, newest_seq=len(history())))
    wait_frame(window)
    listview.setProperty("contentY", listview.property("originY"))
    plain_scroll = frames.record(int(args.seconds * 1000), scroll, 16)
    print(
        f"10 diffs of 2,000 lines unfolded: first frame {unfolded * 1e3:5.1f} ms; scrolled "
        f"40 px a frame: {figures(scrolled)}"
    )
    print(f"  the floor, 40 plain lines scrolled the same: {figures(plain_scroll)}")

    # a Markdown message streamed at 200 chunks a second, then stored whole
    idle = frames.record(1000)
    stream = Stream(router)
    sent = stream.sent

    streamed = frames.record(int(args.seconds * 1000), lambda: stream("a"))
    whole = "".join(sent)
    t0 = time.perf_counter()
    state.apply(ev.LinesAppended("a", (Line("assistant", whole, seq=5000),)))
    wait_frame(window)
    stored = time.perf_counter() - t0
    print(
        f"Markdown streamed at 200 chunks/s for {args.seconds:g} s ({len(whole):,} "
        f"characters): {figures(streamed)}; stored whole: first frame {stored * 1e3:5.1f} ms"
    )
    print(f"  idle window (floor): {figures(idle)}")

    # the worst case: one paragraph that never breaks (chunks without a newline)
    state.apply(ev.LinesAppended("a", (Line("assistant", "stored", seq=5500),)))

    def unbroken() -> None:
        router.route("messages.delta", delta("a", CHUNK))

    one_paragraph = frames.record(int(args.seconds * 1000), unbroken)
    state.apply(ev.LinesAppended("a", (Line("assistant", "stored", seq=5501),)))
    print(f"  one paragraph with no newline streamed the same: {figures(one_paragraph)}")

    # one session streaming, then three (one shown): the GUI thread's CPU
    def cpu(each: object) -> tuple[float, list[float]]:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        spent = frames.record(int(args.seconds * 1000), each)
        share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
        state.apply(ev.LinesAppended("a", (Line("assistant", "stored", seq=6000 + len(sent)),)))
        sent.append("")
        return share, spent

    alone, alone_frames = cpu(lambda: stream("a"))
    three, three_frames = cpu(lambda: stream(*SESSIONS))
    print(
        f"streaming at 200 chunks/s, one session: CPU {alone * 100:5.1f} % of a core, "
        f"{figures(alone_frames)}"
    )
    print(
        f"  three sessions (one shown): CPU {three * 100:5.1f} % ({three / alone:4.2f}x; "
        f"target <= 1.5x), {figures(three_frames)}"
    )
    close_window(window, engine)  # the QML before the views it binds to, as in the app
    return 0


if __name__ == "__main__":
    sys.exit(main())
