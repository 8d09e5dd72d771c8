"""What the two commands set up (issue 47, points 27 and 28): the app's command installs
only what the window needs and says so; the test command adds what only the tests use;
the data folder is the user's alone; the window names itself as its desktop entry does."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_ONLY = ("openssh-server", "openbox", "xdotool", "xvfb", "xauth", "dbus")


def missing_said(setup: str, tmp_path: Path) -> str:
    """What system-deps.sh says for `setup` where every package is missing and it may
    not install (a dpkg that knows none, not root)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "dpkg").write_text("#!/bin/sh\nexit 1\n")
    (bin_dir / "id").write_text("#!/bin/sh\necho 1000\n")
    for tool in ("dpkg", "id"):
        (bin_dir / tool).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "NIB_SETUP": setup}
    done = subprocess.run(
        ["bash", "-c", f"source {ROOT / 'scripts' / 'system-deps.sh'}"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stderr


def test_the_app_command_wants_only_what_the_window_needs(tmp_path: Path) -> None:
    said = missing_said("app", tmp_path)
    assert "the app's window needs these Debian packages" in said
    assert "libxcb-cursor0" in said and "openssh-client" in said
    assert [p for p in TEST_ONLY if f" {p}" in said] == []


def test_the_test_command_adds_what_only_the_tests_use(tmp_path: Path) -> None:
    said = missing_said("test", tmp_path)
    assert "the app and its tests needs these Debian packages" in said
    assert all(f" {p}" in said for p in TEST_ONLY), said


def test_each_command_sets_up_its_own_python_packages() -> None:
    env = (ROOT / "scripts" / "env.sh").read_text()
    assert 'EXTRAS="[test,package,bench]"' in env and 'EXTRAS=""' in env
    assert "NIB_SETUP=app source" in (ROOT / "scripts" / "run").read_text()
    assert "NIB_SETUP=test source" in (ROOT / "scripts" / "test").read_text()


def test_a_data_folder_the_window_makes_is_the_users_alone(tmp_path: Path) -> None:
    from nib_desktop.shell.app import check_data_dir

    folder = tmp_path / "new" / "data"
    assert check_data_dir(folder) is None
    assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0


def test_a_data_folder_where_nothing_more_fits_is_refused_and_left_as_it_was(
    tmp_path: Path,
) -> None:
    """The probe's write, not synced, is refused where nothing more fits (a file size
    limit stands in for a full disk): the reason says so and the probe is gone."""
    code = (
        "import resource, sys; from pathlib import Path\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))\n"
        "from nib_desktop.shell.app import check_data_dir\n"
        "print(check_data_dir(Path(sys.argv[1])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    assert f"the data folder {tmp_path} cannot be written: File too large" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_start_with_no_arguments_gets_the_parsers_defaults_without_building_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import argparse

    from nib_desktop.shell.app import parse_args

    parsed = parse_args(["--log-level", "INFO"])
    built: list[object] = []
    monkeypatch.setattr(argparse.ArgumentParser, "__init__", lambda *a, **k: built.append(a))
    assert parse_args([]) == parsed and built == []
    assert vars(parsed) == {
        "data_dir": None,
        "log_level": "INFO",
        "smoke_test": False,
        "screenshot": None,
        "version": False,
    }


def test_the_window_names_itself_as_its_desktop_entry() -> None:
    """Qt names the X11 window's WM_CLASS instance after the first argument: the desktop
    entry's StartupWMClass, so a dock matches the window to its launcher."""
    entry = (ROOT / "resources" / "nib-desktop.desktop").read_text()
    code = "from nib_desktop.shell.boot import create_app; print(create_app().arguments()[0])"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert f"StartupWMClass={done.stdout.strip()}\n" in entry
