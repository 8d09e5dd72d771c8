"""How many files each step of the shown session's checklist changed, for the dock's
rows ("3 files"): each step that ran asked of the host (`changes.step`) when the session
is shown and after each of its checkpoints; a step whose interval has ended is asked once
(its count cannot change until it runs again). Only for a local session with a folder;
one count at a time, one more after it when checkpoints came meanwhile."""

from __future__ import annotations

from host.protocol import errors, plain_methods as rpc, plain_models as m
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Coalesced, Runner
from nib_desktop.state import events as ev, store
from nib_desktop.state.store import AppState, Change


class StepFiles:
    def __init__(self, host: HostLink, state: AppState, run: Runner) -> None:
        self._host, self._state, self._run = host, state, run
        self.recount = Coalesced(run, self._count_current, "count the files of each step")
        self._ended: dict[tuple[str, str], int] = {}  # (session, step): its final count
        state.subscribe(self._heard)
        if state.current is not None:  # made after a session was shown (`MainRole.intents`)
            self.recount()

    def _heard(self, event: ev.Event, change: Change) -> None:
        current = self._state.current
        if current is None or change.session_id != current:
            return
        if store.CHECKPOINT in change or (store.CURRENT in change and store.TRANSCRIPT in change):
            self.recount()
        elif isinstance(event, ev.SnapshotArrived) and current not in self._state.step_files:
            self.recount()  # the checklist arrived after the session was shown

    async def _count_current(self) -> None:
        session_id = self._state.current
        if session_id is not None:
            await self._count(session_id)

    async def _count(self, session_id: str) -> None:
        session, snapshot = self._state.session(session_id), self._state.snapshot(session_id)
        if session is None or not session.reachable or not session.folder or snapshot is None:
            return
        counts: list[tuple[str, int]] = []
        for item in snapshot.items:
            key = (session_id, item.content)
            if item.status == "pending":
                continue
            if item.status != "in_progress" and key in self._ended:
                counts.append((item.content, self._ended[key]))
                continue
            asked = m.ChangesStepParams(session_id=session_id, content=item.content)
            try:
                step = await self._host.call(rpc.CHANGES_STEP, asked)
            except errors.InvalidParams:
                continue  # never in progress since checkpoints were kept, or no folder now
            except (errors.RemoteSession, errors.RemoteUnreachable):
                return  # a remote host that does not share them, or out of reach now
            counts.append((item.content, len(step.files)))
            if step.to is not None and item.status != "in_progress":
                self._ended[key] = len(step.files)
            else:
                self._ended.pop(key, None)
        self._state.apply(ev.StepFilesCounted(session_id, tuple(counts)))
