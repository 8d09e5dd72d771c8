"""PySide6 6.12.0 on Python 3.11 aborts the interpreter ("deallocating None") after a few
thousand Python callbacks. This runs 200,000 timer, signal and override callbacks in a
child process, so an abort shows as a failed test rather than a crashed test run."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

CALLBACKS = 200_000

SCRIPT = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

    app = QCoreApplication([])

    class Pinger(QObject):
        ping = Signal(int)

        def event(self, ev):  # a Python override called by Qt
            return super().event(ev)

    pinger = Pinger()
    count = 0
    target = int(sys.argv[1])

    def on_ping(value):
        global count
        count += 1

    pinger.ping.connect(on_ping)

    def tick():
        for _ in range(99):
            pinger.ping.emit(count)
        if count >= target:
            timer.stop()
            app.quit()

    timer = QTimer()
    timer.setInterval(0)
    timer.timeout.connect(tick)
    timer.start()
    app.exec()
    print(count, flush=True)
    """
)


@pytest.mark.timeout(240)
def test_200k_python_callbacks_do_not_abort() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(CALLBACKS)],
        capture_output=True,
        text=True,
        timeout=220,
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": ""},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout.strip()) >= CALLBACKS
