"""`nib-desktop` / `python -m nib_desktop`: the Main role's start-up."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from host.protocol.appinfo import default_data_dir
from nib_desktop.shell.lean import lean_start, pause_collector

EXIT_NO_DISPLAY, EXIT_DATA_DIR = 6, 4

log = logging.getLogger("nib")


# what a start with no arguments gets: most starts, from a launcher
DEFAULTS: dict[str, object] = {
    "data_dir": None,
    "log_level": "INFO",
    "smoke_test": False,
    "screenshot": None,
    "version": False,
}


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line read; with no arguments, the defaults without building the parser
    (2 ms of the start before the first frame)."""
    if not argv:
        return argparse.Namespace(**DEFAULTS)
    parser = argparse.ArgumentParser(prog="nib-desktop", description="Nib Desktop")
    parser.add_argument("--data-dir", type=Path, help="where sessions are stored")
    parser.add_argument("--log-level", help="DEBUG, INFO, WARNING, ERROR")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="run a demo turn on a temporary data folder offscreen; exit 0 when the dock drew it",
    )
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="PATH",
        help="write a PNG of the window with the dock expanded mid-run (demo data)",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.set_defaults(**DEFAULTS)
    return parser.parse_args(list(argv))


def check_display(headless: bool) -> str | None:
    """A reason the GUI cannot start here, or None."""
    if headless and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if os.environ.get("QT_QPA_PLATFORM") or sys.platform in ("win32", "darwin"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set). Run it in a desktop "
        "session, or set QT_QPA_PLATFORM=offscreen to run without a window "
        "(nib-desktop --smoke-test does so by itself)."
    )


def check_data_dir(path: Path) -> str | None:
    """Why the data folder cannot be used (None: it can). A folder made here is the
    user's alone (0700), as the host makes it. The probe's write is refused at once where
    nothing more fits (a full disk, a quota, a file size limit): the file systems this
    runs on reserve a write's blocks as it is made, so it is not synced (2 ms)."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        return f"cannot create the data folder {path}: {exc.strerror}"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"the data folder {path} is not writable"
    probe = path / ".nib-write-test"
    try:
        with open(probe, "wb") as handle:
            handle.write(b"\0" * 4096)
    except OSError as exc:
        return f"the data folder {path} cannot be written: {exc.strerror}"
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


def main(argv: Sequence[str] | None = None) -> int:
    pause_collector()  # until the window's start-up has imported what it needs
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    if args.version:
        from host.protocol.appinfo import app_version

        print(f"nib-desktop {app_version()}")
        return 0
    logging.basicConfig(
        level=str(args.log_level).upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    headless = bool(args.smoke_test or args.screenshot)
    reason = check_display(headless)
    if reason:
        print(f"nib-desktop: {reason}", file=sys.stderr)
        return EXIT_NO_DISPLAY
    temporary = None
    if headless and args.data_dir is None:
        temporary = tempfile.TemporaryDirectory(prefix="nib-smoke-")
        data_dir = Path(temporary.name)
    else:
        data_dir = args.data_dir or default_data_dir()
    reason = check_data_dir(data_dir)
    if reason:
        print(f"nib-desktop: {reason}; nothing was changed", file=sys.stderr)
        return EXIT_DATA_DIR
    if headless:
        os.environ.setdefault("NIB_DEMO_STEP_DELAY_MS", "150")
        os.environ["NIB_PROVIDER"] = "demo"
    claimed = None
    if not headless:
        from nib_desktop.shell.claim import FolderClaim

        claimed = FolderClaim(data_dir)
        if not claimed.claim():
            print(
                "nib-desktop: already running on this data folder; its window was brought forward",
                file=sys.stderr,
            )
            return 0
    # The host boots while this process imports Qt and the window's modules and loads
    # the QML: started before any of them (a QProcess would need the application).
    from nib_desktop.link.launch import Launch

    launch = Launch()
    launch.begin(data_dir)
    lean_start()
    from nib_desktop.link.supervisor import HostSupervisor
    from nib_desktop.shell.boot import create_app

    create_app()
    instance = None
    if claimed is not None:
        from nib_desktop.shell.instance import SingleInstance

        instance = SingleInstance(claimed)
    supervisor = HostSupervisor(data_dir, launch=launch)
    supervisor.spawn()
    from nib_desktop.shell.window import Script, run

    script: Script | None = None
    if headless:
        from nib_desktop.shell import scripted

        script = scripted.bounded(
            scripted.smoke if args.smoke_test else scripted.screenshot(args.screenshot)
        )
    try:
        return run(supervisor, script, instance)
    finally:
        if temporary is not None:
            temporary.cleanup()
