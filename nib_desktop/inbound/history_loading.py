"""The open History view's revisions: its newest page when it opens (and when a write
arrives that it cannot append itself), older pages as the user asks, enough pages for
each turn's group to show its whole range, and the first words of each turn's request."""

from __future__ import annotations

import asyncio

from host.protocol import errors, plain_methods as rpc, plain_models as m
from host.protocol.text import shorten, shown_text
from nib_desktop.inbound import convert
from nib_desktop.inbound.router import HistoryFeed
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Coalesced, Runner
from nib_desktop.state import events as ev, store
from nib_desktop.state.store import AppState, Change

WHOLE_GROUP_PAGES = 20  # older History pages read, at most, to find where a turn began
REQUEST_WORDS = 48  # characters of a turn's request in its History group header


def request_words(text: str) -> str:
    """A request's first words for a header: its first line that says something."""
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    return shown_text(shorten(line, REQUEST_WORDS))


class HistoryLoader:
    def __init__(self, host: HostLink, state: AppState, told: HistoryFeed, run: Runner) -> None:
        self._host = host
        self._state = state
        self._told = told
        self._run = run
        # the newest page: writes arriving during a load cost one more load, not one each
        self._newest = Coalesced(
            run, lambda: self._history_page(older=False), "load the checklist history"
        )
        self._asking: set[str] = set()  # turns whose request's words are being read
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, change: Change) -> None:
        state = self._state
        if (
            (isinstance(event, ev.HistoryOpened) and store.HISTORY in change)
            or (
                isinstance(event, ev.SnapshotArrived)
                and state.history.session_id is not None
                and event.snapshot.session_id == state.history.session_id
                and not _holds(state.history, event.snapshot.revision)
                and not self._told.awaits(event.snapshot.session_id, event.snapshot.revision)
            )
            or (
                isinstance(event, ev.TurnChanged)
                and not event.turn.running
                and self._told.given_up(event.turn.session_id)
            )
        ):
            self._newest()
        if isinstance(event, ev.RevisionWritten) and store.HISTORY in change:
            told = dict(state.history.requests)
            if event.revision.turn_id and event.revision.turn_id not in told:
                self._run(self._requests(event.session_id), "read the turn's request")

    @property
    def history_loading(self) -> bool:
        """A load of the History view's newest page is on its way."""
        return self._newest.busy

    async def load_older(self) -> None:
        """The page of the open History view's revisions before the oldest held."""
        await self._history_page(older=True)

    async def _history_page(self, older: bool) -> None:
        session_id = self._state.history.session_id
        if session_id is None:
            return
        await self._one_history_page(session_id, older)
        await self._whole_groups(session_id)
        await self._requests(session_id)

    async def _one_history_page(self, session_id: str, older: bool) -> None:
        held = self._state.history
        before = min((r.revision for r in held.revisions), default=0) if older else 0
        params = m.TodoHistoryParams(session_id=session_id, before_revision=before or None)
        page = await self._host.call(rpc.TODOS_HISTORY, params)
        revisions = tuple(convert.revision(r) for r in page.revisions)
        self._state.apply(ev.HistoryPageLoaded(session_id, revisions, page.has_more, older))
        if not older and self._state.history.session_id == session_id:
            self._told.told(session_id, page.revisions[0] if page.revisions else None)

    async def _whole_groups(self, session_id: str) -> None:
        """Older pages until two turns are held (or none is left): every group but the
        oldest then shows its turn's whole range, not just the part a page held."""
        for _ in range(WHOLE_GROUP_PAGES):
            held = self._state.history
            turns = {r.turn_id for r in held.revisions}
            if held.session_id != session_id or not held.has_more or len(turns) > 1:
                return
            await self._one_history_page(session_id, older=True)

    async def _requests(self, session_id: str) -> None:
        """The first words of each grouped turn's request, for its header (one short
        `messages.list` of that turn's first message each, only for turns not read yet)."""
        held = self._state.history
        known = dict(held.requests)
        grouped = dict.fromkeys(r.turn_id for r in held.revisions)
        turns = [t for t in grouped if t and t not in known and t not in self._asking]
        if held.session_id != session_id or not turns:
            return
        self._asking.update(turns)

        async def first_words(turn_id: str) -> tuple[str, str]:
            params = m.MessageListParams(session_id=session_id, turn_id=turn_id, limit=1)
            try:
                listing = await self._host.call(rpc.MESSAGES_LIST, params)
            except errors.RpcError:  # e.g. a remote host without the project's turnId
                return turn_id, ""
            first = listing.messages[0] if listing.messages else None
            return turn_id, request_words(first.content) if first and first.role == "user" else ""

        try:
            read = await asyncio.gather(*(first_words(t) for t in turns))
        finally:
            self._asking.difference_update(turns)
        self._state.apply(ev.HistoryRequestsRead(session_id, tuple(read)))


def _holds(history: store.History, revision: int) -> bool:
    """Whether the History view already holds `revision` (the router appended it)."""
    return any(r.revision == revision for r in history.revisions[:1])
