"""The PyInstaller bundle runs exactly what the source runs. Builds it once (about half a
minute here), then runs it as a user would."""

from __future__ import annotations

import os
import resource
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.bundle import build_bundle
from tests.helpers.launches import assert_a_second_launch_brings_the_first_forward

pytestmark = [pytest.mark.frozen]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("bundle")
    yield build_bundle(root / "dist", root / "work")


def clean_env(**extra: str) -> dict[str, str]:
    dropped = ("DISPLAY", "WAYLAND_DISPLAY")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("NIB_", "QT_", "PYTHON")) and k not in dropped
    }
    env.update(extra)
    return env


@pytest.mark.timeout(700)
def test_bundle_smoke_test(bundle) -> None:
    proc = subprocess.run(
        [str(bundle), "--smoke-test"], capture_output=True, text=True, timeout=120, env=clean_env()
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "smoke test passed: revision 11, dock shows 5 / 5" in proc.stdout
    # the host was the same executable, started with --host
    assert "host: listening on" in proc.stderr


@pytest.mark.timeout(700)
def test_bundle_version_matches_the_package(bundle) -> None:
    from importlib.metadata import version

    proc = subprocess.run([str(bundle), "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"nib-desktop {version('nib-desktop')}"


@pytest.mark.timeout(700)
def test_bundle_without_a_display_says_how_to_run(bundle, tmp_path) -> None:
    proc = subprocess.run(
        [str(bundle), "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
    )
    assert proc.returncode == 6
    assert "QT_QPA_PLATFORM=offscreen" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.timeout(700)
def test_bundle_refuses_an_unusable_data_dir_untouched(bundle, tmp_path) -> None:
    offscreen = clean_env(QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [str(bundle), "--data-dir", "/proc/nib/data"],
        capture_output=True,
        text=True,
        timeout=60,
        env=offscreen,
    )
    assert proc.returncode == 4
    assert "cannot create the data folder" in proc.stderr and "Traceback" not in proc.stderr

    # a folder where nothing more can be written (the file size limit stands in for a
    # full disk): the message says so, and the existing database is left as it was
    data = tmp_path / "data"
    data.mkdir()
    (data / "nib.sqlite3").write_bytes(b"x" * 2048)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    proc = subprocess.run(
        [str(bundle), "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(QT_QPA_PLATFORM="offscreen"),
        preexec_fn=limit,
    )
    assert proc.returncode == 4, proc.stderr
    assert "cannot be written" in proc.stderr and "nothing was changed" in proc.stderr
    assert (data / "nib.sqlite3").read_bytes() == b"x" * 2048
    assert sorted(p.name for p in data.iterdir()) == ["nib.sqlite3"]


@pytest.mark.timeout(90)
def test_the_bundled_app_connects_and_a_second_launch_brings_it_forward(bundle, tmp_path) -> None:
    """The bundle's real start (not the smoke test's): the lean start, the window, the
    frozen host connected; then a second launch on the same data folder finds the first
    through the single-instance socket (named with Python's own BLAKE2) and exits."""
    command = [str(bundle), "--data-dir", str(tmp_path / "d"), "--log-level", "DEBUG"]
    assert_a_second_launch_brings_the_first_forward(command, clean_env(QT_QPA_PLATFORM="offscreen"))
