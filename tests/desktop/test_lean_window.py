"""What the window's process never builds: PySide's whole `Qt` namespace (every enum of
Qt's namespace made as a Python enum: 2.4 MB resident and 20 ms on the GUI thread, at the
first call that names one). Any call of an overload that takes one of them builds it:
`QColor(colour)`, `QPainter.setPen`, `QFontMetricsF.elidedText`, `QTimer.setTimerType`.
A real window runs a demo turn whose steps sweep, in the dock's rows and its collapsed
header, then says whether the namespace was built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

TURN = """
import os, sys, tempfile
from pathlib import Path
from nib_desktop.shell.lean import lean_start
lean_start()
from nib_desktop.shell.boot import create_app
from nib_desktop.shell.window import run
from nib_desktop.shell import scripted
from nib_desktop.link.supervisor import HostSupervisor
from nib_desktop.state import events as ev
import ui.sweep
painted = {"rows": 0, "header": 0}
def counted(self, painter, _paint=ui.sweep.SweepText.paint):
    painted["header" if self.property("singleLine") else "rows"] += 1
    _paint(self, painter)
ui.sweep.SweepText.paint = counted
async def turn(main, window):
    main.state.apply(ev.DockExpanded(True))
    await scripted.demo_turn(main, lambda s: s.revision >= 7, "1. One\\n2. Two\\n3. Three")
    main.state.apply(ev.DockExpanded(False))
    await scripted.demo_turn(main, lambda s: s.revision >= 7, "1. One\\n2. Two\\n3. Three")
    await scripted.next_frame(window)
    import PySide6.QtCore
    print("painted", painted["rows"], painted["header"], flush=True)
    print("Qt built", "Qt" in PySide6.QtCore.__dict__, flush=True)
    return 0
create_app()
sys.exit(run(HostSupervisor(Path(tempfile.mkdtemp())), scripted.bounded(turn)))
"""


@pytest.mark.timeout(120)
def test_a_turn_whose_steps_sweep_never_builds_pysides_qt_namespace(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    env |= {
        "NIB_DEMO_STEP_DELAY_MS": "150",
        "QT_QPA_PLATFORM": "offscreen",
        "TMPDIR": str(tmp_path),
    }
    proc = subprocess.run(
        [sys.executable, "-c", TURN], capture_output=True, text=True, timeout=110, env=env, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    said = proc.stdout.splitlines()
    painted = next(line for line in said if line.startswith("painted "))
    rows, header = (int(n) for n in painted.split()[1:])
    assert rows > 0 and header > 0, painted  # both kinds of sweep were drawn
    assert "Qt built False" in said, said
