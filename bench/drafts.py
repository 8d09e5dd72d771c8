"""Drafts written as they are typed (issue 35): does keeping them cost the GUI thread?

    python -m bench.drafts [--bursts 20] [--sessions 200]

The window's state and its `DraftKeeper` on an asyncio loop, as in the app (the loop is
the GUI thread's). `--sessions` sessions hold a 2 KB draft each; the user types bursts of
20 characters 20 ms apart, then pauses 0.6 s (the keeper writes the file then). Measured
on the loop thread, with the keeper and, as the floor, without it (the same keystrokes):

- a keystroke's handling (the draft applied to the state and heard): p50, p99, max;
- the loop's lateness (a 5 ms ticker's delay, the longest time the thread was taken) over
  the whole run: p99, max. Target: with the keeper no worse than the floor by a frame
  (16.7 ms), i.e. no write on the GUI thread;
- where the writes ran: the threads that wrote the file, and how many writes.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
from pathlib import Path

from bench.stats import percentile
from nib_desktop.shell import drafts
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState

TICK_S = 0.005


async def typing(state: AppState, bursts: int, sessions: int) -> tuple[list[float], list[float]]:
    """Per keystroke, its handling time; and the ticker's lateness over the run."""
    for n in range(sessions):
        state.apply(ev.DraftSaved(f"s{n}", "x" * 2048))
    late: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(TICK_S)
            late.append(time.perf_counter() - before - TICK_S)

    ticking = asyncio.ensure_future(ticker())
    handled: list[float] = []
    text = ""
    for _ in range(bursts):
        for _ in range(20):
            text += "a"
            began = time.perf_counter()
            state.apply(ev.DraftSaved("s0", text))
            handled.append(time.perf_counter() - began)
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.6)
    done = True
    await ticking
    return handled, late


def run(bursts: int, sessions: int, keep: bool) -> tuple[list[float], list[float], list[str]]:
    writers: list[str] = []
    saving = drafts.save

    def counted(data_dir: Path, held: drafts.Unsent) -> None:
        writers.append(threading.current_thread().name)
        saving(data_dir, held)

    drafts.save = counted  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            state = AppState()
            if keep:
                drafts.DraftKeeper(state, Path(tmp))
            handled, late = asyncio.run(typing(state, bursts, sessions))
    finally:
        drafts.save = saving  # type: ignore[assignment]
    return handled, late, writers


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--sessions", type=int, default=200)
    args = parser.parse_args()
    floor_handled, floor_late, _ = run(args.bursts, args.sessions, keep=False)
    handled, late, writers = run(args.bursts, args.sessions, keep=True)
    ms = 1000
    for name, values in (
        ("floor (no keeper)", (floor_handled, floor_late)),
        ("drafts kept", (handled, late)),
    ):
        keys, lag = values
        print(
            f"{name}: a keystroke {percentile(keys, 50) * ms:.3f} ms p50, "
            f"{percentile(keys, 99) * ms:.3f} ms p99, {max(keys) * ms:.3f} ms max; "
            f"the loop late {percentile(lag, 99) * ms:.2f} ms p99, {max(lag) * ms:.2f} ms max"
        )
    on_loop = [w for w in writers if w == "MainThread"]
    print(
        f"{len(writers)} writes of {args.sessions} drafts of 2 KB, {len(on_loop)} on the GUI "
        f"thread (target 0); the loop's worst lateness {max(late) * ms:.2f} ms against "
        f"{max(floor_late) * ms:.2f} ms without the keeper (target: within a frame, 16.7 ms)"
    )


if __name__ == "__main__":
    main()
