"""Kill -9 during checklist writes: no acknowledged revision is lost.

    python -m bench.durability [--trials 200]

Each trial starts the real host on one data folder, starts a demo turn whose steps write
the checklist every few milliseconds, reads `todos.changed` (a revision is acknowledged
once its notification arrived: the host sends it after the commit), kills the host with
SIGKILL at a random moment, starts it again and reads `todos.get`. A trial loses a
revision when the stored one is older than the last acknowledged one, or the same
revision holds other items.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.host_process import host_env, running_host


def trial(folder: Path, rng: random.Random, index: int) -> tuple[int, int, bool]:
    """(acknowledged revisions, the last acknowledged one, lost?)"""
    env = {**host_env(), "NIB_DEMO_STEP_DELAY_MS": "2"}
    data, socket_path = folder / "data", str(folder / f"s{index % 2}")
    acknowledged: dict[int, list[Any]] = {}
    with running_host(data, socket_path, env) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        steps = "\n".join(f"{i + 1}. Step {index}.{i}" for i in range(40))
        client.call("turns.start", {"sessionId": session["id"], "text": steps})
        deadline = time.monotonic() + rng.uniform(0.02, 0.4)
        while time.monotonic() < deadline:
            try:
                note = client.wait_notification(
                    lambda n: n["method"] == "todos.changed", deadline - time.monotonic()
                )
            except TimeoutError:
                break
            params = note["params"]
            acknowledged[params["revision"]] = params["items"]
        host.proc.send_signal(signal.SIGKILL)
        host.wait()
    with running_host(data, socket_path, env) as host:
        stored = host.connect().call("todos.get", {"sessionId": session["id"]})
    last = max(acknowledged, default=0)
    lost = stored["revision"] < last or (
        stored["revision"] == last and last > 0 and stored["items"] != acknowledged[last]
    )
    return len(acknowledged), last, lost


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(200)
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-kill-"))
    acknowledged = lost = 0
    started = time.perf_counter()
    for index in range(args.trials):
        count, _last, was_lost = trial(folder, rng, index)
        acknowledged += count
        lost += was_lost
    took = time.perf_counter() - started
    print(
        f"kill -9 during checklist writes: {args.trials} trials in {took:.0f} s, "
        f"{acknowledged:,} revisions acknowledged, {lost} trials lost one (target 0)"
    )
    return 1 if lost else 0


if __name__ == "__main__":
    os.environ.setdefault("NIB_DEMO_STEP_DELAY_MS", "2")
    sys.exit(main())
