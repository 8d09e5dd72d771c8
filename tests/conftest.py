from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from harness.fake_openai import FakeOpenAI
from harness.host_process import HostProcess, model_env, running_host

settings.register_profile("ci", max_examples=10_000, deadline=None)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def socket_path() -> Iterator[str]:
    # Unix socket paths are limited to ~100 bytes, so keep them short and private.
    with tempfile.TemporaryDirectory(prefix="nib-") as folder:
        os.chmod(folder, 0o700)
        yield os.path.join(folder, "s")


@pytest.fixture
def host(tmp_path: Path, socket_path: str) -> Iterator[HostProcess]:
    with running_host(tmp_path / "data", socket_path) as process:
        yield process


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture
def model_host(tmp_path: Path, socket_path: str, fake_openai: FakeOpenAI) -> Iterator[HostProcess]:
    """A host whose agent is the `openai` provider pointed at the loopback server."""
    with running_host(tmp_path / "data", socket_path, model_env(fake_openai.base_url)) as process:
        yield process


@pytest.fixture(scope="session")
def qapp_cls() -> type:
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtQuickControls2 import QQuickStyle

    os.environ.setdefault("QSG_RENDER_LOOP", "basic")  # as the app runs (nib_desktop.shell.boot)
    QGuiApplication.setOrganizationName("NibTests")
    QGuiApplication.setApplicationName("Nib Desktop Tests")
    QQuickStyle.setStyle("Fusion")
    return QGuiApplication


@pytest.fixture(scope="session")
def aio_loop(qapp) -> Iterator[Any]:
    import asyncio

    from nib_desktop.shell.event_loop import qt_event_loop

    loop = qt_event_loop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def gui(aio_loop, tmp_path, monkeypatch, request) -> Iterator[Any]:
    """The app's window with a real host on a fresh data folder: its process, or with the
    `in_memory` mark its core in this process. Demo turns pace their steps at 60 s, so a
    started turn stays running until the test ends it."""
    from harness.gui import Gui

    for key in [k for k in os.environ if k.startswith("NIB_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "60000")
    in_memory = request.node.get_closest_marker("in_memory") is not None
    instance = Gui(aio_loop, tmp_path / "data", in_memory)
    yield instance
    instance.close()


@pytest.fixture
def xvfb() -> Iterator[str]:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (scripts/test installs it where it can)")
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()  # Xvfb writes the display number once it listens
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)
