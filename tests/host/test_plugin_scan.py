"""Finding plugins: where no installed distribution names the `nib.tools` group, the host
does not import `importlib.metadata` (15 ms of every start); where one may, it asks it."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from host.tools import plugins
from tests.helpers.fresh_python import python_says


def test_no_plugin_installed_loads_no_package_metadata() -> None:
    script = (
        "import sys\n"
        "from host.tools.plugins import load_plugins\n"
        "print(load_plugins([]), 'importlib.metadata' in sys.modules)\n"
    )
    assert python_says(script).split() == ["[]", "False"]


def distribution(folder: Path, name: str, points: str) -> None:
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(points)


def test_a_distribution_naming_the_group_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distribution(tmp_path, "other", "[console_scripts]\nother = other:main\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing")])
    assert plugins.may_have_plugins() is False
    distribution(tmp_path, "notes", "[nib.tools]\nnotes = notes_plugin:tools\n")
    assert plugins.may_have_plugins() is True


def test_a_zip_on_the_path_is_left_to_importlib_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as made:
        made.writestr("x.py", "")
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert plugins.may_have_plugins() is True
