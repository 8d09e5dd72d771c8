"""The three rooms and their doors: a walk over every module's imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

RULES = {
    # package: prefixes it must never import
    "ui": ("host", "apsw", "nib_desktop", "PySide6.QtNetwork", "openai", "qasync"),
    "host": ("nib_desktop", "ui", "PySide6.QtGui", "PySide6.QtQuick", "PySide6.QtQml",
             "PySide6.QtWidgets"),
    "host/protocol": ("PySide6", "apsw", "nib_desktop", "ui", "qasync", "openai"),
}  # fmt: skip


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def violations(package: str, forbidden: tuple[str, ...], root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted((root / package).rglob("*.py")):
        for name in imports_of(path):
            if any(name == bad or name.startswith(bad + ".") for bad in forbidden):
                found.append(f"{path.relative_to(root)} imports {name}")
    return sorted(found)


@pytest.mark.parametrize("package", sorted(RULES))
def test_import_boundaries(package) -> None:
    assert violations(package, RULES[package]) == []


def test_the_walk_finds_a_planted_violation(tmp_path) -> None:
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "bad.py").write_text("from host.protocol import models\nimport apsw\n")
    assert violations("ui", RULES["ui"], tmp_path) == [
        "ui/bad.py imports apsw",
        "ui/bad.py imports host.protocol",
        "ui/bad.py imports host.protocol.models",
    ]


def test_the_window_loads_before_the_protocol() -> None:
    """Start-up order (docs/architecture.md): what runs before the first frame imports
    neither pydantic, qasync nor the host's modules beyond its light app info."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "import nib_desktop.app, nib_desktop.boot, nib_desktop.supervisor, nib_desktop.window\n"
        "nib_desktop.app.default_data_dir()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('pydantic', 'qasync', 'apsw', 'openai') or m.startswith('host.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, check=True, timeout=60)  # fmt: skip
    assert out.stdout.strip() == "['host.appinfo']"
