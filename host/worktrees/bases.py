"""Each worktree's own index as git trusts it, for its status readings to start from.

git reads again every file changed in or after the second its index was written ("racy
git"), and writes an index only when an entry changed. A fresh worktree's index shares
its second with the files its checkout wrote last, so a reading that starts from a copy
of it (its time kept, as it must be) had git hash those files again at every reading,
until the user's or an agent's git happened to write the index. A base is that index
copied once and refreshed by git (`update-index -q --refresh --force-write-index`: what
it cannot trust is read, then written as trusted; a changed file stays changed), made
again whenever the worktree's index changes. A reading copies its base: the same entries
and blobs as the index itself, so what it reads is the same. A status reading's own index
is kept beside the base (`keep`) when it holds the base's very paths, and the next
reading starts from it: `add --all` makes the same index from either (a path both hold
is made as the file is; one neither holds is read as untracked by both), but from the
last reading's nothing is written when no file changed since.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from host.worktrees import git

# objects kept with the last reading's index (its changed files' blobs, and the trees and
# trial commits of the readings kept since the base): past these, one reading starts anew
KEPT_OBJECTS = 4000
KEPT_AT_ONCE = 256  # a reading that wrote more (many files changed) is not kept


async def located(path: Path) -> tuple[Path, Path]:
    """The worktree at `path`: its repository's common folder, and its own index."""
    said = await git.text(
        path, "rev-parse", "--path-format=absolute", "--git-common-dir", "--git-path", "index"
    )
    common, index = said.splitlines()
    return Path(common), Path(index)


def paths_of(listed: bytes) -> bytes:
    """What `git ls-files -z` said of an index, as kept to compare (a digest)."""
    return hashlib.blake2b(listed, digest_size=32).digest()


def _written(objects: Path, most: int) -> list[Path] | None:
    """The loose objects in the object folder `objects`; None when more than `most`."""
    found: list[Path] = []
    for folder in objects.iterdir():
        if folder.is_dir() and len(folder.name) == 2:
            found += folder.iterdir()
            if len(found) > most:
                return None
    return found


def _moved(written: list[Path], target: Path) -> int:
    """`written` (loose objects) moved into the object folder `target` (those it holds
    already left); how many were moved."""
    moved = 0
    for found in written:
        into = target / found.parent.name
        into.mkdir(parents=True, exist_ok=True)
        if not (into / found.name).exists():
            os.replace(found, into / found.name)
            moved += 1
    return moved


@dataclass
class _Base:
    of: tuple[int, int, int]  # the worktree's index it was copied from: inode, size, time
    file: Path
    paths: bytes  # its paths (`paths_of`)
    kept: Path | None = None  # the last status reading's index, holding these same paths
    objects: Path | None = None  # what the readings kept wrote (the blobs `kept` names)
    count: int = 0  # of those objects


class Bases:
    """The bases of the worktrees read so far, by folder; one reading of a folder at a
    time (`reading`: a base is made again, its file replaced, by one only). They, and
    every reading's scratch, are made in `folder` (the data folder's `scratch/`), emptied
    here: what a host stopped in the middle of a reading left there goes at its next
    start, not into /tmp for good."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._bases: dict[Path, _Base] = {}
        self._locks: dict[Path, asyncio.Lock] = {}
        self._located: dict[Path, tuple[tuple[int, int, int], tuple[Path, Path]]] = {}
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)

    @contextlib.asynccontextmanager
    async def reading(self, *paths: Path) -> AsyncIterator[None]:
        """The worktrees at `paths` read by one reading at a time (taken in one order: two
        readings that want the same two never wait on each other)."""
        async with contextlib.AsyncExitStack() as held:
            for path in sorted(set(paths)):
                await held.enter_async_context(self._locks.setdefault(path, asyncio.Lock()))
            yield

    async def located(self, path: Path) -> tuple[Path, Path]:
        """`located(path)`, asked of git once for each worktree and its `.git` file (a
        worktree moved or made again at the path is asked again)."""
        try:
            info = (path / ".git").stat()
        except OSError:
            return await located(path)  # (not a worktree: git says so in words)
        of = (info.st_ino, info.st_size, info.st_mtime_ns)
        known = self._located.get(path)
        if known is not None and known[0] == of:
            return known[1]
        found = self._located[path] = (of, await located(path))
        return found[1]

    def place(self) -> Path | None:
        """Where a scratch or base is made now (None: the system's temporary folder, the
        host's being gone)."""
        return self._folder if self._folder.is_dir() else None

    async def trusted(self, path: Path, index: Path) -> tuple[Path, Path | None]:
        """Where a reading of the worktree at `path`, whose own index is `index`, starts:
        its base (made now if there is none or `index` changed since; `index` itself when
        it is missing) or the last reading's index kept, and the objects beyond the
        repository's that it may name (None: none)."""
        try:
            info = index.stat()
        except FileNotFoundError:
            return index, None
        of = (info.st_ino, info.st_size, info.st_mtime_ns)
        base = self._bases.get(path)
        if base is not None and base.of == of:
            return (base.kept, base.objects) if base.kept is not None else (base.file, None)
        self.forget(path)
        made, name = tempfile.mkstemp(prefix="nib-base-", dir=self.place())
        os.close(made)
        file = Path(name)

        def remove() -> None:
            file.unlink(missing_ok=True)

        await git.in_thread(lambda: shutil.copy2(index, file), remove)  # (megabytes)
        refresh = ("update-index", "-q", "--refresh", "--force-write-index")
        own = {"GIT_INDEX_FILE": str(file)}
        try:
            # (one that fails, say over a merge left unfinished, leaves the copy as it was)
            await git.run(path, *refresh, env=own, check=False)
            listed = await git.run(path, "ls-files", "-z", env=own)
        except BaseException:
            remove()
            raise
        self._bases[path] = _Base(of, file, paths_of(listed.out))
        return file, None

    def keep(self, path: Path, work: git.Scratch, listed: bytes) -> bool:
        """A status reading's `index` (moved here) as where the next reading of `path`
        starts, when it holds the same paths as the base (`listed`, its `git ls-files
        -z`): `add --all` then makes the same index from it as from the base, and a
        reading of files unchanged since writes no index at all (from the base, `add` and
        `write-tree` each wrote the whole index, hashed: 6-10 ms apiece for 20,000
        files). One whose paths differ is not kept: a path it added or removed, ignored
        since, would be read otherwise than git reads it. The objects the reading wrote go
        with it (its entries name the blobs of the files changed), beside those of the
        readings kept before; past KEPT_OBJECTS of them the next reading starts from the
        base again, and they go. A reading that wrote over KEPT_AT_ONCE is not kept (its
        objects would be moved on the host's loop)."""
        base = self._bases.get(path)
        index = work.index
        if base is None or paths_of(listed) != base.paths or index.parent.parent != self._folder:
            return False
        written = _written(work.objects, KEPT_AT_ONCE)  # (moved here, on the loop: few)
        if written is None:
            return False
        if base.count + len(written) > KEPT_OBJECTS:
            self._unkeep(base)
            return False
        objects = base.objects or Path(f"{base.file}.objects")
        base.count += _moved(written, objects)
        base.objects = objects
        kept = Path(f"{base.file}.kept")
        os.replace(index, kept)  # (its time kept: git's "racy" check still holds)
        base.kept = kept
        return True

    def _unkeep(self, base: _Base) -> None:
        if base.kept is not None:
            base.kept.unlink(missing_ok=True)
        if base.objects is not None:
            shutil.rmtree(base.objects, ignore_errors=True)
        base.kept, base.objects, base.count = None, None, 0

    def forget(self, path: Path) -> None:
        base = self._bases.pop(path, None)
        if base is not None:
            base.file.unlink(missing_ok=True)
            self._unkeep(base)

    def close(self) -> None:
        for path in list(self._bases):
            self.forget(path)
