"""The house rules a maintainer relies on, checked: every QML file binds its components'
scopes and stays one part of a screen, and no module of the window holds two jobs' worth
of code."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_QML_LINES = 300
MAX_WINDOW_MODULE_LINES = 250


def test_every_qml_file_binds_its_scopes_and_is_one_part() -> None:
    files = sorted((ROOT / "ui" / "qml").rglob("*.qml"))
    assert len(files) > 20
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("pragma ComponentBehavior: Bound\n"), path.name
        assert text.count("\n") <= MAX_QML_LINES, f"{path.name}: {text.count(chr(10))} lines"


def test_no_module_of_the_window_is_over_its_size() -> None:
    files = sorted([*(ROOT / "nib_desktop").rglob("*.py"), *(ROOT / "ui").rglob("*.py")])
    assert len(files) > 40
    long = {
        str(p.relative_to(ROOT)): n
        for p in files
        if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_WINDOW_MODULE_LINES
    }
    assert long == {}
