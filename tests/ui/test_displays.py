"""The dock on other displays than the default offscreen one: the sweep and reduced-motion
tests again in a real X server (Xvfb with Mesa), where Qt Quick renders through OpenGL,
and the whole dock suite again at a device pixel ratio of 2 (HiDPI)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers.on_x import pytest_on_x

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/ui/test_dock.py",
            "-k",
            "sweep_moves or reduced_motion",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 passed" in proc.stdout


# the keyboard tests whose keys go through the platform: typing at launch, the window's
# shortcuts, Tab and F6, the palette, the input's own keys (the rest drive the same QML)
X11_KEYS = (
    "typing_right_after or every_session_action or focus_moves or tab_reaches"
    " or command_palette or escape_stops or slash_offers or drafts_belong"
)


@pytest.mark.timeout(150)
def test_typing_at_launch_on_a_real_x_server(xvfb) -> None:
    """The keyboard tests on X11 (no window manager): keys after the first frame land in
    the input without a click, and every shortcut works in a real X window."""
    proc = pytest_on_x(xvfb, ["tests/ui/test_keyboard.py", "-k", X11_KEYS], each=40, whole=140)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout
    # no binding of the window ever read a view that was gone (teardown order included)
    assert "TypeError" not in proc.stdout + proc.stderr, proc.stderr[-2000:]


@pytest.mark.timeout(180)
def test_the_dock_on_a_hidpi_screen() -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QT_SCALE_FACTOR": "2",
        "NIBTEST_DEVICE_PIXEL_RATIO": "2",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/ui/test_dock.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout


CHOICE = (
    "from nib_desktop.shell.boot import create_app\n"
    "from nib_desktop.shell.graphics import choose_scene_graph\n"
    "from PySide6.QtQuick import QQuickWindow\n"
    "app = create_app()\n"
    'print(choose_scene_graph(app), QQuickWindow.sceneGraphBackend() or "default")\n'
)


@pytest.mark.timeout(60)
def test_a_software_rasterizer_gets_the_software_scene_graph(xvfb) -> None:
    """Mesa's llvmpipe redraws the whole window each frame; the app then draws with Qt's
    software scene graph, which repaints only what changed."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("QT_QPA_PLATFORM", "NIB_SCENE_GRAPH", "QT_QUICK_BACKEND")
    }
    base.update(DISPLAY=xvfb, QT_QPA_PLATFORM="xcb", LIBGL_ALWAYS_SOFTWARE="1")
    for extra, expected in (
        ({}, "software software"),
        ({"NIB_SCENE_GRAPH": "opengl"}, "opengl default"),
        ({"QT_QUICK_BACKEND": "software"}, "qt"),
    ):
        proc = subprocess.run(
            [sys.executable, "-c", CHOICE],
            cwd=ROOT,
            env={**base, **extra},
            capture_output=True,
            text=True,
            timeout=50,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert proc.stdout.strip().startswith(expected), (extra, proc.stdout)


def test_software_rasterizers_are_recognised() -> None:
    from nib_desktop.shell.graphics import is_software

    assert is_software("llvmpipe (LLVM 15.0.6, 256 bits)")
    assert is_software("softpipe") and is_software("Google SwiftShader") and is_software(None)
    assert not is_software("Mesa Intel(R) UHD Graphics 620 (KBL GT2)")
    assert not is_software("NVIDIA GeForce RTX 3060/PCIe/SSE2")


REMEMBERED = (
    "import sys\n"
    "from PySide6.QtCore import QSettings\n"
    "from nib_desktop.shell.boot import create_app\n"
    "from nib_desktop.shell.graphics import choose_scene_graph, display_fingerprint\n"
    "app = create_app()\n"
    "if sys.argv[1] != '-':  # a choice remembered from an earlier start\n"
    "    s = QSettings()\n"
    "    s.setValue('graphics/choice', 'opengl')\n"
    "    s.setValue('graphics/fingerprint', display_fingerprint(app) + sys.argv[1])\n"
    "print(choose_scene_graph(app))\n"
)


@pytest.mark.timeout(60)
def test_the_choice_is_remembered_for_the_same_display(xvfb, tmp_path) -> None:
    """The renderer is asked once per display (about 60 ms of GL start under Xvfb): a
    choice remembered for the same display, drivers and environment is taken as it is,
    even one the renderer would not give; one made for anything else is asked again."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("QT_QPA_PLATFORM", "NIB_SCENE_GRAPH", "QT_QUICK_BACKEND")
    }
    env.update(
        DISPLAY=xvfb,
        QT_QPA_PLATFORM="xcb",
        LIBGL_ALWAYS_SOFTWARE="1",
        XDG_CONFIG_HOME=str(tmp_path),
    )

    def choice(remembered: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-c", REMEMBERED, remembered],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=50,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout.strip()

    assert choice("") == "opengl"  # remembered for this very display: not asked
    assert choice("|another display") == "software"  # asked: llvmpipe
    assert choice("-") == "software"  # and remembered by that answer
    assert "software" in (tmp_path / "Nib" / "Nib Desktop.conf").read_text()
