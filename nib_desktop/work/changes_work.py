"""The Changes view carried out (contract section 16): what the shown session's steps,
its last turn and the whole session changed in its folder, loaded from the host's
checkpoints; a restore, and its undo. Kept apart from `nib_desktop.work.dispatch`: one room,
one job.

While the view is open, each `checkpoints.changed` of its session loads it again (one
load at a time, one more after it when others came meanwhile)."""

from __future__ import annotations

from host.protocol import errors, methods as rpc, models as m
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Coalesced, Runner
from nib_desktop.state import events as ev, intents as it, store
from nib_desktop.state.changes import Changes, FileDiff, RestoreQuestion, Scope, restore_question
from nib_desktop.state.store import AppState, Change

NO_CWD = "This session has no folder, so it keeps no checkpoints of one."
REMOTE = "A remote session's checkpoints are kept by its own host; this window shows none."
NONE_YET = "No checkpoints yet: the folder is recorded when a turn starts."


def revision_interval(points: tuple[m.Checkpoint, ...], revision: int) -> tuple[str, str] | None:
    """The checkpoints around a checklist revision (`points` newest first, as listed): the
    one before that revision's own, and its own; None when either is not held."""
    at = next((i for i, c in enumerate(points)
               if c.reason == "revision" and c.revision == revision), -1)  # fmt: skip
    if at < 0 or at + 1 >= len(points):
        return None
    return points[at + 1].id, points[at].id


def _files(changes: m.Changes) -> tuple[FileDiff, ...]:
    return tuple(
        FileDiff(f.path, f.old_path or "", f.status, f.additions, f.deletions, f.binary, f.diff,
                 f.truncated)
        for f in changes.files
    )  # fmt: skip


def restored_words(done: m.Restored) -> str:
    """What a restore did, in words: the files it wrote, made or removed, and those it
    left as they are (not recorded now, so the restore could not have been undone)."""
    n, left = len(done.restored), len(done.skipped)
    words = "Nothing needed restoring: the files were already as then."
    if n:
        names = ", ".join(done.restored[:5]) + (f" and {n - 5:,} more" if n > 5 else "")
        words = f"Restored {n} file{'' if n == 1 else 's'}: {names}"
    if left:
        names = ", ".join(done.skipped[:5]) + (f" and {left - 5:,} more" if left > 5 else "")
        it_is = "it is" if left == 1 else "they are"
        words += (
            f". Left as {it_is}: {names} (over 1 MiB or ignored now, so no copy of it could"
            " be kept to undo with)"
        )
    return words


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
                undo_id=held.undo_id, undo_words=held.undo_words, question=held.question
            )
            self._state.apply(ev.ChangesShown(kept))

    async def load(self, session_id: str) -> Changes:
        """The session's scopes: each step that ran (the checklist's order), the last
        turn, the whole session; or why there are none."""
        session = self._state.session(session_id)
        if session is not None and session.remote:
            return Changes(session_id, note=REMOTE)
        try:
            listed = await self._host.call(
                rpc.CHECKPOINTS_LIST, m.CheckpointListParams(session_id=session_id, limit=200)
            )
        except errors.InvalidParams:
            return Changes(session_id, note=NO_CWD)
        except errors.RemoteSession:
            return Changes(session_id, note=REMOTE)
        points = listed.checkpoints  # newest first
        if not points:
            return Changes(session_id, note=NONE_YET)
        scopes: list[Scope] = []
        interval = revision_interval(points, self._revision) if self._revision else None
        if interval is not None:
            files = await self._between(session_id, interval[0], interval[1])
            scopes.append(Scope(f"Revision {self._revision}", interval[0], files, False,
                                interval[1]))  # fmt: skip
        snapshot = self._state.snapshot(session_id)
        for item in snapshot.items if snapshot is not None else ():
            if item.status == "pending":
                continue
            try:
                asked = m.ChangesStepParams(session_id=session_id, content=item.content)
                step = await self._host.call(rpc.CHANGES_STEP, asked)
            except errors.InvalidParams:
                continue  # never in progress since checkpoints were kept
            scopes.append(Scope(f"Step: {item.content}", step.from_.id, _files(step),
                                step.to is None, step.to.id if step.to else ""))  # fmt: skip
        start = next((c for c in points if c.reason == "turn-start"), None)
        if start is not None:
            end = next((c for c in points if c.reason == "turn-end" and c.turn_id == start.turn_id),
                       None)  # fmt: skip
            turn = await self._between(session_id, start.id, end.id if end else None)
            scopes.append(Scope("The last turn", start.id, turn, end is None,
                                end.id if end else ""))  # fmt: skip
        first = points[-1] if not listed.has_more else None
        if first is not None:
            whole = await self._between(session_id, first.id, None)
            scopes.append(Scope("The whole session", first.id, whole, True))
        return Changes(session_id, tuple(scopes))

    async def _between(self, session_id: str, start: str, end: str | None) -> tuple[FileDiff, ...]:
        params = m.ChangesGetParams(session_id=session_id, from_=start, to=end)
        return _files(await self._host.call(rpc.CHANGES_GET, params))

    def ask(
        self, intent: it.Restore | it.RevertHunk | it.AskRestore | it.DropRestoreQuestion
    ) -> None:
        match intent:
            case it.AskRestore(checkpoint_id, title, paths):
                self._run(self.question(checkpoint_id, title, paths), "read what would change")
            case it.DropRestoreQuestion():
                self._asked(None)
            case it.Restore(checkpoint_id, paths):
                self._asked(None)
                self._run(self.restore(checkpoint_id, paths), "restore the files")
            case it.RevertHunk():
                self._run(self.revert_hunk(intent), "revert that part of the file")

    def _asked(self, question: RestoreQuestion | None) -> None:
        held = self._state.changes
        if held.session_id is not None and held.question != question:
            self._state.apply(ev.ChangesShown(held._replace(question=question)))

    async def question(self, checkpoint_id: str, title: str, paths: tuple[str, ...] | None) -> None:
        """The question before a restore, naming every file it will write back, make
        again or remove: what differs from the checkpoint to the folder as it is now."""
        session_id = self._working()
        if session_id is None:
            return
        since = await self._between(session_id, checkpoint_id, None)
        words = restore_question(title, since, paths)
        if not words:
            self._state.apply(ev.NoticeShown(
                "Nothing to restore: the folder is as it was then."))  # fmt: skip
            return
        if self._state.changes.session_id == session_id:
            self._asked(RestoreQuestion(checkpoint_id, paths, words))

    def _working(self) -> str | None:
        """The session the view is open on, unless its agent is working (then None, and
        the notice says so)."""
        session_id = self._state.changes.session_id
        session = self._state.session(session_id)
        if session is not None and session.running:
            self._state.apply(ev.NoticeShown(
                "The agent is working in this session: stop its turn or wait for it to end "
                "before restoring files."))  # fmt: skip
            return None
        return session_id

    async def restore(self, checkpoint_id: str, paths: tuple[str, ...] | None) -> None:
        session_id = self._working()
        if session_id is None:
            return
        params = m.RestoreParams(session_id=session_id, checkpoint_id=checkpoint_id,
                                 paths=paths)  # fmt: skip
        done = await self._host.call(rpc.CHANGES_RESTORE, params)
        undo_id = done.checkpoint.id if done.restored else ""
        self._restored(session_id, undo_id, restored_words(done))

    async def revert_hunk(self, asked: it.RevertHunk) -> None:
        """One part of a file's change undone (the project's `changes.revertHunk`); the
        host refuses, in words, a part that changed since."""
        session_id = self._working()
        if session_id is None:
            return
        params = m.RevertHunkParams.model_validate({
            "sessionId": session_id, "from": asked.from_id, "to": asked.to_id or None,
            "path": asked.path, "hunk": asked.hunk})  # fmt: skip
        done = await self._host.call(rpc.CHANGES_REVERT_HUNK, params)
        self._restored(session_id, done.checkpoint.id, f"Reverted part {asked.hunk + 1} of "
                       f"{asked.path}")  # fmt: skip

    def _restored(self, session_id: str, undo_id: str, words: str) -> None:
        held = self._state.changes
        if held.session_id == session_id:
            self._state.apply(ev.ChangesShown(held._replace(undo_id=undo_id, undo_words=words)))
        self._state.apply(ev.NoticeShown(words))
        self.reload()
