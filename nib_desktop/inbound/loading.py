"""What the window loads, and when: the effects that follow the state.

- After every (re)connect: the sessions afresh, then the session shown, then the tools,
  the agents and the settings (all four lists asked at once).
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

from host.protocol import plain_methods as rpc, plain_models as m
from nib_desktop.inbound import (
    convert,
    tools_and_controls,
    transcript_page,
)
from nib_desktop.inbound.history_loading import HistoryLoader
from nib_desktop.inbound.router import HistoryFeed, LineFeed
from nib_desktop.inbound.settings_shown import show_settings
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, store
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.types import TurnView

log = logging.getLogger(__name__)

TRANSCRIPT_PAGE = 200  # messages loaded at a time; older ones as the user scrolls up


class Loader:
    def __init__(
        self, host: HostLink, state: AppState, feed: LineFeed, told: HistoryFeed, run: Runner
    ) -> None:
        self._host = host
        self._state = state
        self._feed = feed
        self._run = run
        self._recovered: set[str] = set()  # local sessions whose checklist was fetched
        self._showing: asyncio.Future[Any] | None = None  # the shown session's load
        self._older_loading = False
        state.subscribe(self._changed)
        self.history = HistoryLoader(host, state, told, run)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if isinstance(event, ev.SessionsListed):
            return  # `reload` loads the shown session itself, before "ready"
        state = self._state
        moved = isinstance(event, ev.SessionShown | ev.SessionDeleted) and store.CURRENT in change
        relinked = store.LINKED in change and change.session_id == state.current
        if moved or relinked:
            self._showing = self._run(self.show_current(), "show the session")

    async def settled(self) -> None:
        """Once the shown session's load (if one is on its way) is done; its failure is
        the notice, not raised here."""
        while self._showing is not None and not self._showing.done():
            await asyncio.wait([self._showing])

    async def reload(self) -> None:
        """After every (re)connect: the sessions afresh (every local snapshot may be
        stale), the session shown, the tools, the agents and the settings. The lists
        are asked together, as none waits on another's answer: one round trip to the
        host instead of four. Each is applied in that order."""
        host, ask = self._host, asyncio.ensure_future
        sessions = ask(host.call(rpc.SESSIONS_LIST, m.Empty()))
        tools = ask(host.call(rpc.TOOLS_LIST, m.Empty()))
        agents = ask(host.call(rpc.AGENTS_LIST, m.AgentsListParams()))
        # the desktop section as the host reads it now (the window read the file itself
        # before the host was up, for its first frame)
        settings = ask(host.call(rpc.SETTINGS_GET, m.Empty()))
        try:
            listing = await sessions
            self._recovered.clear()
            shown = tuple(convert.session(s) for s in listing.sessions)
            self._state.apply(ev.SessionsListed(shown))
            await self.show_current()
            self._tools_listed(await tools, await agents)
            show_settings(self._state, await settings)
        finally:
            _let_go(sessions, tools, agents, settings)

    def _tools_listed(self, tools: m.ToolsList, agents: m.AgentsList) -> None:
        self._state.apply(ev.ToolsListed(tools_and_controls.tool_sources(tools)))
        self._state.apply(ev.AgentsListed(convert.agents(agents)))

    async def show_current(self) -> None:
        """The shown session's steering, latest turn, checklist and newest transcript
        page: asked together (none waits on another's answer: one round trip to the host
        instead of four), and applied together once all are in, in that order, so that
        the window draws the session once, whole (not its checklist first, then a frame
        later its transcript)."""
        session = self._state.shown
        if session is None:
            return
        sid = session.session_id
        if session.remote and session.remote_state != "connected":
            return  # loaded once its host is linked again
        host, ask = self._host, asyncio.ensure_future
        # what its agent offers to steer it, as the host holds it
        held = m.ControlsParams(session_id=sid)
        controls = ask(host.call(rpc.AGENTS_CONTROLS, held)) if session.agent else None
        turns = ask(host.call(rpc.TURNS_LIST, m.TurnListParams(session_id=sid, limit=100)))
        fetch = not session.checklist_note if session.remote else sid not in self._recovered
        todos = ask(host.call(rpc.TODOS_GET, m.SessionRef(session_id=sid))) if fetch else None
        page = m.MessageListParams(session_id=sid, limit=TRANSCRIPT_PAGE)
        newest = ask(host.call(rpc.MESSAGES_LIST, page))
        asked = [call for call in (controls, turns, todos, newest) if call is not None]
        try:
            steering = await controls if controls is not None else None
            listed = await turns
            snapshot = await todos if todos is not None else None
            listing = await newest
        finally:
            _let_go(*asked)
        if steering is not None:
            self._state.apply(ev.SteeringTold(tools_and_controls.steering(steering)))
        if listed.turns:
            self._state.apply(ev.TurnChanged(convert.turn(listed.turns[0])))
        if snapshot is not None:
            if not session.remote:
                self._recovered.add(sid)
            self._state.apply(ev.SnapshotArrived(convert.snapshot(snapshot)))
        if self._state.current != sid:
            return  # another session is shown now
        messages = listing.messages
        maker = self._feed.reset(titled=bool(session.agent), folder=session.cwd)
        lines = transcript_page.transcript(messages, self._turns(listed), maker=maker)
        first, last = (messages[0], messages[-1]) if messages else (None, None)
        self._state.apply(
            ev.TranscriptPage(
                sid,
                lines,
                listing.has_more,
                first.seq if first else 0,
                _turn_of(first),
                newest_seq=last.seq if last else 0,
            )
        )
        if session.agent and not session.remote:  # its agent's commands, modes and model
            # told before the first prompt: the agent started and its session opened now,
            # once the transcript is drawn (agents.controlsChanged follows)
            ahead = m.ControlsParams(session_id=sid, open=True)
            opened = await self._host.call(rpc.AGENTS_CONTROLS, ahead)
            if self._state.current == sid:
                self._state.apply(ev.SteeringTold(tools_and_controls.steering(opened)))

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
        shown = self._state.session(held.session_id)
        titled, folder = (bool(shown.agent), shown.cwd) if shown else (False, "")
        lines = transcript_page.transcript(
            listing.messages, views, held.oldest_turn or None, titled=titled, folder=folder
        )
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


def _turn_of(message: m.Message | None) -> str:
    return (message.turn_id or "") if message is not None else ""


def _let_go(*calls: asyncio.Future[Any]) -> None:
    """Calls asked together, at the end of their wait: any still running (after one
    failed) is cancelled, not waited for, and a failure not told is taken, so asyncio
    does not log it as never retrieved."""
    for call in calls:
        if not call.done():
            call.cancel()
        elif not call.cancelled():
            call.exception()
