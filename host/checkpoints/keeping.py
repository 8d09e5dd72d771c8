"""What a record of a session's folder keeps of what git lists (section 16): links, and
regular files up to MAX_FILE_BYTES, the first MAX_FILES of them in path order, at most
MAX_RECORD_BYTES in all; read in a worker thread."""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

MAX_FILES = 20_000
MAX_FILE_BYTES = 1024 * 1024
# the project's: a record holds at most this much (a home folder's caches are not copied)
MAX_RECORD_BYTES = 512 * 1024 * 1024
YIELD_EVERY = 200  # files a worker thread reads between two turns of the event loop


def paths_of(names: list[str]) -> bytes:
    return b"".join(n.encode("utf-8", "surrogateescape") + b"\0" for n in names)


def names_of(listed: bytes) -> list[str]:
    return [n for n in listed.decode("utf-8", "surrogateescape").split("\0") if n]


@dataclass(frozen=True)
class Kept:
    names: frozenset[str]
    paths: bytes  # the kept names, for update-index
    dropped: bytes  # names the index holds that are not kept
    partial_reason: str | None


def kept_of(cwd: Path, listed: bytes, skip: str | None, indexed: frozenset[str]) -> Kept:
    """The listed paths (git's, in path order) a record keeps: links (never followed)
    and regular files up to MAX_FILE_BYTES, the first MAX_FILES of them, but those under
    `skip`. In a worker thread: for 20,000 files this is most of a record's own work."""
    kept: list[str] = []
    over = 0
    size = 0
    base = str(cwd) + os.sep
    lstat, is_link, is_file = os.lstat, stat.S_ISLNK, stat.S_ISREG
    for count, name in enumerate(names_of(listed)):
        if count % YIELD_EVERY == 0:
            time.sleep(0)  # the event loop's thread gets the interpreter now and then
        if name.endswith("/"):  # a repository inside the folder: its own business
            continue
        if skip is not None and name.startswith(skip):
            continue
        try:
            info = lstat(base + name)
        except OSError:
            continue
        mode = info.st_mode
        if is_link(mode) or (is_file(mode) and info.st_size <= MAX_FILE_BYTES):
            size += info.st_size
            if len(kept) < MAX_FILES and size <= MAX_RECORD_BYTES:
                kept.append(name)
            else:
                over += 1
    reason = None
    if over and size > MAX_RECORD_BYTES:
        reason = (
            f"the folder's files come to {size / 2**20:,.0f} MiB; the first "
            f"{MAX_RECORD_BYTES // 2**20} MiB in path order ({len(kept):,} files) are recorded"
        )
    elif over:
        reason = (
            f"the folder has {MAX_FILES + over:,} files; the first {MAX_FILES:,} in path "
            "order are recorded"
        )
    names = frozenset(kept)
    return Kept(names, paths_of(kept), paths_of(sorted(indexed - names)), reason)
