"""How many files changed in each revision's interval, for the History view's groups
("2 files"): from the checkpoint before a revision's (its turn's start, or the revision
before it) to that revision's own, asked of the host (`changes.get`) while the History
view is open on a local session with a folder, and again after each checkpoint. An
interval whose two checkpoints are stored cannot change: it is asked once."""

from __future__ import annotations

from host.protocol import errors, plain_methods as rpc, plain_models as m
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Coalesced, Runner
from nib_desktop.state import events as ev, store
from nib_desktop.state.store import AppState, Change
from nib_desktop.work.changes_work import revision_interval


class HistoryFiles:
    def __init__(self, host: HostLink, state: AppState, run: Runner) -> None:
        self._host, self._state = host, state
        self.recount = Coalesced(run, self._count, "count the files of each revision")
        self._known: dict[tuple[str, int], int] = {}  # (session, revision): its files
        state.subscribe(self._heard)

    def _heard(self, event: ev.Event, change: Change) -> None:
        session_id = self._state.history.session_id
        if session_id is None or isinstance(event, ev.RevisionFilesCounted):
            return
        if store.HISTORY in change or (
            store.CHECKPOINT in change and change.session_id == session_id
        ):
            self.recount()

    async def _count(self) -> None:
        history = self._state.history
        session_id = history.session_id
        session = self._state.session(session_id)
        if session_id is None or session is None or not session.reachable or not session.folder:
            return
        wanted = [
            r.revision
            for r in history.revisions
            if r.turn_id and (session_id, r.revision) not in self._known
        ]
        if wanted:
            params = m.CheckpointListParams(session_id=session_id, limit=200)
            try:
                points = (await self._host.call(rpc.CHECKPOINTS_LIST, params)).checkpoints
            except (errors.InvalidParams, errors.RemoteSession, errors.RemoteUnreachable):
                return  # no folder; a remote host that does not share them, or gone
            for revision in wanted:
                interval = revision_interval(points, revision)
                if interval is None:
                    continue
                asked = m.ChangesGetParams(session_id=session_id, from_=interval[0], to=interval[1])
                changes = await self._host.call(rpc.CHANGES_GET, asked)
                self._known[(session_id, revision)] = len(changes.files)
        known = self._known
        counts = tuple(
            (r.revision, known[(session_id, r.revision)])
            for r in history.revisions
            if (session_id, r.revision) in known
        )
        self._state.apply(ev.RevisionFilesCounted(session_id, counts))
