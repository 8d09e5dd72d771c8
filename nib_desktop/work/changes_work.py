"""The Changes view loaded (contract section 16): what the shown session's steps, its last
turn and the whole session changed in its folder, from the host's checkpoints (a restore
and its undo are `restore_work`'s).

While the view is open, each `checkpoints.changed` of its session loads it again (one
load at a time, one more after it when others came meanwhile)."""

from __future__ import annotations

from host.protocol import errors, plain_methods as rpc, plain_models as m
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Coalesced, Runner
from nib_desktop.state import events as ev, store
from nib_desktop.state.changes import Changes, FileDiff, Scope
from nib_desktop.state.store import AppState, Change

NO_CWD = "This session has no folder, so it keeps no checkpoints of one."
REMOTE = "This remote host does not share its checkpoints (an older Nib host)."
UNREACHABLE = "The remote host cannot be reached now: its checkpoints show once it is linked."
NONE_YET = "No checkpoints yet: the folder is recorded when a turn starts."


def revision_interval(points: tuple[m.Checkpoint, ...], revision: int) -> tuple[str, str] | None:
    """The checkpoints around a checklist revision (`points` newest first, as listed): the
    one before that revision's own, and its own; None when either is not held."""
    at = next(
        (i for i, c in enumerate(points) if c.reason == "revision" and c.revision == revision), -1
    )
    if at < 0 or at + 1 >= len(points):
        return None
    return points[at + 1].id, points[at].id


def files_of(changes: m.Changes | m.WorktreeStatus | m.Compared) -> tuple[FileDiff, ...]:
    return tuple(
        FileDiff(
            f.path,
            f.old_path or "",
            f.status,
            f.additions,
            f.deletions,
            f.binary,
            f.diff,
            f.truncated,
        )
        for f in changes.files
    )


async def between(
    host: HostLink, session_id: str, start: str, end: str | None
) -> tuple[FileDiff, ...]:
    """What differs from checkpoint `start` to `end` (or the folder now)."""
    params = m.ChangesGetParams(session_id=session_id, from_=start, to=end)
    changes: m.Changes = await host.call(rpc.CHANGES_GET, params)
    return files_of(changes)


class ChangesWork:
    def __init__(self, host: HostLink, state: AppState, run: Runner) -> None:
        self._host, self._state, self._run = host, state, run
        self.reload = Coalesced(run, self._load, "load the changes")
        self._revision = 0  # a revision whose interval is shown first (0: none)
        state.subscribe(self._heard)

    def _heard(self, _event: ev.Event, change: Change) -> None:
        opened = self._state.changes.session_id
        if opened is None:
            return
        if store.CHECKPOINT in change and change.session_id == opened:
            self.reload()
        elif store.SESSIONS in change and self._state.session(opened) is None:
            self._state.apply(ev.ChangesShown(Changes()))  # its session was deleted

    def open(self, revision: int = 0) -> None:
        """The view on the shown session; with `revision`, that revision's interval first
        (opened from the History view)."""
        shown = self._state.shown
        if shown is None:
            return
        self._revision = revision
        self._state.apply(ev.ChangesShown(Changes(shown.session_id, loading=True)))
        self.reload()

    def close(self) -> None:
        self._state.apply(ev.ChangesShown(Changes()))

    async def _load(self) -> None:
        session_id = self._state.changes.session_id
        if session_id is None:
            return
        loaded = await self.load(session_id)
        if self._state.changes.session_id == session_id:
            held = self._state.changes
            kept = loaded._replace(
                scopes=(*held.pinned, *loaded.scopes),
                undo_id=held.undo_id,
                undo_words=held.undo_words,
                question=held.question,
                pinned=held.pinned,
            )
            self._state.apply(ev.ChangesShown(kept))

    async def load(self, session_id: str) -> Changes:
        """The session's scopes: each step that ran (the checklist's order), the last
        turn, the whole session; or why there are none."""
        session = self._state.session(session_id)
        try:
            listed = await self._host.call(
                rpc.CHECKPOINTS_LIST, m.CheckpointListParams(session_id=session_id, limit=200)
            )
        except errors.InvalidParams:
            return Changes(session_id, note=NO_CWD)
        except errors.RemoteSession:
            return Changes(session_id, note=REMOTE)
        except errors.RemoteUnreachable:
            return Changes(session_id, note=UNREACHABLE)
        points = listed.checkpoints  # newest first
        branch = await self._branch(session_id) if session is not None and session.branch else ()
        if not points:
            return Changes(session_id, branch) if branch else Changes(session_id, note=NONE_YET)
        scopes: list[Scope] = []
        interval = revision_interval(points, self._revision) if self._revision else None
        if interval is not None:
            files = await self._between(session_id, interval[0], interval[1])
            scopes.append(
                Scope(f"Revision {self._revision}", interval[0], files, False, interval[1])
            )
        snapshot = self._state.snapshot(session_id)
        for item in snapshot.items if snapshot is not None else ():
            if item.status == "pending":
                continue
            try:
                asked = m.ChangesStepParams(session_id=session_id, content=item.content)
                step = await self._host.call(rpc.CHANGES_STEP, asked)
            except errors.InvalidParams:
                continue  # never in progress since checkpoints were kept
            scopes.append(
                Scope(
                    f"Step: {item.content}",
                    step.from_.id,
                    files_of(step),
                    step.to is None,
                    step.to.id if step.to else "",
                )
            )
        start = next((c for c in points if c.reason == "turn-start"), None)
        if start is not None:
            end = next(
                (c for c in points if c.reason == "turn-end" and c.turn_id == start.turn_id), None
            )
            turn = await self._between(session_id, start.id, end.id if end else None)
            scopes.append(
                Scope("The last turn", start.id, turn, end is None, end.id if end else "")
            )
        first = points[-1] if not listed.has_more else None
        if first is not None:
            whole = await self._between(session_id, first.id, None)
            scopes.append(Scope("The whole session", first.id, whole, True))
        return Changes(session_id, (*scopes, *branch))

    async def _branch(self, session_id: str) -> tuple[Scope, ...]:
        """A worktree session's whole branch against its base (section 18): merged back,
        never restored from here (it has no checkpoint to go back to)."""
        asked = m.SessionRef(session_id=session_id)
        try:
            status = await self._host.call(rpc.WORKTREES_STATUS, asked)
        except errors.InvalidParams:  # removed, or its folder gone
            return ()
        return (Scope(f"The whole branch against {status.base}", "", files_of(status), True),)

    async def _between(self, session_id: str, start: str, end: str | None) -> tuple[FileDiff, ...]:
        return await between(self._host, session_id, start, end)
