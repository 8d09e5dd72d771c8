"""Start-up and memory of the desktop app, next to a bare QML window measured in the
same run.

    python -m bench.startup [--runs 5]

Start: from spawning the Python process to the main window's first frame, and to the
host being ready (its ready line read and the client connected). Memory: resident set of
the GUI and the host after start, and after a 20-step demo turn.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BARE = """
import sys, time
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlApplicationEngine
from PySide6.QtQuick import QQuickWindow
app = QGuiApplication(sys.argv)
engine = QQmlApplicationEngine()
engine.loadData(b"import QtQuick\\nimport QtQuick.Controls\\nApplicationWindow { visible: true; width: 1100; height: 760; Label { text: 'bare' } }")
window = engine.rootObjects()[0]
def first():
    print(f"nib-trace first-frame {time.monotonic():.6f}", flush=True)
    app.quit()
window.frameSwapped.connect(first)
app.exec()
"""

TURN = """
import asyncio, os, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
os.environ["NIB_DEMO_STEP_DELAY_MS"] = "0"
from nib_desktop.boot import create_app
from nib_desktop.window import load_window, next_frame, wait_until
from nib_desktop.controller import MainController
from nib_desktop.supervisor import HostSupervisor
from PySide6.QtQml import QQmlApplicationEngine
import qasync
app = create_app()
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
controller = MainController(HostSupervisor(Path(tempfile.mkdtemp())))
engine = QQmlApplicationEngine()
window = load_window(engine, controller)
def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
async def go():
    await controller.start()
    session = await controller.create_session("agent")
    await controller.send_message("\\n".join(f"{i}. Step number {i}" for i in range(1, 21)))
    await wait_until(lambda: (s := controller.store.get(session.id)) is not None and s.revision == 41, 60, "turn")
    controller.dock_model.setProperty("expanded", True)
    await next_frame(window)
    print(f"rss {rss(os.getpid()):.1f} {rss(controller.supervisor.pid):.1f}", flush=True)
    await controller.shutdown()
with loop:
    loop.run_until_complete(go())
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def env() -> dict[str, str]:
    values = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    values.update({"QT_QPA_PLATFORM": "offscreen", "NIB_TRACE_STARTUP": "1"})
    return values


def measure_bare() -> float:
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", BARE], stdout=subprocess.PIPE, text=True, env=env()
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    proc.wait(30)
    return float(line[2]) - start


def measure_app() -> tuple[float, float, float, float]:
    with tempfile.TemporaryDirectory() as data:
        start = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "nib_desktop", "--data-dir", data],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env(), cwd=ROOT,
        )  # fmt: skip
        assert proc.stdout is not None
        marks: dict[str, list[str]] = {}
        while len(marks) < 2:
            parts = proc.stdout.readline().split()
            if not parts:
                raise RuntimeError("the app exited before it was ready")
            if parts[0] == "nib-trace":
                marks[parts[1]] = parts[2:]
        frame = float(marks["first-frame"][0]) - start
        ready = float(marks["host-ready"][0]) - start
        host_pid = int(marks["host-ready"][1])
        gui_rss, host_rss = rss_mb(proc.pid), rss_mb(host_pid)
        proc.terminate()
        proc.wait(30)
        return frame, ready, gui_rss, host_rss


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    measure_bare()  # warm the file cache for both
    bare = statistics.median(measure_bare() for _ in range(args.runs))
    runs = [measure_app() for _ in range(args.runs)]
    frame = statistics.median(r[0] for r in runs)
    ready = statistics.median(r[1] for r in runs)
    gui = statistics.median(r[2] for r in runs)
    host = statistics.median(r[3] for r in runs)
    turn = subprocess.run([sys.executable, "-c", TURN, str(ROOT)], capture_output=True, text=True,
                          env=env(), timeout=120)  # fmt: skip
    line = next((ln for ln in turn.stdout.splitlines() if ln.startswith("rss ")), "rss nan nan")
    gui_after, host_after = (float(v) for v in line.split()[1:])
    print(f"median of {args.runs} runs, offscreen")
    print(f"bare QML window, first frame   {bare * 1e3:7.1f} ms (floor)")
    print(
        f"Nib Desktop, first frame       {frame * 1e3:7.1f} ms  {frame / bare:5.2f}x floor  (target 250 ms)"
    )
    print(
        f"Nib Desktop, host ready        {ready * 1e3:7.1f} ms  {ready / bare:5.2f}x floor  (target 300 ms)"
    )
    print(f"RSS after start: GUI {gui:6.1f} MB (target 120), host {host:6.1f} MB (target 60)")
    print(f"RSS after a 20-step demo turn: GUI {gui_after:6.1f} MB, host {host_after:6.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
