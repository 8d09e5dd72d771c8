"""A restore of the session's folder carried out (contract section 16): asked first, the
question naming every file it will write back, make again or remove; then the restore,
one part of a file's change undone (the project's `changes.revertHunk`), and the undo of
either, said in words."""

from __future__ import annotations

from collections.abc import Callable

from host.protocol import plain_methods as rpc, plain_models as m
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, intents as it
from nib_desktop.state.changes import Changes, RestoreQuestion, Scope, restore_question
from nib_desktop.state.editing import Editing, RestoreFilesOnly
from nib_desktop.state.store import AppState
from nib_desktop.work.changes_work import between


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


class RestoreWork:
    HANDLES = (
        it.Restore,
        it.RevertHunk,
        it.AskRestore,
        it.DropRestoreQuestion,
        RestoreFilesOnly,
    )  # the intents it carries out

    def __init__(
        self, host: HostLink, state: AppState, run: Runner, reload: Callable[[], None]
    ) -> None:
        self._host, self._state, self._run, self._reload = host, state, run, reload

    def ask(
        self,
        intent: it.Restore
        | it.RevertHunk
        | it.AskRestore
        | it.DropRestoreQuestion
        | RestoreFilesOnly,
    ) -> None:
        match intent:
            case RestoreFilesOnly():
                editing = self._state.editing
                if editing is not None:  # the view opens at once, loading
                    self._state.apply(ev.ChangesShown(Changes(editing.session_id, loading=True)))
                    self._run(self.files_only(editing), "read what would change")
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
        since = await between(self._host, session_id, checkpoint_id, None)
        words = restore_question(title, since, paths)
        if not words:
            self._state.apply(
                ev.NoticeShown("Nothing to restore: the folder is as it was then.", "done")
            )
            return
        if self._state.changes.session_id == session_id:
            self._asked(RestoreQuestion(checkpoint_id, paths, words))

    async def files_only(self, editing: Editing) -> None:
        """The folder as it was before an earlier message of the user's (its turn's
        "turn-start" checkpoint), no fork and no message: the Changes view opens on what
        changed since, with the restore's question naming every file it will write back,
        make again or remove; a "yes" there restores it, undoably, as any restore."""
        session_id = editing.session_id
        point = await self._turn_start(session_id, editing.turn_id)
        if point is None:
            self._reload()  # the session's own changes, in the view opened
            self._state.apply(
                ev.NoticeShown(
                    "That message's turn has no checkpoint of the folder (an imported message,"
                    " or a session with no folder): there is nothing to restore it to."
                )
            )
            return
        since = await between(self._host, session_id, point.id, None)
        self._state.apply(ev.EditingSet(None))
        scope = Scope("Since the message you chose", point.id, since)
        self._state.apply(ev.ChangesShown(Changes(session_id, (scope,), pinned=(scope,))))
        self._reload()  # the session's own steps under it
        await self.question(point.id, scope.title, None)

    async def _turn_start(self, session_id: str, turn_id: str) -> m.Checkpoint | None:
        """The "turn-start" checkpoint of that turn of the session, read page by page."""
        before: str | None = None
        while turn_id:
            params = m.CheckpointListParams(session_id=session_id, before_id=before, limit=200)
            listed = await self._host.call(rpc.CHECKPOINTS_LIST, params)
            for point in listed.checkpoints:
                if point.reason == "turn-start" and point.turn_id == turn_id:
                    return point
            if not listed.has_more or not listed.checkpoints:
                return None
            before = listed.checkpoints[-1].id
        return None

    def _working(self) -> str | None:
        """The session the view is open on, unless its agent is working (then None, and
        the notice says so)."""
        session_id = self._state.changes.session_id
        session = self._state.session(session_id)
        if session is not None and session.running:
            self._state.apply(
                ev.NoticeShown(
                    "The agent is working in this session: stop its turn or wait for it to end "
                    "before restoring files."
                )
            )
            return None
        return session_id

    async def restore(self, checkpoint_id: str, paths: tuple[str, ...] | None) -> None:
        session_id = self._working()
        if session_id is None:
            return
        undoing = checkpoint_id == self._state.changes.undo_id  # the last restore undone
        params = m.RestoreParams(session_id=session_id, checkpoint_id=checkpoint_id, paths=paths)
        done = await self._host.call(rpc.CHANGES_RESTORE, params)
        if undoing:  # nothing is left to undo from here: no "Undo the restore" now
            self._restored(session_id, "", f"The restore is undone. {restored_words(done)}")
            return
        undo_id = done.checkpoint.id if done.restored else ""
        self._restored(session_id, undo_id, restored_words(done))

    async def revert_hunk(self, asked: it.RevertHunk) -> None:
        """One part of a file's change undone (the project's `changes.revertHunk`); the
        host refuses, in words, a part that changed since."""
        session_id = self._working()
        if session_id is None:
            return
        params = m.RevertHunkParams.from_wire(
            {
                "sessionId": session_id,
                "from": asked.from_id,
                "to": asked.to_id or None,
                "path": asked.path,
                "hunk": asked.hunk,
            }
        )
        done = await self._host.call(rpc.CHANGES_REVERT_HUNK, params)
        self._restored(
            session_id, done.checkpoint.id, f"Reverted part {asked.hunk + 1} of {asked.path}"
        )

    def _restored(self, session_id: str, undo_id: str, words: str) -> None:
        held = self._state.changes
        if held.session_id == session_id:
            self._state.apply(ev.ChangesShown(held._replace(undo_id=undo_id, undo_words=words)))
        self._state.apply(ev.NoticeShown(words, "done"))
        self._reload()
