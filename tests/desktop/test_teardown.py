"""The window's process ends with its own exit code, never a crash in its teardown. With
the dock's list closed while a turn ran, rows it kept outlived the QML engine as children
of the application, and PySide's last clean-up deleted them after what they bind to: a
SIGSEGV (exit 139, every time) where a failed smoke test should say 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys, tempfile
from pathlib import Path
from nib_desktop.shell.lean import lean_start
lean_start()
from nib_desktop.shell.boot import create_app
from nib_desktop.shell.window import run
from nib_desktop.shell import scripted
from nib_desktop.link.supervisor import HostSupervisor
from nib_desktop.state import events as ev
scripted.SCRIPT_TIMEOUT_S = 3.0
async def turn(main, window):
    main.state.apply(ev.DockExpanded(True))
    # the dock's rows drawn, the list closed while the first turn still runs
    await scripted.demo_turn(main, lambda s: s.revision >= 4, "1. One\\n2. Two\\n3. Three")
    main.state.apply(ev.DockExpanded(False))
    # never reached: the script times out (a failed smoke test's way)
    await scripted.demo_turn(main, lambda s: s.revision >= 8, "1. One\\n2. Two\\n3. Three")
    return 0
create_app()
sys.exit(run(HostSupervisor(Path(tempfile.mkdtemp())), scripted.bounded(turn)))
"""


@pytest.mark.timeout(120)
def test_a_scripted_run_that_fails_exits_one_not_in_a_crash(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    env |= {"NIB_DEMO_STEP_DELAY_MS": "150", "QT_QPA_PLATFORM": "offscreen"}
    env |= {"TMPDIR": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=110,
        env=env,
        cwd=ROOT,
    )
    assert "scripted run failed: TimeoutError()" in proc.stdout, proc.stdout + proc.stderr
    assert proc.returncode == 1, proc.stderr[-2000:]
