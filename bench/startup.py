"""Start-up and memory of the desktop app, next to a bare QML window measured in the
same run.

    python -m bench.startup [--runs 5] [--x11]

Start: from spawning the Python process to the main window's first frame; from spawning
the host to its ready line; and from spawning the app to its client being connected to
the host it spawned, with the sessions loaded: on a data folder with none, and on one
whose last session (a 10-step demo turn) is shown again, its transcript and checklist
loaded (in the window's state and views, the dock made; the transcript's rows are made
as the next frame is drawn). Memory: resident set of the GUI and the host after start,
and after a 20-step demo turn.

Each run measures the app and its floors one after the other (the bare window, the
models' import), and the medians are compared. Offscreen by default (Qt's software
scene graph, no GL); with --x11 the start-up figures are taken under a private Xvfb,
where the bare window draws through Mesa's OpenGL, as on a VM or a remote desktop.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench.stats import rss_mb

ROOT = Path(__file__).resolve().parent.parent

BARE = """
import sys, time
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlApplicationEngine
from PySide6.QtQuick import QQuickWindow
app = QGuiApplication(sys.argv)
engine = QQmlApplicationEngine()
engine.loadData(b"import QtQuick\\nimport QtQuick.Controls\\nApplicationWindow {"
                b" visible: true; width: 1100; height: 760; Label { text: 'x' } }")
window = engine.rootObjects()[0]
def first():
    print(f"nib-trace first-frame {time.monotonic():.6f}", flush=True)
    app.quit()
window.frameSwapped.connect(first)
app.exec()
"""

# A demo turn of N steps (argv[2]) in the app, on the data home its caller gives
# (XDG_DATA_HOME), the dock then expanded; prints the resident sets of the GUI and the
# host. Once per bench run for the memory after a 20-step turn, and once to make the data
# home whose last session (10 steps) is shown again at each start ("connected, 1 session").
TURN = """
import os, sys
sys.path.insert(0, sys.argv[1])
steps = int(sys.argv[2])
from nib_desktop.shell.lean import lean_start
lean_start()  # as the app's start does first
os.environ["NIB_DEMO_STEP_DELAY_MS"] = "0"
from host.protocol.appinfo import default_data_dir
from nib_desktop.shell.boot import create_app
from nib_desktop.shell.window import run
from nib_desktop.shell.scripted import bounded, demo_turn
from nib_desktop.link.supervisor import HostSupervisor
from nib_desktop.state import events as ev
from bench.stats import rss_mb
supervisor = HostSupervisor(default_data_dir())
async def turn(main, window):
    request = "\\n".join(f"{i}. Step number {i}" for i in range(1, steps + 1))
    await demo_turn(main, lambda s: s.revision == 2 * steps + 1, request)
    main.state.apply(ev.DockExpanded(True))
    window.update()
    import asyncio  # (after lean_start, as the app imports it)
    await asyncio.sleep(0.2)
    print(f"rss {rss_mb(os.getpid()):.1f} {rss_mb(supervisor.pid):.1f}", flush=True)
    return 0
create_app()
sys.exit(run(supervisor, bounded(turn)))
"""


def demo_turn(home: str, steps: int) -> str:
    """`TURN` on the data home `home`; what it printed."""
    return subprocess.run(
        [sys.executable, "-c", TURN, str(ROOT), str(steps)],
        capture_output=True,
        text=True,
        check=True,
        env={**env(), "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": home},
        timeout=120,
    ).stdout


def env() -> dict[str, str]:
    """As a user's start: Python keeps the modules' bytecode (a machine that sets
    PYTHONDONTWRITEBYTECODE would compile every module of the app at every start, which
    the bare window, having none, never pays)."""
    values = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("NIB_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    values.update({"QT_QPA_PLATFORM": "offscreen"})
    if DISPLAY:
        values.update({"QT_QPA_PLATFORM": "xcb", "DISPLAY": DISPLAY})
    return values


DISPLAY = ""  # set by --x11: the bench's own X server


@contextlib.contextmanager
def x_server() -> Iterator[str]:
    """A private Xvfb (Qt Quick then renders through Mesa's OpenGL, as on a VM or a
    remote desktop without a GPU); yields its display name."""
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as numbers:
        display = ":" + numbers.readline().strip()
    try:
        yield display
    finally:
        proc.terminate()
        proc.wait(10)


def measure_bare() -> float:
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", BARE], stdout=subprocess.PIPE, text=True, env=env()
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    proc.wait(30)
    return float(line[2]) - start


def measure_import(module: str) -> float:
    """A floor for the host's start: a Python that imports only `module`."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", f"import {module}"], env=env(), cwd=ROOT, check=True)
    return time.monotonic() - start


def measure_host(data: str) -> float:
    """The host alone: spawn to its ready line on stdout, on the data folder `data`."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "host", "--socket", f"{data}/s", "--data-dir", data],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**env(), "NIB_HOST_TOKEN": "bench"},
        cwd=ROOT,
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    ready = time.monotonic() - start
    proc.terminate()
    proc.wait(30)
    return ready


def measure_app(data: str) -> tuple[float, float, float, float]:
    """The app on the data home `data` (XDG_DATA_HOME)."""
    start = time.monotonic()
    proc = subprocess.Popen(  # the default data folder, as a user starts it
        [sys.executable, "-m", "nib_desktop", "--log-level", "DEBUG"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**env(), "XDG_DATA_HOME": data},
        cwd=ROOT,
    )
    assert proc.stderr is not None
    frame = ready = 0.0
    host_pid = 0
    while not ready:  # the app's debug log names both moments on the system's clock
        line = proc.stderr.readline()
        if not line:
            raise RuntimeError("the app exited before it was ready")
        if "first frame drawn at monotonic" in line:
            frame = float(line.split()[-1]) - start
        elif " ready at monotonic " in line:
            ready = float(line.split()[-1]) - start
            host_pid = int(line.split(" ready at")[0].split()[-1])
    gui_rss, host_rss = rss_mb(proc.pid), rss_mb(host_pid)
    proc.terminate()
    proc.wait(30)
    return frame, ready, gui_rss, host_rss


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--x11",
        action="store_true",
        help="the start-up figures under a private Xvfb instead of offscreen (memory stays "
        "offscreen)",
    )
    args = parser.parse_args()
    if args.x11:
        global DISPLAY
        with x_server() as display:
            DISPLAY = display
            return measure(args)
    return measure(args)


def measure(args: argparse.Namespace) -> int:
    # As a user starts it many times a day: on a data folder that exists (its database,
    # the last known sessions), made by the warm-up runs; and likewise the host alone.
    bares: list[float] = []
    runs: list[tuple[float, float, float, float]] = []
    hosts: list[float] = []
    protocols: list[float] = []
    models_runs: list[float] = []
    shown_runs: list[float] = []
    with tempfile.TemporaryDirectory(prefix="nib-bench-") as temporary:
        home, folder = f"{temporary}/home", f"{temporary}/host"
        with_session = f"{temporary}/session"
        demo_turn(with_session, 10)
        measure_bare()  # warm the file cache for both, and the app's bytecode
        measure_app(home)
        measure_app(home)
        measure_app(with_session)
        measure_host(folder)
        # Each run measures the app and its floors one after the other, so that the
        # machine's drift (a VM's neighbours, its clock) weighs on both alike.
        for _ in range(args.runs):
            bares.append(measure_bare())
            runs.append(measure_app(home))
            shown_runs.append(measure_app(with_session)[1])
            models_runs.append(measure_import("host.protocol.models"))
            hosts.append(measure_host(folder))
            protocols.append(measure_import("host.protocol"))
        told = demo_turn(f"{temporary}/turn", 20)  # the memory after a 20-step turn
    bare = statistics.median(bares)
    host_alone = statistics.median(hosts)
    protocol = statistics.median(protocols)
    models = statistics.median(models_runs)
    print(
        "runs (ms): "
        + "; ".join(
            f"bare {b * 1e3:.0f} frame {r[0] * 1e3:.0f} connected {r[1] * 1e3:.0f} "
            f"models {mo * 1e3:.0f} host {h * 1e3:.0f}"
            for b, r, mo, h in zip(bares, runs, models_runs, hosts, strict=True)
        )
    )
    frame = statistics.median(r[0] for r in runs)
    ready = statistics.median(r[1] for r in runs)
    gui = statistics.median(r[2] for r in runs)
    host = statistics.median(r[3] for r in runs)
    line = next((ln for ln in told.splitlines() if ln.startswith("rss ")), "rss nan nan")
    gui_after, host_after = (float(v) for v in line.split()[1:])
    where = f"under Xvfb ({DISPLAY})" if DISPLAY else "offscreen"
    print(f"median of {args.runs} runs, {where}")
    print(f"bare QML window, first frame       {bare * 1e3:7.1f} ms (floor)")
    shown = statistics.median(shown_runs)
    rows = (
        ("first frame", frame, "target <= 1.3x"),
        ("host ready", host_alone, "target -"),
        ("connected", ready, "target <= 1.8x, sessions shown"),
        ("connected, 1 session", shown, "the same, its transcript and checklist loaded too"),
    )
    for label, value, target in rows:
        print(
            f"Nib Desktop, {label:<20} {value * 1e3:7.1f} ms  {value / bare:5.2f}x floor"
            f"  ({target})"
        )
    print(
        f"host ready {host_alone * 1e3:.1f} ms against `import host.protocol` "
        f"{protocol * 1e3:.1f} ms: {host_alone / protocol:.2f}x; "
        f"against `import host.protocol.models` (pydantic and the contract's models) "
        f"{models * 1e3:.1f} ms: {host_alone / models:.2f}x (target <= 1.2x)"
    )
    print(f"RSS after start: GUI {gui:6.1f} MB, host {host:6.1f} MB (target <= 45)")
    print(
        f"RSS after a 20-step demo turn: GUI {gui_after:6.1f} MB (target <= 110), "
        f"host {host_after:6.1f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
