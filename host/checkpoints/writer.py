"""A restore's writes into the session's folder: removals first (deepest first, folders
left empty removed), then each file through a temporary file beside it renamed into
place, links made as links, its permissions kept; never through a link out of the
folder, and never over something the record taken just before does not hold."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from host.checkpoints.errors import FolderError, FolderGone


def inside(cwd: Path, relative: str) -> Path:
    """`relative` under `cwd` with every folder on the way a real folder (made if
    missing): a write never goes through a link out of the folder."""
    parts = PurePosixPath(relative).parts
    here = cwd
    for part in parts[:-1]:
        here = here / part
        try:
            info = os.lstat(here)
        except FileNotFoundError:
            here.mkdir()
            continue
        if not stat.S_ISDIR(info.st_mode):
            raise FolderError(f"{relative}: {here.relative_to(cwd)} is not a folder")
    return here / parts[-1]


def mode_for(target: Path, executable: bool) -> int:
    """A restored file's permissions: those of the file it replaces, its executable bits
    as recorded; a file made again gets git's own (0644, 0755)."""
    try:
        bits = os.lstat(target).st_mode & 0o777
    except OSError:
        return 0o755 if executable else 0o644
    if stat.S_ISLNK(os.lstat(target).st_mode):
        return 0o755 if executable else 0o644
    readable = bits & 0o444
    return (bits | (readable >> 2)) if executable else (bits & ~0o111)


class Write(NamedTuple):
    name: str
    mode: str
    content: bytes
    recorded: bool  # the record taken just before holds what is there now


def write_back(cwd: Path, removals: list[str], writes: list[Write]) -> tuple[list[str], list[str]]:
    """Removals, then writes; a write over something on disk that the record taken first
    does not hold is not made (skipped): nothing is destroyed that an undo cannot give
    back. Returns what was done and what was skipped, each in path order."""
    if not cwd.is_dir():
        raise FolderGone(f"the folder {cwd} no longer exists")
    done: list[str] = []
    skipped: list[str] = []
    for name in sorted(removals, key=lambda n: n.count("/"), reverse=True):
        target = inside(cwd, name)
        try:
            if not stat.S_ISDIR(os.lstat(target).st_mode):
                target.unlink()
                done.append(name)
        except FileNotFoundError:
            done.append(name)
        parent = target.parent
        while parent != cwd:
            try:
                parent.rmdir()
            except OSError:
                break
            parent = parent.parent
    for write in writes:
        name, mode, content = write.name, write.mode, write.content
        target = inside(cwd, name)
        if not write.recorded and on_disk(target):
            skipped.append(name)
            continue
        if target.is_dir() and not target.is_symlink():
            raise FolderError(f"{name}: a folder stands where the file was")
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.nib-restore")
        if mode == "120000":
            os.symlink(content.decode("utf-8", "surrogateescape"), temporary)
        else:
            bits = mode_for(target, mode == "100755")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, bits)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(content)
        if mode != "120000":
            os.chmod(temporary, bits)  # as given, whatever the process's umask
        os.replace(temporary, target)
        done.append(name)
    return sorted(done), sorted(skipped)


def on_disk(path: Path) -> bool:
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    return True
