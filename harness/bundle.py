"""The PyInstaller bundle built from `packaging/nib-desktop.spec`, as the frozen tests
and the bundle's benchmark both build it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_bundle(dist: Path, work: Path) -> Path:
    """A clean onedir build into `dist` (PyInstaller's scratch in `work`); the
    executable."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            "--log-level",
            "ERROR",
            "--distpath",
            str(dist),
            "--workpath",
            str(work),
            str(ROOT / "packaging" / "nib-desktop.spec"),
        ],
        cwd=ROOT,
        check=True,
        timeout=600,
    )
    exe = dist / "nib-desktop" / "nib-desktop"
    if not exe.is_file():
        raise RuntimeError(f"PyInstaller made no {exe}")
    return exe
