"""What the window loads, and when: the effects that follow the state.

- After every (re)connect: the sessions afresh, then the session shown, then the tools.
- When another session is shown (picked, made, or the shown one deleted), or the shown
  remote session's host is linked again: its transcript, its last turn and, the first
  time (and after each reconnect) for a local session, its checklist. A remote session's
  checklist is never read from local data: with the "todos" capability its host answers,
  each time it is shown.
- While the History view is open: its newest page again after every committed write.

It listens to the state (never to a view) and applies what the host answers as events.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.text import shorten, shown_text
from nib_desktop import convert
from nib_desktop import lines as transcript_lines
from nib_desktop.connection import HostLink
from nib_desktop.router import HistoryFeed, LineFeed
from nib_desktop.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state import store
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.types import TurnView

log = logging.getLogger(__name__)

WHOLE_GROUP_PAGES = 20  # older History pages read, at most, to find where a turn began
REQUEST_WORDS = 48  # characters of a turn's request in its History group header


def request_words(text: str) -> str:
    """A request's first words for a header: its first line that says something."""
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    return shown_text(shorten(line, REQUEST_WORDS))


TRANSCRIPT_PAGE = 200  # messages loaded at a time; older ones as the user scrolls up


class Loader:
    def __init__(
        self, host: HostLink, state: AppState, feed: LineFeed, told: HistoryFeed, run: Runner
    ) -> None:
        self._host = host
        self._state = state
        self._feed = feed
        self._told = told
        self._run = run
        self._recovered: set[str] = set()  # local sessions whose checklist was fetched
        self._showing: asyncio.Future[Any] | None = None  # the shown session's load
        self._older_loading = False
        self._history_busy = False  # a newest-page load is on its way
        self._history_again = False  # ...and another write came meanwhile
        self._asking: set[str] = set()  # turns whose request's words are being read
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if isinstance(event, ev.SessionsListed):
            return  # `reload` loads the shown session itself, before "ready"
        state = self._state
        moved = isinstance(event, ev.SessionShown | ev.SessionDeleted) and store.CURRENT in change
        relinked = store.LINKED in change and change.session_id == state.current
        if moved or relinked:
            self._showing = self._run(self.show_current(), "show the session")
        if (isinstance(event, ev.HistoryOpened) and store.HISTORY in change) or (
            isinstance(event, ev.SnapshotArrived)
            and state.history.session_id is not None
            and event.snapshot.session_id == state.history.session_id
            and not _holds(state.history, event.snapshot.revision)
        ):
            self._run(self.load_history(older=False), "load the checklist history")
        if isinstance(event, ev.RevisionWritten) and store.HISTORY in change:
            told = dict(state.history.requests)
            if event.revision.turn_id and event.revision.turn_id not in told:
                self._run(self._requests(event.session_id), "read the turn's request")

    async def settled(self) -> None:
        """Once the shown session's load (if one is on its way) is done; its failure is
        the notice, not raised here."""
        while self._showing is not None and not self._showing.done():
            await asyncio.wait([self._showing])

    async def reload(self) -> None:
        """After every (re)connect: the sessions afresh; every local snapshot may be stale."""
        listing = await self._host.call(rpc.SESSIONS_LIST, m.Empty())
        self._recovered.clear()
        sessions = tuple(convert.session(s) for s in listing.sessions)
        self._state.apply(ev.SessionsListed(sessions))
        await self.show_current()
        await self.load_tools()

    async def load_tools(self) -> None:
        listing = await self._host.call(rpc.TOOLS_LIST, m.Empty())
        self._state.apply(ev.ToolsListed(convert.tool_sources(listing)))
        agents = await self._host.call(rpc.AGENTS_LIST, m.Empty())
        self._state.apply(ev.AgentsListed(convert.agents(agents)))

    async def show_current(self) -> None:
        session = self._state.shown
        if session is None:
            return
        sid = session.session_id
        ref = m.SessionRef(session_id=sid)
        if session.remote and session.remote_state != "connected":
            return  # loaded once its host is linked again
        turns = await self._host.call(rpc.TURNS_LIST, m.TurnListParams(session_id=sid, limit=100))
        if turns.turns:
            self._state.apply(ev.TurnChanged(convert.turn(turns.turns[0])))
        fetch = not session.checklist_note if session.remote else sid not in self._recovered
        if fetch:
            snapshot = await self._host.call(rpc.TODOS_GET, ref)
            if not session.remote:
                self._recovered.add(sid)
            self._state.apply(ev.SnapshotArrived(convert.snapshot(snapshot)))
        page = m.MessageListParams(session_id=sid, limit=TRANSCRIPT_PAGE)
        listing = await self._host.call(rpc.MESSAGES_LIST, page)
        if self._state.current != sid:
            return  # another session is shown now
        messages = listing.messages
        lines = transcript_lines.transcript(messages, self._turns(turns), maker=self._feed.reset())
        first, last = (messages[0], messages[-1]) if messages else (None, None)
        self._state.apply(
            ev.TranscriptPage(sid, lines, listing.has_more, first.seq if first else 0,
                              _turn_of(first), newest_seq=last.seq if last else 0)
        )  # fmt: skip

    async def load_older_messages(self) -> None:
        """The page of the shown transcript before the oldest message loaded."""
        held = self._state.transcript
        if held.session_id is None or not held.has_more or not held.oldest_seq:
            return
        if self._older_loading:
            return  # the page before is on its way
        params = m.MessageListParams(
            session_id=held.session_id, before_seq=held.oldest_seq, limit=TRANSCRIPT_PAGE
        )
        self._older_loading = True
        try:
            listing = await self._host.call(rpc.MESSAGES_LIST, params)
            turns = await self._host.call(
                rpc.TURNS_LIST, m.TurnListParams(session_id=held.session_id, limit=100)
            )
        finally:
            self._older_loading = False
        if self._state.transcript.session_id != held.session_id or not listing.messages:
            return
        views = self._turns(turns)
        lines = transcript_lines.transcript(listing.messages, views, held.oldest_turn or None)
        first = listing.messages[0]
        page = ev.TranscriptPage(
            held.session_id, lines, listing.has_more, first.seq, _turn_of(first), older=True
        )
        self._state.apply(page)

    def _turns(self, listing: m.TurnList) -> tuple[TurnView, ...]:
        """A session's turns as answered, the newest as the state holds it: a notification
        that overtook the answer (the turn stopped meanwhile) wins."""
        views = tuple(convert.turn(t) for t in listing.turns)
        if not views:
            return views
        held = self._state.turn(views[0].session_id)
        return tuple(held if held.turn_id == v.turn_id else v for v in views)

    @property
    def history_loading(self) -> bool:
        """A load of the History view's newest page is on its way."""
        return self._history_busy

    async def load_history(self, older: bool = False) -> None:
        """A page of the open History view's revisions: the newest, or with `older` the
        page before the oldest held. Writes arriving during a load cost one more load,
        not one each."""
        if not older and self._history_busy:
            self._history_again = True
            return
        self._history_busy = not older
        try:
            while True:
                self._history_again = False
                await self._history_page(older)
                if older or not self._history_again:
                    return
        finally:
            if not older:
                self._history_busy = False

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


def _turn_of(message: m.Message | None) -> str:
    return (message.turn_id or "") if message is not None else ""
