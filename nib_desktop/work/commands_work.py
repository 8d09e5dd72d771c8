"""The composer's own commands (/help, /compact, /continue), every case answered in
words and never sent to the agent; and what waits for a turn's end: a "/compact" typed
during it, and a message queued during it."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from host.protocol import plain_methods as rpc, plain_models as m
from host.protocol.text import shorten
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, facts, slash
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session

StartIn = Callable[[str, str], Coroutine[Any, Any, m.Turn]]


class CommandsWork:
    def __init__(
        self,
        host: HostLink,
        state: AppState,
        run: Runner,
        start_in: StartIn,
        due: Callable[[str, bool], str] = lambda _s, _c: "",
    ) -> None:
        self._host = host
        self._state = state
        self._due = due  # the feedback on the plan queued for a turn's end, as text
        self._run = run
        self._start_in = start_in
        self._compact_after: set[str] = set()  # sessions whose "/compact" waits for the turn
        state.subscribe(self._at_turn_end)

    def _at_turn_end(self, event: ev.Event, _change: object) -> None:
        """When a turn ends: a "/compact" typed during it runs; a message queued during it
        goes once it completes (after a stop or a failure it waits, shown, for the user
        to send, edit or drop it)."""
        if not isinstance(event, ev.TurnChanged) or event.turn.state == "running":
            return
        session_id = event.turn.session_id
        compact = session_id in self._compact_after  # "/compact" typed during the turn
        self._compact_after.discard(session_id)
        completed = event.turn.state == "completed"
        text = self._state.queued.get(session_id, "") if completed else ""
        if text:
            self._state.apply(ev.MessageQueued(session_id, ""))
        asks = self._due(session_id, completed)  # first: what the user asked of the plan
        text = "\n\n".join(part for part in (asks, text) if part)
        if compact:  # first: the host takes no turn while it compacts
            self._run(self._compact_then(session_id, text), "compact the conversation")
        elif text:
            self._run(self._start_in(session_id, text), "send the queued message")

    async def _compact_then(self, session_id: str, text: str) -> None:
        try:
            await self._compact_now(session_id)
        finally:  # a failed compaction (said in the notice) does not lose the message
            if text:
                await self._start_in(session_id, text)

    async def command(self, text: str) -> None:
        """A composer command, every case answered in words; never sent to the agent."""
        command = slash.slash_command(text)
        offered = slash.offered(self._state.agent_commands(self._state.current))
        known = "; ".join(f"{name} ({what})" for name, what in offered)
        if command == slash.HELP_COMMAND:
            self._tell(f"Commands: {known}.")
            return
        if command not in dict(offered):
            self._tell(f"There is no command “{shorten(text.strip(), 40)}”. Commands: {known}.")
            return
        shown = self._state.shown
        if shown is None:
            self._tell(f"{command} works in a session: open one first.")
            return
        if command == slash.CONTINUE_COMMAND:
            await self._continue_command(shown)
            return
        if shown.running:
            self._compact_after.add(shown.session_id)
            self._tell("/compact after this turn: the conversation is summarised once it ends.")
            return
        await self._compact_now(shown.session_id)

    async def _continue_command(self, shown: Session) -> None:
        if shown.running:
            self._tell("/continue works once this turn ends.")
            return
        held = self._state.snapshot(shown.session_id)
        if held is None or not facts.unfinished(held.items):
            self._tell("Nothing to continue: no step of the checklist is unfinished.")
            return
        await self._start_in(shown.session_id, slash.CONTINUE_TEXT)

    async def _compact_now(self, session_id: str) -> None:
        result = await self.compact_session(session_id)
        if result is not None and result.summarised_messages == 0:
            self._tell("Nothing to compact: the conversation is short enough as it is.")

    def _tell(self, text: str) -> None:
        self._state.apply(ev.NoticeShown(text))

    async def compact_session(self, session_id: str | None = None) -> m.CompactResult | None:
        """`/compact`: the conversation of `session_id` (by default the shown session's)
        summarised now (the transcript gets the line when the summary is stored)."""
        shown = session_id or self._state.current
        if shown is None:
            return None
        return await self._host.call(
            rpc.SESSIONS_COMPACT, m.SessionRef(session_id=shown), timeout=120.0
        )
