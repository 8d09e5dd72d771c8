"""Dialogs own the keyboard under a real window manager: the tests of `under_wm.py` run in
a window of their own on an X server (Xvfb) managed by openbox, driven only by X key events
(xdotool), with nothing focused by the test itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest

from tests.helpers.on_x import pytest_on_x

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


@pytest.mark.timeout(280)
def test_dialogs_own_the_keyboard_under_a_window_manager(managed: str) -> None:
    proc = pytest_on_x(managed, ["tests/ui/under_wm.py"], each=60, whole=260, NIBTEST_WM="1")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout and "skipped" not in proc.stdout
