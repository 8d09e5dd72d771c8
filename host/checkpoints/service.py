"""Checkpoints of a session's folder (section 16): taken at a turn's start, after each
committed checklist revision and at its end, and before a restore; listed, compared and
restored.

The service listens to what the sessions and the checklist publish, so nothing in their
transactions waits for it: each event only queues a job, and one worker per session takes
the jobs in order (the order of the events, as the contract wants). A turn waits for its
turn-start checkpoint before the agent is prompted (`before_prompt`).
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from host.checkpoints.errors import FolderError, FolderGone, failure
from host.checkpoints.folder import FolderStore, Record
from host.checkpoints.names import shown
from host.clock import new_id, now_iso
from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.store.db import Database, immediate
from host.store.errors import StorageFailure

log = logging.getLogger(__name__)
T = TypeVar("T")
# a session's kept checklist revisions with their items, oldest first (the todo service's)
Revisions = Callable[[str], Sequence[tuple[int, Sequence[m.TodoItem]]]]

STORE_FOLDER = "checkpoints"
TURN_START_WAIT_S = 5.0
_COLUMNS = "id, session_id, reason, revision, turn_id, created_at, files, partial_reason, tree, seq"


class Row(NamedTuple):
    checkpoint: m.Checkpoint
    tree: str
    seq: int


def _row(row: Any) -> Row:
    cid, sid, reason, revision, turn_id, created, files, partial_reason, tree, seq = row
    checkpoint = m.Checkpoint(
        id=cid,
        session_id=sid,
        reason=reason,
        revision=revision,
        turn_id=turn_id,
        created_at=created,
        files=files,
        partial=partial_reason is not None,
        partial_reason=partial_reason,
    )
    return Row(checkpoint, tree, seq)


class _Place(NamedTuple):
    """What the service needs of a session: its folder, if it keeps checkpoints."""

    cwd: Path | None
    remote: bool


class Checkpoints:
    def __init__(
        self,
        data_dir: Path,
        db: Database,
        publisher: Publisher,
        session: Callable[[str], m.Session],
        revisions: Revisions,
    ) -> None:
        self.data_dir = data_dir
        self._revisions = revisions  # the todo service's kept revisions of a session
        self._root = data_dir / STORE_FOLDER
        self._db = db
        self._publisher = publisher
        self.session = session
        self._places: dict[str, _Place] = {}
        self._stores: dict[str, FolderStore] = {}
        self._tails: dict[str, asyncio.Future[None]] = {}
        self._turn_start: dict[str, asyncio.Future[None]] = {}  # turn id: its checkpoint
        self._running: dict[str, str] = {}  # session id: running turn id
        self._revision: dict[str, int] = {}
        self._closed = False
        publisher.subscribe(self._heard)

    # --- what starts a checkpoint ---------------------------------------------------------

    def _heard(self, name: str, params: m.Wire) -> None:
        if self._closed:
            return
        if isinstance(params, m.Turn) and name == rpc.TURNS_CHANGED.name:
            place = self._place(params.session_id)
            if place is None or place.cwd is None or place.remote:
                return
            if params.state == "running":
                if self._running.get(params.session_id) == params.id:
                    return
                self._running[params.session_id] = params.id
                self._turn_start[params.id] = self._queue(
                    params.session_id, "turn-start", params.id
                )
            elif self._running.get(params.session_id) == params.id:
                del self._running[params.session_id]
                self._turn_start.pop(params.id, None)
                self._queue(params.session_id, "turn-end", params.id)
        elif isinstance(params, m.TodoSnapshot) and name == rpc.TODOS_CHANGED.name:
            place = self._place(params.session_id)
            if place is None or place.cwd is None or place.remote:
                return
            self._revision[params.session_id] = params.revision
            self._queue(
                params.session_id, "revision", self._running.get(params.session_id), params.revision
            )
        elif isinstance(params, m.SessionDeleted) and name == rpc.SESSIONS_DELETED.name:
            self._forget(params.session_id)

    def _place(self, session_id: str) -> _Place | None:
        place = self._places.get(session_id)
        if place is None:
            try:
                session = self.session(session_id)
            except (errors.RpcError, StorageFailure):
                return None
            cwd = Path(session.cwd) if session.cwd is not None else None
            place = self._places[session_id] = _Place(cwd, session.origin == "remote")
        return place

    async def before_prompt(self, turn_id: str) -> None:
        """Wait until the turn's turn-start checkpoint is taken (or failed), for at most
        TURN_START_WAIT_S: a folder that takes longer to read for the first time (a home
        folder) is recorded meanwhile, and the agent's first writes may fall into it."""
        started = self._turn_start.get(turn_id)
        if started is not None:
            await asyncio.wait({started}, timeout=TURN_START_WAIT_S)

    def _queue(
        self,
        session_id: str,
        reason: m.CheckpointReason,
        turn_id: str | None,
        revision: int | None = None,
    ) -> asyncio.Future[None]:
        before = self._tails.get(session_id)
        job = asyncio.ensure_future(self._take_after(before, session_id, reason, turn_id, revision))
        # the store tidied next in the session's chain: a turn waits for its record only
        self._tails[session_id] = asyncio.ensure_future(self._tidy_after(job, session_id))
        return job

    async def _tidy_after(self, job: asyncio.Future[None], session_id: str) -> None:
        await asyncio.wait({job})
        store = self._stores.get(session_id)
        if store is None:  # deleted meanwhile
            return
        try:
            await store.tidy()
        except (FolderError, OSError) as exc:
            log.warning("the checkpoints of session %s could not be packed: %s", session_id, exc)

    async def _take_after(
        self,
        before: asyncio.Future[None] | None,
        session_id: str,
        reason: m.CheckpointReason,
        turn_id: str | None,
        revision: int | None,
    ) -> None:
        if before is not None:
            await asyncio.wait({before})
        try:
            await self._take(session_id, reason, turn_id, revision)
        except FolderGone as exc:
            log.info("no %s checkpoint of session %s: %s", reason, session_id, exc)
        except (FolderError, StorageFailure, OSError) as exc:
            log.warning("the %s checkpoint of session %s failed: %s", reason, session_id, exc)
            failed = failure(session_id, reason, turn_id, exc)
            self._publisher.publish(rpc.CHECKPOINTS_FAILED, failed)

    async def _take(
        self,
        session_id: str,
        reason: m.CheckpointReason,
        turn_id: str | None,
        revision: int | None,
    ) -> m.Checkpoint | None:
        place = self._place(session_id)
        if place is None or place.cwd is None:
            return None
        store = self.store(session_id)
        record = await store.record(place.cwd, self.data_dir)
        if session_id not in self._places:  # deleted meanwhile
            return None
        return self.keep(session_id, reason, turn_id, revision, record)

    def keep(
        self,
        session_id: str,
        reason: m.CheckpointReason,
        turn_id: str | None,
        revision: int | None,
        record: Record,
    ) -> m.Checkpoint | None:
        if revision is None:
            revision = self._revision.get(session_id)
        with immediate(self._db):
            last = self._db.execute(
                "SELECT seq, created_at FROM checkpoints WHERE session_id = ?"
                " ORDER BY seq DESC LIMIT 1",
                (session_id,),
            ).fetchone()
            try:
                current = self.session(session_id).todo_revision
            except errors.SessionNotFound:
                return None
            if revision is None:
                revision = current
            seq = int(last[0]) + 1 if last else 1
            created = max(now_iso(), str(last[1])) if last else now_iso()
            cid = new_id()
            self._db.execute(
                f"INSERT INTO checkpoints ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    cid,
                    session_id,
                    reason,
                    revision,
                    turn_id,
                    created,
                    record.files,
                    record.partial_reason,
                    record.tree,
                    seq,
                ),
            )
        checkpoint = m.Checkpoint(
            id=cid,
            session_id=session_id,
            reason=reason,
            revision=revision,
            turn_id=turn_id,
            created_at=created,
            files=record.files,
            partial=record.partial_reason is not None,
            partial_reason=record.partial_reason,
        )
        told = m.CheckpointChanged(session_id=session_id, checkpoint=checkpoint)
        self._publisher.publish(rpc.CHECKPOINTS_CHANGED, told)
        return checkpoint

    def store(self, session_id: str) -> FolderStore:
        store = self._stores.get(session_id)
        if store is None:
            store = self._stores[session_id] = FolderStore(self._root / session_id)
        return store

    def _forget(self, session_id: str) -> None:
        self._places.pop(session_id, None)
        self._running.pop(session_id, None)
        self._revision.pop(session_id, None)
        before = self._tails.pop(session_id, None)
        store = self._stores.pop(session_id, None) or FolderStore(self._root / session_id)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a host used without its loop (tools, tests): at once
            shutil.rmtree(store.root, ignore_errors=True)
            return

        async def remove() -> None:
            if before is not None:
                await asyncio.wait({before})
            await store.remove()

        self._tails[session_id] = asyncio.ensure_future(remove())

    async def settled(self, session_id: str) -> None:
        tail = self._tails.get(session_id)
        if tail is not None:
            await asyncio.wait({tail})

    async def close(self) -> None:
        """Stop taking checkpoints and wait for those under way."""
        self._closed = True
        tails = list(self._tails.values())
        if tails:
            await asyncio.wait(tails)

    # --- the methods ----------------------------------------------------------------------

    def folder(self, session_id: str) -> Path:
        session = self.session(session_id)  # -32010 for an unknown one
        if session.origin == "remote":
            raise errors.RemoteSession(
                "this is a remote session: its checkpoints are kept by its own host"
            )
        if session.cwd is None:
            raise errors.InvalidParams(
                "this session has no folder (cwd), so it keeps no checkpoints"
            )
        return Path(session.cwd)

    def get(self, session_id: str, checkpoint_id: str) -> Row:
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM checkpoints WHERE session_id = ? AND id = ?",
            (session_id, checkpoint_id),
        ).fetchone()
        if row is None:
            raise errors.InvalidParams(f"no checkpoint {checkpoint_id!r} in this session")
        return _row(row)

    def turn_start(self, session_id: str, turn_id: str | None) -> Row | None:
        """The "turn-start" checkpoint of a turn of the session, if one was taken."""
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM checkpoints WHERE session_id = ? AND turn_id = ?"
            " AND reason = 'turn-start' ORDER BY seq LIMIT 1",
            (session_id, turn_id),
        ).fetchone()
        return None if row is None or turn_id is None else _row(row)

    async def listing(self, params: m.CheckpointListParams) -> m.CheckpointList:
        self.folder(params.session_id)
        await self.settled(params.session_id)
        before = 2**62
        if params.before_id is not None:
            before = self.get(params.session_id, params.before_id).seq
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM checkpoints WHERE session_id = ? AND seq < ?"
            " ORDER BY seq DESC LIMIT ?",
            (params.session_id, before, params.limit + 1),
        ).fetchall()
        found = tuple(_row(row).checkpoint for row in rows[: params.limit])
        return m.CheckpointList(checkpoints=found, has_more=len(rows) > params.limit)

    async def changes(self, params: m.ChangesGetParams) -> m.Changes:
        cwd = self.folder(params.session_id)
        await self.settled(params.session_id)
        start = self.get(params.session_id, params.from_)
        end = self.get(params.session_id, params.to) if params.to is not None else None
        return await self._between(params.session_id, cwd, start, end)

    async def _between(self, session_id: str, cwd: Path, start: Row, end: Row | None) -> m.Changes:
        store = self.store(session_id)
        try:
            if end is not None:
                tree = end.tree
            else:
                tree = await self._now(session_id, cwd)
            found = await store.changes(start.tree, tree)
        except FolderGone as exc:
            raise errors.InvalidParams(str(exc)) from None
        except FolderError as exc:
            raise errors.InternalError(f"the changes could not be read: {exc}") from None
        files = tuple(
            f.model_copy(
                update={
                    "path": shown(f.path),
                    "old_path": shown(f.old_path) if f.old_path else f.old_path,
                }
            )
            for f in found
        )
        return m.Changes(
            from_=start.checkpoint, to=end.checkpoint if end is not None else None, files=files
        )

    async def _now(self, session_id: str, cwd: Path) -> str:
        """The folder as it is now, recorded in the store but kept as no checkpoint."""
        store = self.store(session_id)
        return (await self.in_queue(session_id, lambda: store.record(cwd, self.data_dir))).tree

    async def in_queue(self, session_id: str, work: Callable[[], Awaitable[T]]) -> T:
        """`work` in the session's queue: after what is queued, before what comes next, so
        it never overlaps a checkpoint."""
        result: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        before = self._tails.get(session_id)

        async def run() -> None:
            if before is not None:
                await asyncio.wait({before})
            try:
                result.set_result(await work())
            except Exception as exc:  # handed to the caller
                result.set_exception(exc)

        self._tails[session_id] = asyncio.ensure_future(run())
        return await result

    async def step(self, params: m.ChangesStepParams) -> m.Changes:
        cwd = self.folder(params.session_id)
        await self.settled(params.session_id)
        kept = self._revisions(params.session_id)
        running = [_in_progress(items, params.content) for _revision, items in kept]
        revisions = [revision for revision, _items in kept]
        last = max((i for i, on in enumerate(running) if on), default=None)
        if last is None:
            raise errors.InvalidParams(
                f"no revision of this checklist has {params.content!r} in progress"
            )
        first = last
        while first > 0 and running[first - 1]:
            first -= 1
        start_rev = revisions[first]
        end_rev = revisions[last + 1] if last + 1 < len(revisions) else None
        checkpoints = [
            _row(row)
            for row in self._db.execute(
                f"SELECT {_COLUMNS} FROM checkpoints WHERE session_id = ? ORDER BY seq",
                (params.session_id,),
            ).fetchall()
        ]
        start = next(
            (
                c
                for c in checkpoints
                if c.checkpoint.reason == "revision" and c.checkpoint.revision == start_rev
            ),
            None,
        )
        if start is None:
            raise errors.InvalidParams(
                f"no checkpoint was taken of revision {start_rev}, in which "
                f"{params.content!r} went in progress"
            )
        end = next(
            (
                c
                for c in checkpoints
                if c.seq > start.seq
                and (
                    c.checkpoint.reason == "turn-end"
                    or (c.checkpoint.reason == "revision" and c.checkpoint.revision == end_rev)
                )
            ),
            None,
        )
        if end is None and not cwd.is_dir():
            raise errors.InvalidParams(f"the folder {cwd} no longer exists")
        return await self._between(params.session_id, cwd, start, end)


def _in_progress(items: Sequence[m.TodoItem], content: str) -> bool:
    return any(item.content == content and item.status == "in_progress" for item in items)
