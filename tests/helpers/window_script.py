"""A real window in a process of its own, running a scripted turn (`nib_desktop.shell.
scripted`) on a temporary data folder offscreen: for what only a whole process shows (what
it imports and builds, how it exits)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.helpers.fresh_python import run_python, without_nib_settings

# `TURN` is the body of `async def turn(main, window)`, indented by four spaces
PROGRAM = """
import sys, tempfile
from pathlib import Path
from nib_desktop.shell.lean import lean_start
lean_start()
from nib_desktop.shell.boot import create_app
from nib_desktop.shell.window import run
from nib_desktop.shell import scripted
from nib_desktop.link.supervisor import HostSupervisor
from nib_desktop.state import events as ev
{before}
async def turn(main, window):
{turn}
create_app()
sys.exit(run(HostSupervisor(Path(tempfile.mkdtemp())), scripted.bounded(turn)))
"""


def run_window(
    turn: str, folder: Path, before: str = "", step_ms: int = 150
) -> subprocess.CompletedProcess[str]:
    """The window's process run to its end: `before` at the top level once the modules
    are imported, `turn` as the scripted turn's body; the demo's steps `step_ms` apart."""
    env = without_nib_settings()
    env |= {"NIB_DEMO_STEP_DELAY_MS": str(step_ms), "QT_QPA_PLATFORM": "offscreen"}
    env |= {"TMPDIR": str(folder)}
    return run_python(PROGRAM.format(before=before, turn=turn), env, timeout=110)
