"""An agent's own earlier sessions, from the window (contract section 20): listed for a
folder as the agent pages them, and one opened as a Nib session (imported, or the one
already bound to it); what the agent cannot do said in its words."""

from __future__ import annotations

from host.protocol import errors, plain_methods as rpc, plain_models as m
from host.protocol.text import shown_text
from nib_desktop.inbound import convert
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state.earlier import Earlier, EarlierRow, ImportEarlier, ListEarlier
from nib_desktop.state.store import AppState
from nib_desktop.work.sessions_work import SessionsWork


class EarlierWork:
    HANDLES = (ListEarlier, ImportEarlier)  # the intents it carries out

    def __init__(
        self, host: HostLink, state: AppState, run: Runner, sessions: SessionsWork
    ) -> None:
        self._host, self._state, self._run, self._sessions = host, state, run, sessions

    def ask(self, intent: ListEarlier | ImportEarlier) -> None:
        if isinstance(intent, ListEarlier):
            self._run(self.listing(intent), f"list the earlier {intent.agent} sessions")
        else:
            self._run(self.open(intent), "open the earlier session")

    async def listing(self, asked: ListEarlier) -> None:
        held = self._state.earlier
        more = asked.more and held.agent == asked.agent and held.folder == asked.folder
        cursor = held.cursor if more else None
        rows = held.rows if more else ()
        start = Earlier(asked.agent, asked.folder, rows, held.cursor if more else "", "", True)
        self._state.apply(ev.EarlierListed(start))
        params = m.AgentSessionsParams(
            agent=asked.agent, cwd=convert.folder_path(asked.folder) or None, cursor=cursor
        )
        try:
            page = await self._host.call(rpc.AGENTS_SESSIONS, params)
        except (errors.InvalidParams, errors.AgentRefused) as exc:
            self._state.apply(ev.EarlierListed(start._replace(note=exc.message, loading=False)))
            return
        found = rows + tuple(_row(s) for s in page.sessions)
        note = "" if found else f"{asked.agent} has no earlier session in this folder"
        done = Earlier(asked.agent, asked.folder, found, page.next_cursor or "", note, False)
        self._state.apply(ev.EarlierListed(done))

    async def open(self, asked: ImportEarlier) -> None:
        params = m.ImportParams(
            agent=asked.agent,
            agent_session_id=asked.agent_session_id,
            cwd=convert.folder_path(asked.folder),
        )
        session = await self._host.call(rpc.SESSIONS_IMPORT, params)
        await self._sessions.open(session)


def _row(s: m.AgentSessionInfo) -> EarlierRow:
    title = shown_text(s.title or "(untitled)")
    when = convert.local_day_time(s.updated_at) if s.updated_at else ""
    folder = shown_text(convert.folder_label(s.cwd))
    mark = ", in Nib already" if s.imported else ""
    words = f"{title}, {when or 'no time given'}, in {folder}{mark}"
    return EarlierRow(s.agent_session_id, title, when, folder, s.imported or "", words)
