"""The dock on other displays than the default offscreen one: the sweep and reduced-motion
tests again in a real X server (Xvfb with Mesa), where Qt Quick renders through OpenGL,
and the whole dock suite again at a device pixel ratio of 2 (HiDPI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def xvfb() -> Iterator[str]:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (scripts/test installs it where it can)")
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()  # Xvfb writes the display number once it listens
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.timeout(180)
def test_sweep_renders_on_opengl(xvfb) -> None:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(
        DISPLAY=xvfb,
        QT_QPA_PLATFORM="xcb",
        QSG_RENDER_LOOP="basic",  # grabWindow() from the GUI thread
        NIBTEST_GRAPHICS_API="OpenGL",
        LIBGL_ALWAYS_SOFTWARE="1",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/ui/test_dock.py", "-k", "sweep_moves or reduced_motion"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=170,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 passed" in proc.stdout


@pytest.mark.timeout(180)
def test_the_dock_on_a_hidpi_screen() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": "2",
           "NIBTEST_DEVICE_PIXEL_RATIO": "2"}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/ui/test_dock.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=170,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout
