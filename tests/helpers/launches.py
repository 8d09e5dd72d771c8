"""The app (from source or frozen) launched twice on one data folder, as a user does."""

from __future__ import annotations

import queue
import subprocess
import threading


def assert_a_second_launch_brings_the_first_forward(
    command: list[str], env: dict[str, str]
) -> None:
    """`command` started once and left running until its host is connected, then again:
    the second exits 0 at once saying the app already runs, without a host of its own,
    the first logs that its window comes forward and goes on running. The first's log
    holds no traceback."""
    first = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()
    assert first.stderr is not None
    threading.Thread(target=lambda: [lines.put(line) for line in first.stderr], daemon=True).start()

    def wait_for(words: str) -> None:
        while True:
            line = lines.get(timeout=30)
            assert "Traceback" not in line, line
            if words in line:
                return

    try:
        wait_for("ready at monotonic")
        second = subprocess.run(command, capture_output=True, text=True, timeout=30, env=env)
        assert second.returncode == 0, second.stderr
        assert "already running" in second.stderr and "ready at monotonic" not in second.stderr
        wait_for("the window comes forward")
        assert first.poll() is None
    finally:
        first.terminate()
        first.wait(20)
        first.stderr.close()
