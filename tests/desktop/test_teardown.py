"""The window's process ends with its own exit code, never a crash in its teardown. With
the dock's list closed while a turn ran, two rows it kept outlived the QML engine as
children of the application, and PySide's last clean-up (at the interpreter's exit)
deleted them after what they bind to: mostly a SIGSEGV (exit 139) where a failed smoke
test should say 1. The test counts what is left at the exit, before that clean-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.window_script import run_window

# at the interpreter's exit, before PySide's own clean-up (atexit runs the last first)
LEFT = """
scripted.SCRIPT_TIMEOUT_S = 3.0
import atexit
def left():
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtQuick import QQuickItem
    app = QGuiApplication.instance()
    count = sum(isinstance(c, QQuickItem) for c in app.children())
    print(f"items left to the exit: {count}", flush=True)
atexit.register(left)
"""

TURN = """
    main.state.apply(ev.DockExpanded(True))
    # the dock's rows drawn, the list closed while the first turn still runs
    await scripted.demo_turn(main, lambda s: s.revision >= 4, "1. One\\n2. Two\\n3. Three")
    main.state.apply(ev.DockExpanded(False))
    # never reached: the script times out (a failed smoke test's way)
    await scripted.demo_turn(main, lambda s: s.revision >= 8, "1. One\\n2. Two\\n3. Three")
    return 0
"""


@pytest.mark.timeout(120)
def test_a_scripted_run_that_fails_exits_one_not_in_a_crash(tmp_path: Path) -> None:
    proc = run_window(TURN, tmp_path, before=LEFT)
    assert "scripted run failed: TimeoutError()" in proc.stdout, proc.stdout + proc.stderr
    assert "items left to the exit: 0" in proc.stdout.splitlines(), proc.stdout
    assert proc.returncode == 1, proc.stderr[-2000:]
