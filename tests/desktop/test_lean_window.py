"""What the window's process never builds: PySide's whole `Qt` namespace (every enum of
Qt's namespace made as a Python enum: 2.4 MB resident and 20 ms on the GUI thread, at the
first call that names one). Any call of an overload that takes one of them builds it:
`QColor(colour)`, `QPainter.setPen`, `QFontMetricsF.elidedText`, `QTimer.setTimerType`.
A real window runs a demo turn whose steps sweep, in the dock's rows and its collapsed
header, then says whether the namespace was built."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.window_script import run_window

COUNTED = """
import ui.sweep
painted = {"rows": 0, "header": 0}
def counted(self, painter, _paint=ui.sweep.SweepText.paint):
    painted["header" if self.property("singleLine") else "rows"] += 1
    _paint(self, painter)
ui.sweep.SweepText.paint = counted
"""

TURN = """
    main.state.apply(ev.DockExpanded(True))
    await scripted.demo_turn(main, lambda s: s.revision >= 7, "1. One\\n2. Two\\n3. Three")
    main.state.apply(ev.DockExpanded(False))
    await scripted.demo_turn(main, lambda s: s.revision >= 7, "1. One\\n2. Two\\n3. Three")
    await scripted.next_frame(window)
    import PySide6.QtCore
    print("painted", painted["rows"], painted["header"], flush=True)
    print("Qt built", "Qt" in PySide6.QtCore.__dict__, flush=True)
    return 0
"""


@pytest.mark.timeout(120)
def test_a_turn_whose_steps_sweep_never_builds_pysides_qt_namespace(tmp_path: Path) -> None:
    proc = run_window(TURN, tmp_path, before=COUNTED)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    said = proc.stdout.splitlines()
    painted = next(line for line in said if line.startswith("painted "))
    rows, header = (int(n) for n in painted.split()[1:])
    assert rows > 0 and header > 0, painted  # both kinds of sweep were drawn
    assert "Qt built False" in said, said


WITHOUT_PYDANTIC = """
    from nib_desktop.state import intents as it
    main.state.apply(ev.DockExpanded(True))
    await scripted.demo_turn(main, lambda s: s.revision >= 7, "1. One\\n2. Two\\n3. Three")
    main.intents.ask(it.OpenHistory())  # the checklist's revisions and their diffs
    while not main.state.history.revisions:
        await scripted.next_frame(window)
    import sys
    print("sessions", len(main.state.sessions), "revisions", len(main.state.history.revisions))
    print("pydantic imported", "pydantic" in sys.modules, "pydantic_core" in sys.modules)
    return 0
"""


@pytest.mark.timeout(120)
def test_the_window_reads_a_turn_and_its_history_without_importing_pydantic(
    tmp_path: Path,
) -> None:
    """The window decodes the host's answers and notifications into the contract's plain
    twins (`host.protocol.plain`): pydantic and the models are the host's alone (10-18 MB
    and about 150 ms of the window's start until round 5)."""
    proc = run_window(WITHOUT_PYDANTIC, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    said = proc.stdout.splitlines()
    assert next(line for line in said if line.startswith("sessions ")) == "sessions 1 revisions 7"
    assert "pydantic imported False False" in said, said
