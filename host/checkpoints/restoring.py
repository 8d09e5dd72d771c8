"""A restore of a session's folder to a checkpoint (`changes.restore`), and one hunk of a
file's change undone (the project's `changes.revertHunk`): each takes a "restore"
checkpoint first, in the session's queue, so it can be undone; a path the user named is
refused in words outside the folder, in its `.git`, or recorded nowhere."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from pathlib import Path

from host.checkpoints import journal
from host.checkpoints.errors import FolderError, FolderGone
from host.checkpoints.folder import FolderStore
from host.checkpoints.hunks import HunkRefused, hunk_undone, write_file
from host.checkpoints.names import resolve, shown
from host.checkpoints.service import STORE_FOLDER, Checkpoints, Row
from host.protocol import errors, models as m
from host.store.errors import StorageFailure

log = logging.getLogger(__name__)
# (session id, what to say, whether it is a failure): a line of the session's transcript
Tell = Callable[[str, str, bool], None]


class Restorer:
    def __init__(self, points: Checkpoints) -> None:
        self._points = points

    async def restore(self, params: m.RestoreParams) -> m.Restored:
        cwd = self._points.folder(params.session_id)
        session = self._points.session(params.session_id)
        if session.running_turn_id is not None:
            raise errors.TurnRunning(
                "the agent is working in this session: stop its turn or wait for it to end "
                "before restoring files"
            )
        target = self._points.get(params.session_id, params.checkpoint_id)
        if not cwd.is_dir():
            raise errors.InvalidParams(f"the folder {cwd} no longer exists")
        paths = None if params.paths is None else [_relative(cwd, p) for p in params.paths]
        try:
            return await self._points.in_queue(
                params.session_id, lambda: self._restore(params.session_id, cwd, target, paths)
            )
        except FolderGone as exc:
            raise errors.InvalidParams(str(exc)) from None
        except (FolderError, OSError) as exc:
            raise errors.InternalError(f"the folder could not be restored: {exc}") from None

    async def _restore(
        self, session_id: str, cwd: Path, target: Row, paths: list[str] | None
    ) -> m.Restored:
        store = self._points.store(session_id)
        record = await store.record(cwd, self._points.data_dir)
        if paths is not None:
            recorded = set(await store.entries(record.tree)) | set(await store.entries(target.tree))
            paths = [_recorded(path, recorded) for path in paths]
        taken = self._points.keep(session_id, "restore", None, None, record)
        if taken is None:
            raise errors.SessionNotFound(f"no session {session_id!r}")
        restored, skipped = await store.restore(cwd, record.tree, target.tree, paths)
        return m.Restored(
            checkpoint=taken,
            restored=tuple(shown(p) for p in restored),
            skipped=tuple(shown(p) for p in skipped),
        )

    async def revert_hunk(self, params: m.RevertHunkParams) -> m.Restored:
        """One hunk of a file's change, from `from` to `to` (or the folder now), undone in
        the file as it is now, where that part of it still reads as the change left it
        (else -32602 saying so); a "restore" checkpoint first, so it can be undone."""
        cwd = self._points.folder(params.session_id)
        if self._points.session(params.session_id).running_turn_id is not None:
            raise errors.TurnRunning(
                "the agent is working in this session: stop its turn or wait for it to end "
                "before reverting a change"
            )
        start = self._points.get(params.session_id, params.from_)
        end = self._points.get(params.session_id, params.to) if params.to is not None else None
        if not cwd.is_dir():
            raise errors.InvalidParams(f"the folder {cwd} no longer exists")
        path = _relative(cwd, params.path)

        async def revert() -> m.Restored:
            store = self._points.store(params.session_id)
            record = await store.record(cwd, self._points.data_dir)
            trees = (start.tree, end.tree if end else record.tree, record.tree)
            recorded = {name for tree in trees for name in await store.entries(tree)}
            name = _recorded(path, recorded)
            mode, content = await hunk_undone(store, *trees, name, params.hunk)
            taken = self._points.keep(params.session_id, "restore", None, None, record)
            if taken is None:
                raise errors.SessionNotFound(f"no session {params.session_id!r}")
            await asyncio.to_thread(write_file, cwd, name, mode, content)
            return m.Restored(checkpoint=taken, restored=(shown(name),))

        try:
            return await self._points.in_queue(params.session_id, revert)
        except HunkRefused as exc:
            raise errors.InvalidParams(str(exc)) from None
        except FolderGone as exc:
            raise errors.InvalidParams(str(exc)) from None
        except (FolderError, OSError) as exc:
            raise errors.InternalError(f"the change could not be reverted: {exc}") from None


async def rewind_files(points: Checkpoints, fork: m.Session, parent_id: str, target: Row) -> None:
    """The fork's folder (its parent's) restored to `target`, a checkpoint of the parent's
    (section 20's `files`): the "restore" checkpoint is the fork's own, in its own store,
    so the undo is `changes.restore` on the fork."""
    cwd = points.folder(fork.id)
    store, theirs = points.store(fork.id), points.store(parent_id)

    async def restore() -> None:
        await store.borrow(theirs)  # the parent's records, read while restoring
        try:
            record = await store.record(cwd, points.data_dir)
            if points.keep(fork.id, "restore", None, None, record) is None:
                raise errors.SessionNotFound(f"no session {fork.id!r}")
            await store.restore(cwd, record.tree, target.tree, None)
        finally:
            await store.own()

    try:
        await points.in_queue(fork.id, restore)
    except FolderGone as exc:
        raise errors.InvalidParams(str(exc)) from None
    except (FolderError, OSError) as exc:
        raise errors.InternalError(f"the folder could not be restored: {exc}") from None


def _recorded(path: str, recorded: set[str]) -> str:
    """The recorded name `path` means (as `shown` writes it, or itself); -32602 else."""
    name = resolve(path, recorded)
    if name is None:
        raise errors.InvalidParams(
            f"{path!r} is recorded neither in that checkpoint nor in the folder"
        )
    return name


def _relative(cwd: Path, path: str) -> str:
    """A path the user named, relative to `cwd` with "/" separators; -32602 outside."""
    given = Path(path)
    absolute = given if given.is_absolute() else cwd / given
    parts: list[str] = []
    for part in absolute.relative_to(absolute.anchor).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    normal = Path(absolute.anchor, *parts)
    try:
        inside = normal.relative_to(cwd)
    except ValueError:
        raise errors.InvalidParams(f"{path!r} is outside the session's folder") from None
    if str(inside) in ("", "."):
        raise errors.InvalidParams(f"{path!r} is the folder itself, not a file in it")
    if inside.parts[0] == ".git":
        raise errors.InvalidParams(f"{path!r} is in the folder's .git, which is never recorded")
    return inside.as_posix()


async def recover(points: Checkpoints, tell: Tell) -> None:
    """At the host's start: each restore a kill stopped part-way (its journal in the
    session's store) carried out again whole, in the session's queue, and said in the
    session's transcript; one that cannot be finished is said too, with its undo."""
    root = points.data_dir / STORE_FOLDER
    found = await asyncio.to_thread(
        lambda: sorted(p.parent.name for p in root.glob(f"*/{journal.JOURNAL}"))
    )
    for session_id in found:
        store = points.store(session_id)
        await points.in_queue(session_id, functools.partial(_finish, store, session_id, tell))


async def _finish(store: FolderStore, session_id: str, tell: Tell) -> None:
    """One interrupted restore finished and said, its journal removed last (in the
    session's queue: no restore of the session begins its own journal meanwhile)."""
    try:
        done = await store.interrupted()
    except (FolderError, OSError) as exc:
        log.warning(
            "an interrupted restore of session %s could not be finished: %s", session_id, exc
        )
        said = (
            f"A restore of this folder was stopped part-way when Nib stopped, and could "
            f"not be finished when it started again: {exc}. The files it had not written "
            "yet are as they were; its “restore” checkpoint holds the folder as it was "
            "before it, to restore from the Changes view."
        )
        _tell(tell, session_id, said, True)
        store.settled()
        return
    if done is not None:
        count = len(done[0])
        said = (
            "A restore of this folder was stopped part-way when Nib stopped; it was "
            f"finished when Nib started again ({count} file{'' if count == 1 else 's'} "
            "written or removed). It can be undone from the Changes view."
        )
        _tell(tell, session_id, said, False)
        store.settled()


def _tell(tell: Tell, session_id: str, said: str, failed: bool) -> None:
    try:
        tell(session_id, said, failed)
    except (errors.RpcError, StorageFailure) as exc:  # its session is gone
        log.info("not told to session %s: %s", session_id, exc)
