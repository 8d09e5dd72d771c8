"""`DIR/settings.json`, read safely by both processes: the host (its settings, MCP
servers, agents) and the window (what it shows outside itself). Only a regular file of at
most 1 MiB is read (a FIFO would block the reader, a huge file slow it each time); any
problem is a SettingsFileError naming the file and the problem in words. Written by the
host alone (`settings.set`), whole or not at all (`replace_file`)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

SETTINGS_FILENAME = "settings.json"
MAX_SETTINGS_BYTES = 1024 * 1024


# what tells that settings.json changed: (mtime in ns, size, inode); None: no file
Signature = tuple[int, int, int] | None


def settings_signature(data_dir: Path) -> Signature:
    """Both processes read the file again when this changes (a `stat`, polled)."""
    try:
        info = os.stat(data_dir / SETTINGS_FILENAME)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


class SettingsFileError(Exception):
    """settings.json cannot be read as a JSON object; the message says why."""


def read_settings_file(data_dir: Path) -> dict[str, Any] | None:
    """The file as a JSON object, None when there is none."""
    path = data_dir / SETTINGS_FILENAME
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise SettingsFileError(f"{path} is not a regular file")
            if info.st_size > MAX_SETTINGS_BYTES:
                raise SettingsFileError(f"{path} is over 1 MiB ({info.st_size} bytes)")
            raw = f.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SettingsFileError(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        loaded = json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise SettingsFileError(
            f"{path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise SettingsFileError(f"{path} is not valid JSON: {why}") from None
    if not isinstance(loaded, dict):
        raise SettingsFileError(f"{path} must hold a JSON object")
    return loaded


def replace_file(path: Path, text: str | bytes, mode: int = 0o600, keep_mode: bool = True) -> None:
    """`path` holds `text`, whole or not at all: a temporary file beside it, synced,
    renamed over it. A link is written through to its target, and stays a link; a file
    already there keeps its mode (the user's choice) unless not `keep_mode`, a new one
    gets `mode` (by default readable by its owner alone). OSError when it cannot be."""
    import contextlib
    import stat
    import tempfile  # when a file is written: the first frame does not wait for it

    target = path.resolve() if path.is_symlink() else path
    if keep_mode:
        with contextlib.suppress(FileNotFoundError):  # a file replaced keeps its mode
            mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
