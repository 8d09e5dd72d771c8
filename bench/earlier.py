"""An agent's own earlier sessions and going back to a message (contract section 20,
issue 52), each figure beside its floor measured in the same run. The scripted agent
(`harness/acp_agent.py`) plays the agent.

    python -m bench.earlier [--updates 5000] [--sessions 1000] [--runs 3]

- Import: `sessions.import` of a session whose `session/load` replays `--updates`
  updates (the agent's messages and tool calls), answered when it is stored; the floor,
  the same updates told live in a turn of a session of the same agent (`turns.start` to
  the turn's end), which stores the same messages through the host's normal path.
  Target: a ratio <= 1.5. Meanwhile a second client asks `sessions.list` every 20 ms: its
  longest wait is how long the import held the host's loop (target: never over 20 ms;
  the floor is its longest wait with the host idle).
- Going back: `sessions.rewind` at a message of the user's 1,000 messages back in a
  session of 4,000 (an imported chat), beside `sessions.fork` of the whole session.
  Target: a ratio <= 1.5.
- Listing, in the real window (offscreen): from the agent's answer to `session/list`
  (its time just before the answer goes) to the first page's rows in the window's list
  and the frame that shows them, for `--sessions` sessions paged 200 at a time; the floor
  the same for 3 sessions. Target: <= 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.reliability import with_health
from bench.stats import percentile
from harness import ACP_AGENT
from harness.host_process import RpcClient, host_env, running_host

NAME = "scripted"


def settings(data: Path, env: dict[str, str] | None = None) -> None:
    data.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(ACP_AGENT), "--sessions"], "env": env or {}}
    (data / "settings.json").write_text(json.dumps({"agents": {NAME: entry}}))


def import_and_rewind(folder: Path, updates: int, runs: int) -> None:
    data, cwd = folder / "host", folder / "work"
    cwd.mkdir(parents=True)
    settings(data)
    path = str(folder / "h.sock")
    with running_host(data, path, host_env(HOME=str(folder))):
        client = RpcClient(path, timeout=300)
        client.hello()
        # the agent started, and a turn run once, before anything is timed
        warm = client.call("sessions.create", {"agent": NAME, "cwd": str(cwd)})["id"]
        started = client.call("turns.start", {"sessionId": warm, "text": "hello"})
        client.wait_turn_end(started["id"], 60)
        idle = with_health(path, lambda: time.sleep(1.0))

        imports: list[float] = []
        floors: list[float] = []
        stalls: list[float] = []
        for run in range(runs):
            sid = client.call("sessions.create", {"agent": NAME, "cwd": str(cwd)})["id"]
            t0 = time.perf_counter()
            begun = client.call("turns.start", {"sessionId": sid, "text": f"many {updates}"})
            ended = client.wait_turn_end(begun["id"], 300)
            floors.append(time.perf_counter() - t0)
            assert ended["state"] == "completed", ended
            # a new agent-side session each run ("big-N": N updates replayed)
            asked = {"agent": NAME, "agentSessionId": f"big-{updates + run}", "cwd": str(cwd)}

            def load(asked: dict[str, str] = asked) -> None:
                imports.append(timed(client, asked)[0])

            stalls.append(max(with_health(path, load)))
            client.notifications.clear()
        total = client.call("messages.list", {"sessionId": sid, "limit": 1})["total"]
        print(f"import of {updates:,} replayed updates ({runs} runs; {total:,} messages each)")
        for name, values in (("import", imports), ("live turn (floor)", floors)):
            print(f"  {name:<20} median {percentile(values, 50) * 1000:8.1f} ms")
        print(f"  ratio {percentile(imports, 50) / percentile(floors, 50):.2f}x (target <= 1.5x)")
        print(
            f"  longest wait of another client: {max(stalls) * 1000:.1f} ms during the imports,"
            f" {max(idle) * 1000:.1f} ms idle (target: the loop never held over 20 ms)"
        )
        going_back(client, cwd, runs)
        client.close()


def timed(client: RpcClient, asked: dict[str, str]) -> tuple[float, dict[str, object]]:
    t0 = time.perf_counter()
    session: dict[str, object] = client.call("sessions.import", asked)
    return time.perf_counter() - t0, session


def going_back(client: RpcClient, cwd: Path, runs: int) -> None:
    """`sessions.rewind` at the user's message about 1,000 messages back, beside
    `sessions.fork` of the whole session."""
    asked = {"agent": NAME, "agentSessionId": "chat-4000", "cwd": str(cwd)}
    chat = str(timed(client, asked)[1]["id"])
    page = client.call("messages.list", {"sessionId": chat})
    back = min((m for m in page["messages"] if m["role"] == "user"), key=lambda m: m["seq"])
    rewinds: list[float] = []
    forks: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        client.call("sessions.rewind", {"sessionId": chat, "messageId": back["id"]})
        rewinds.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        client.call("sessions.fork", {"sessionId": chat})
        forks.append(time.perf_counter() - t0)
    total = page["total"]
    print(f"going back to a message {total - back['seq'] + 1:,} messages back, of {total:,}")
    print(f"  sessions.rewind       median {percentile(rewinds, 50) * 1000:8.1f} ms")
    print(f"  sessions.fork (floor) median {percentile(forks, 50) * 1000:8.1f} ms")
    print(f"  ratio {percentile(rewinds, 50) / percentile(forks, 50):.2f}x (target <= 1.5x)")


def listing(folder: Path, sessions: int, runs: int) -> None:
    """The window's list of earlier sessions: from the agent's answer to the first page
    on screen, for `sessions` sessions and for 3 (the floor)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Q_ARG, QMetaObject
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtQuickControls2 import QQuickStyle

    from harness.gui import Gui
    from harness.waiting import until
    from nib_desktop.shell.event_loop import qt_event_loop

    QQuickStyle.setStyle("Fusion")
    app = QGuiApplication.instance() or QGuiApplication([])
    assert isinstance(app, QGuiApplication)
    loop = qt_event_loop(app)
    asyncio.set_event_loop(loop)
    figures: dict[int, list[float]] = {}
    for count in (3, sessions):
        data, times = folder / f"gui-{count}", folder / f"times-{count}"
        settings(
            data,
            {"SCRIPTED_SESSIONS": str(count), "SCRIPTED_PAGE": "200", "LIST_TIMES": str(times)},
        )
        gui = Gui(loop, data)
        shown = min(count, 200)

        async def measure(gui: Gui = gui, times: Path = times, shown: int = shown) -> list[float]:
            await gui.start()
            await until(lambda: gui.sessions.property("agentCount") == 1, 30, "the agent")
            earlier = gui.views.earlier_view
            earlier.choose(NAME)
            QMetaObject.invokeMethod(gui.window, "openLibrary", Q_ARG(str, "EarlierDialog.qml"))
            await until(lambda: gui.item("earlierList"), 10, "the dialog")
            took = []
            for _ in range(runs + 1):
                earlier.choose(NAME)  # the list emptied, then asked again
                earlier.listFor(str(folder))
                await until(lambda: len(earlier.model.rows()) == shown, 60, "the first page")
                await gui.frame()
                answered = float(times.read_text().split()[-1])
                took.append(time.time() - answered)
            return took[1:]  # the first starts the agent

        figures[count] = gui.run(measure(), 300)
        gui.close()
    print(f"listing earlier sessions in the window ({runs} runs, pages of 200)")
    for count, values in figures.items():
        name = f"{count:,} sessions" + (" (floor)" if count == 3 else "")
        print(
            f"  {name:<20} first page on screen {percentile(values, 50) * 1000:7.1f} ms median,"
            f" {max(values) * 1000:7.1f} ms max after the agent's answer"
        )
    ratio = percentile(figures[sessions], 50) / percentile(figures[3], 50)
    print(f"  target: <= 200 ms; ratio to the floor {ratio:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=5000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        import_and_rewind(Path(tmp) / "host", args.updates, args.runs)
        listing(Path(tmp) / "gui", args.sessions, args.runs)


if __name__ == "__main__":
    main()
