"""Dialogs own the keyboard under a real window manager: the tests of `under_wm.py` run in
a window of their own on an X server (Xvfb) managed by openbox, driven only by X key events
(xdotool), with nothing focused by the test itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def managed(xvfb: str) -> Iterator[str]:
    """The Xvfb display with openbox managing it."""
    missing = [tool for tool in ("openbox", "xdotool") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} missing (scripts/test installs them where it can)")
    env = {**os.environ, "DISPLAY": xvfb}

    said = tempfile.TemporaryFile()  # noqa: SIM115 (what openbox says; closed below)

    def start() -> subprocess.Popen[bytes]:
        # --replace: a screen whose last manager is still being let go is taken over
        return subprocess.Popen(
            ["openbox", "--sm-disable", "--replace"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=said,
        )

    proc, starts = start(), 1
    try:
        # openbox manages the screen once it answers for the current desktop
        deadline = time.monotonic() + 20
        while subprocess.run(["xdotool", "get_desktop"], env=env, capture_output=True).returncode:
            if proc.poll() is not None:  # it stopped at start: said why, tried again twice
                said.seek(0)
                why = said.read().decode(errors="replace")
                assert starts < 3, f"openbox stopped at start {starts} times: {why}"
                proc, starts = start(), starts + 1
            assert time.monotonic() < deadline, "openbox did not take the screen"
            time.sleep(0.05)
        yield xvfb
    finally:
        proc.terminate()
        proc.wait(10)
        said.close()


@pytest.mark.timeout(200)
def test_dialogs_own_the_keyboard_under_a_window_manager(managed: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(DISPLAY=managed, QT_QPA_PLATFORM="xcb", QSG_RENDER_LOOP="basic", NIBTEST_WM="1")
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--timeout",
                "60",
                "--timeout-method",
                "thread",
                "tests/ui/under_wm.py",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=190,
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the window-manager tests hung: {exc.stdout!r}") from None
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout and "skipped" not in proc.stdout
