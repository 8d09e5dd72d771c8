"""What a record of a session's folder keeps of what git lists (section 16): links, and
regular files up to MAX_FILE_BYTES, the first MAX_FILES of them in path order, at most
MAX_RECORD_BYTES in all; read in a worker thread."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

MAX_FILES = 20_000
MAX_FILE_BYTES = 1024 * 1024
# the project's: a record holds at most this much (a home folder's caches are not copied)
MAX_RECORD_BYTES = 512 * 1024 * 1024
LIST_CAP = 10 * MAX_FILES  # names of git's listing read, at most (the rest not listed)
YIELD_EVERY = 1000  # files a worker thread reads between two turns of the event loop


def paths_of(names: list[str]) -> bytes:
    return b"".join(n.encode("utf-8", "surrogateescape") + b"\0" for n in names)


def names_of(listed: bytes) -> list[str]:
    return [n for n in listed.decode("utf-8", "surrogateescape").split("\0") if n]


class Listing:
    """git's NUL-separated listing of a folder, taken as it is read, up to LIST_CAP names
    (`cut`: there were more)."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._count = 0
        self.cut = False

    def take(self, chunk: bytes) -> bool:
        self._parts.append(chunk)
        self._count += chunk.count(b"\0")
        if self._count > LIST_CAP:
            self.cut = True
            return False
        return True

    @property
    def names(self) -> bytes:
        """The whole names read (a name cut by the end of the reading left out)."""
        listed = b"".join(self._parts)
        return listed[: listed.rfind(b"\0") + 1] if self.cut else listed


class Kept(NamedTuple):
    names: frozenset[str]
    dropped: bytes  # names the index holds that are not kept
    partial_reason: str | None
    newest: float = 0.0  # the newest time a kept file was changed (st_mtime)


def _readable(base: str, name: str, info: os.stat_result, me: int) -> bool:
    """Whether this process may read the file: its owner's read bit decides for its
    owner (ACLs leave the owner to the mode bits), `access` asks for anyone else."""
    if info.st_uid == me and me != 0:
        return bool(info.st_mode & stat.S_IRUSR)
    return os.access(base + name, os.R_OK)


def kept_of(
    cwd: Path,
    listed: bytes,
    skip: str | None,
    indexed: frozenset[str],
    cut: bool,
    emit: Callable[[bytes], None],
) -> Kept:
    """The listed paths (git's, in path order) a record keeps: links (never followed)
    and regular files up to MAX_FILE_BYTES, the first MAX_FILES of them, but those under
    `skip`, those this process cannot read and those on another filesystem mounted in
    the folder (a folder of `/` holds /proc, whose files say a size they do not have). In
    a worker thread: for 20,000 files this is most of a record's own work. `emit` is
    handed the kept paths (NUL-ended) as they are found, every YIELD_EVERY names: git's
    update-index reads them meanwhile."""
    kept: list[str] = []
    over = 0
    size = 0
    elsewhere = 0  # files on another filesystem, or not readable
    newest = 0.0
    base = str(cwd) + os.sep
    device = os.stat(cwd).st_dev
    me = os.geteuid()
    lstat, is_link, is_file = os.lstat, stat.S_ISLNK, stat.S_ISREG
    told = 0
    for count, name in enumerate(names_of(listed)):
        if count % YIELD_EVERY == 0:
            time.sleep(0)  # the event loop's thread gets the interpreter now and then
            if told < len(kept):
                emit(paths_of(kept[told:]))
                told = len(kept)
        if name.endswith("/"):  # a repository inside the folder: its own business
            continue
        if skip is not None and name.startswith(skip):
            continue
        try:
            info = lstat(base + name)
        except OSError:
            continue
        mode = info.st_mode
        if info.st_dev != device or (is_file(mode) and not _readable(base, name, info, me)):
            elsewhere += is_file(mode) or is_link(mode)
            continue
        if is_link(mode) or (is_file(mode) and info.st_size <= MAX_FILE_BYTES):
            size += info.st_size
            if len(kept) < MAX_FILES and size <= MAX_RECORD_BYTES:
                kept.append(name)
                if info.st_mtime > newest:
                    newest = info.st_mtime
            else:
                over += 1
    if told < len(kept):
        emit(paths_of(kept[told:]))
    reason = None
    if over and size > MAX_RECORD_BYTES:
        reason = (
            f"the folder's files come to {size / 2**20:,.0f} MiB; the first "
            f"{MAX_RECORD_BYTES // 2**20} MiB in path order ({len(kept):,} files) are recorded"
        )
    elif over or cut:
        more = "more than " if cut else ""
        reason = (
            f"the folder has {more}{MAX_FILES + over:,} files; the first {MAX_FILES:,} in"
            " path order are recorded"
        )
    if elsewhere:
        left = (
            f"{elsewhere:,} file{'s' if elsewhere != 1 else ''} on another filesystem or not"
            " readable are not recorded"
        )
        reason = f"{reason}; {left}" if reason else left
    names = frozenset(kept)
    return Kept(names, paths_of(sorted(indexed - names)), reason, newest)
