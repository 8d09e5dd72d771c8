"""Window tests run again in a pytest of their own on a real X display, as the app runs
there (nib_desktop.shell.boot: the basic render loop paints on the GUI thread)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pytest_on_x(
    display: str, args: list[str], *, each: int, whole: int, **env: str
) -> subprocess.CompletedProcess[str]:
    """`pytest args` on `display` through xcb, each test given `each` seconds and the
    run `whole`; a run that hangs fails with what it printed so far."""
    environ = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    environ.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", QSG_RENDER_LOOP="basic", **env)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["--timeout", str(each), "--timeout-method", "thread", *args]
    try:
        return subprocess.run(
            command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=whole
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the tests on {display} hung: {exc.stdout!r}") from None
