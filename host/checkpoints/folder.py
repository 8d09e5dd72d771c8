"""A session folder's records in a git object store of its own (section 16).

Each session keeps a bare repository in the data folder (`checkpoints/<session id>`),
never in the folder or its `.git`. A record is a git tree: the `git` program lists the
folder's files as git reads its ignore files (with an empty index, so they apply to
tracked files too, and the folder's `.git/info/exclude` in place of anyone's global
excludes), the files over MAX_FILE_BYTES and past MAX_FILES are left out here, and the
kept paths go into the store's own index, whose stat cache means only changed files are
read again. Diffs are git's (`diff-tree`, renames found, three lines of context).

Everything here runs in child processes or in a worker thread: the host's event loop only
awaits them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from host.checkpoints import journal, seeding
from host.checkpoints.diffs import PatchCut, file_changes
from host.checkpoints.errors import FolderError, FolderGone
from host.checkpoints.keeping import Kept, Listing, kept_of, names_of, paths_of
from host.checkpoints.store_git import StoreGit
from host.checkpoints.writer import Write, write_back
from host.protocol.models import FileChange

log = logging.getLogger(__name__)

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
PACK_EVERY = 16  # records between two packings of the store's loose objects
MAX_DIFF_CHARS = 256 * 1024  # one file's diff
MAX_CHANGES_CHARS = 6 * 1024 * 1024  # all diffs of one answer, well under the 8 MiB frame


class Record(NamedTuple):
    tree: str
    files: int
    partial_reason: str | None


class Entry(NamedTuple):
    mode: str
    sha: str


class FolderStore(StoreGit):
    """One session's store. Calls on one store must not overlap (the checkpoint service
    runs them one at a time per session)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self._indexed: frozenset[str] | None = None  # what the store's index holds, once known
        self._since_pack = 0
        self._borrowing = False  # a first record seeded from a checkout's own index
        # the next record writes the store's index even if nothing changed (see `_record`)
        self._rewrite = False

    # --- recording ----------------------------------------------------------------------

    async def record(self, cwd: Path, skip: Path | None = None) -> Record:
        """The folder as it is now, as a tree in the store; `skip` (the host's data
        folder, when it is inside) is never recorded. The store's index is only a cache
        of the files' stat data: one a kill left locked or half-written is made again."""
        try:
            return await self._record(cwd, skip)
        except FolderError as exc:
            index = self.root / "nib-index"
            locked = index.with_name("nib-index.lock")
            if not (locked.exists() or "index" in str(exc)):
                raise
            log.warning("the checkpoint store's index is made again: %s", exc)
            locked.unlink(missing_ok=True)
            index.unlink(missing_ok=True)
            self._indexed = None
            return await self._record(cwd, skip)

    async def _record(self, cwd: Path, skip: Path | None) -> Record:
        if not cwd.is_dir():
            raise FolderGone(f"the folder {cwd} no longer exists")
        await self._ensure()
        await self.find_exclude(cwd)
        index = self.root / "nib-index"
        # a first record seeds its index from the checkout's while git lists the folder
        seeded = None if index.exists() else asyncio.ensure_future(self._seed(cwd, index))
        try:
            listed = await self._listing(cwd)
        except BaseException:
            if seeded is not None:
                seeded.cancel()
                await asyncio.gather(seeded, return_exceptions=True)
            raise
        if seeded is not None:
            await seeded
        prefix = None
        if skip is not None and skip.is_relative_to(cwd) and skip != cwd:
            prefix = skip.relative_to(cwd).as_posix() + "/"
        if self._indexed is None:
            before = await self._git("ls-files", "-z", cwd=cwd, index=index)
            self._indexed = frozenset(names_of(before))
        indexed, self._indexed = self._indexed, None  # unknown until the index is written

        def keep(write: Callable[[bytes], None]) -> Kept:
            return kept_of(cwd, listed.names, prefix, indexed, listed.cut, write)

        # the kept paths go to git as they are found: it reads their files meanwhile
        rewrite = ("--force-write-index",) if self._rewrite else ()
        kept = await self._fed(
            keep,
            "update-index",
            "-z",
            "--add",
            "--remove",
            *rewrite,
            "--stdin",
            cwd=cwd,
            index=index,
        )
        # git reads again every file changed in or after the second its index was written
        # ("racy git"), and writes the index only when an entry changed: an index seeded
        # from a fresh worktree's (its time kept) would have git hash the files written in
        # checkout's last second at every record, for good. Written once more, later, it
        # trusts them.
        with contextlib.suppress(FileNotFoundError):  # (no index: nothing was kept)
            self._rewrite = int(index.stat().st_mtime) <= int(kept.newest)
        if kept.dropped:
            await self._git(
                "update-index",
                "-z",
                "--force-remove",
                "--stdin",
                cwd=cwd,
                index=index,
                stdin=kept.dropped,
            )
        tree = (await self._git("write-tree", cwd=cwd, index=index)).decode().strip()
        self._indexed = kept.names  # (a file gone since the listing is removed, not kept)
        await self._keep_reachable(tree)
        self._since_pack += 1 if indexed else PACK_EVERY  # a first record: packed at once
        return Record(tree, len(kept.names), kept.partial_reason)

    async def _listing(self, cwd: Path) -> Listing:
        """The folder's files as git lists them (its ignore files applied), read as git
        writes them and ended past LIST_CAP names: a folder of `/` or a home folder is
        not listed whole into the host's memory."""
        listing = Listing()
        exclude = self.exclude_of(cwd)
        excludes = str(exclude) if exclude.is_file() else os.devnull
        await self._read(
            listing.take,
            (
                "-c",
                f"core.excludesFile={excludes}",
                "ls-files",
                "--others",
                "--exclude-standard",
                "-z",
            ),
            cwd=cwd,
            index=self.root / "nib-empty-index",
        )
        return listing

    async def _seed(self, cwd: Path, index: Path) -> None:
        """A first record of a git checkout's top starts from git's own index (see
        `seeding`): its blobs borrowed from the repository until `tidy` owns them."""
        found = await seeding.checkout_index(cwd)
        if found is None:
            return
        theirs, objects = found
        info = self.root / "objects" / "info"
        info.mkdir(parents=True, exist_ok=True)
        await seeding.copy_index(theirs, index)
        alternates = info / "alternates"
        before = alternates.read_text() if alternates.is_file() else ""  # a parent's, borrowed
        alternates.write_text(f"{before}{objects}\n")
        try:  # an index git reads as the store's own (no shared index of a split one…)
            tagged = names_of(await self._git("ls-files", "-v", "-z", cwd=cwd, index=index))
        except FolderError:
            tagged = ["?"]
        # only entries git trusts to their stat data alone: one marked assume-unchanged
        # (a lower-case tag) or skip-worktree ("S") would record the index's blob, not
        # the file as it is, and a restore's undo would then lose the user's edit
        if any(not entry.startswith("H ") for entry in tagged):
            index.unlink(missing_ok=True)
            if before:
                alternates.write_text(before)
            else:
                alternates.unlink(missing_ok=True)
            return
        self._indexed = frozenset(entry[2:] for entry in tagged)  # read once, here
        self._borrowing = True

    async def tidy(self) -> None:
        """Pack the loose objects of the last PACK_EVERY records (or of a first one),
        trees as deltas of one another: 100 records of a large folder cost about the
        changed files, not a copy of every folder tree they touch. A store that borrows
        a repository's objects (`_seed`) copies what its records use and stops."""
        if self._borrowing:
            self._borrowing = False
            self._since_pack = 0
            await self.own()
            return
        if self._since_pack >= PACK_EVERY:
            self._since_pack = 0
            await self._git("repack", "-d", "-q")

    async def _keep_reachable(self, tree: str) -> None:
        """Every record reachable from the store's one ref (a chain of commits), so git
        packs them (trees as deltas of one another) and nothing could ever prune one."""
        head = self.root / "refs" / "nib" / "records"
        parent = head.read_text().strip() if head.is_file() else None
        commit = await self._git(
            "commit-tree", tree, *(("-p", parent) if parent else ()), "-m", "checkpoint", stdin=None
        )
        await self._git("update-ref", "refs/nib/records", commit.decode().strip())

    # --- reading ------------------------------------------------------------------------

    async def changes(self, old: str, new: str) -> list[FileChange]:
        """What differs from tree `old` to tree `new`, in path order."""
        await self._ensure()
        base = ("diff-tree", "-r", "-M", "--no-ext-diff", "--no-textconv", "--no-color")
        status = await self._git(*base, "-z", "--name-status", old, new)
        numbers = await self._git(*base, "-z", "--numstat", old, new)
        patch = PatchCut(MAX_DIFF_CHARS, MAX_CHANGES_CHARS)  # cut as it is read, never whole
        await self._read(patch.feed, (*base, "-p", "-U3", "--full-index", old, new))
        # the rest in a worker thread: a large change is not split on the loop
        return await asyncio.to_thread(
            file_changes, status, numbers, patch, MAX_DIFF_CHARS, MAX_CHANGES_CHARS
        )

    async def entries(self, tree: str) -> dict[str, Entry]:
        await self._ensure()
        out = await self._git("ls-tree", "-r", "-z", "--full-tree", tree)
        found: dict[str, Entry] = {}
        for line in out.split(b"\0"):
            if not line:
                continue
            meta, _tab, name = line.partition(b"\t")
            mode, _kind, sha = meta.decode().split(" ")
            found[name.decode("utf-8", "surrogateescape")] = Entry(mode, sha)
        return found

    async def blobs(self, shas: list[str]) -> dict[str, bytes]:
        if not shas:
            return {}
        out = await self._git("cat-file", "--batch", stdin="".join(f"{s}\n" for s in shas).encode())
        found: dict[str, bytes] = {}
        at = 0
        for sha in shas:
            end = out.index(b"\n", at)
            header = out[at:end].decode().split(" ")
            size = int(header[2])
            found[sha] = out[end + 1 : end + 1 + size]
            at = end + 1 + size + 1
        return found

    # --- restoring ----------------------------------------------------------------------

    async def restore(
        self, cwd: Path, now: str, then: str, paths: list[str] | None
    ) -> tuple[list[str], list[str]]:
        """Make the folder's files recorded in `now` or `then` (or only `paths`) as
        they were in `then`; what neither records is left alone, and so is a file `then`
        records that is on disk but not in `now` (over the size limit now, ignored now):
        `now` could not give it back. Returns what changed, and what was so skipped."""
        try:
            return await self._carried_out(journal.Underway(str(cwd), now, then, paths))
        finally:  # (an error here is told to the user who asked for the restore)
            journal.end(self.root)

    async def _carried_out(self, underway: journal.Underway) -> tuple[list[str], list[str]]:
        """`restore`'s work, its journal begun before the first write and left in place."""
        cwd = Path(underway.cwd)
        current, target = await self.entries(underway.now), await self.entries(underway.then)
        paths = underway.paths
        wanted = sorted(set(current) | set(target)) if paths is None else sorted(set(paths))
        touched = [p for p in wanted if current.get(p) != target.get(p)]
        contents = await self.blobs(sorted({target[p].sha for p in touched if p in target}))
        writes = [
            Write(p, target[p].mode, contents[target[p].sha], p in current)
            for p in touched
            if p in target
        ]
        removals = [p for p in touched if p not in target]
        if removals:  # a file `then` would have ignored is not one it says was absent
            ignored = await self.ignored_in(underway.then, removals, cwd)
            removals = [p for p in removals if p not in ignored]
        await asyncio.to_thread(journal.begin, self.root, underway)
        # a kill from here on: carried out whole at the next start (`interrupted`)
        return await asyncio.to_thread(write_back, cwd, removals, writes)

    async def interrupted(self) -> tuple[list[str], list[str]] | None:
        """A restore a kill stopped part-way, carried out again whole (what it wrote and
        skipped), the temporary files of its writes removed; None when none was under
        way. Its journal stays until `settled`: the finishing is said first, so a kill
        before then finishes (and says) it again rather than not at all."""
        underway = await asyncio.to_thread(journal.underway, self.root)
        if underway is None:
            return None
        cwd = Path(underway.cwd)
        try:
            done, skipped = await self._carried_out(underway)
        except (FolderError, OSError):
            with contextlib.suppress(FolderError, OSError):  # its leftovers, as far as known
                named = set(await self.entries(underway.now)) | set(
                    await self.entries(underway.then)
                )
                await asyncio.to_thread(journal.sweep, cwd, sorted(named))
            raise
        await asyncio.to_thread(journal.sweep, cwd, done + skipped)
        return done, skipped

    def settled(self) -> None:
        """The restore `interrupted` finished (or could not) is said: its journal goes."""
        journal.end(self.root)

    async def ignored_in(self, tree: str, names: list[str], cwd: Path) -> set[str]:
        """Those of `names` that the ignore files recorded in `tree` (and the folder's
        exclude file) ignore: a record of `tree` would have left them out whether or not
        they were there. (A restore that brings back a `.gitignore` makes visible files it
        ignored; an undo must not take them for files added since.)"""
        found = await self.entries(tree)
        rules = [n for n in found if n == ".gitignore" or n.endswith("/.gitignore")]
        await self.find_exclude(cwd)
        exclude = self.exclude_of(cwd)
        if not rules and not exclude.is_file():
            return set()
        blobs = await self.blobs(sorted({found[n].sha for n in rules}))
        with tempfile.TemporaryDirectory(prefix="nib-ignore-") as scratch:
            base = Path(scratch)
            for name in rules:
                target = base / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(blobs[found[name].sha])
            out = await self._git(
                "--no-literal-pathspecs",
                "check-ignore",
                "--no-index",
                "-z",
                "--stdin",
                cwd=base,
                stdin=paths_of(names),
                check=False,
                exclude=exclude,
            )
        return set(names_of(out))

    async def borrow(self, other: FolderStore) -> None:
        """Read `other`'s records as this store's own (git's alternates), until `own`."""
        await self._ensure()
        (self.root / "objects" / "info").mkdir(parents=True, exist_ok=True)
        alternates = self.root / "objects" / "info" / "alternates"
        before = alternates.read_text() if alternates.is_file() else ""  # a checkout's
        alternates.write_text(f"{before}{other.root / 'objects'}\n")

    async def own(self) -> None:
        """What this store's records use, copied from the store it borrowed from (a packing
        that takes borrowed objects too); the borrowing ended."""
        alternates = self.root / "objects" / "info" / "alternates"
        if alternates.is_file():
            await self._git("repack", "-a", "-d", "-q")
            alternates.unlink()

    async def remove(self) -> None:
        await asyncio.to_thread(shutil.rmtree, self.root, True)
