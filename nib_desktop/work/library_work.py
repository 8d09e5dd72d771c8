"""The library of sessions, carried out: a session renamed (`sessions.rename`, which
`sessions.changed` then tells every window), every session searched
(`sessions.search`; an answer overtaken by a newer query is dropped) and one exported
as Markdown (`sessions.export`, said in the notice)."""

from __future__ import annotations

from host.protocol import plain_methods as rpc, plain_models as m
from host.protocol.text import shown_text
from nib_desktop.inbound import convert
from nib_desktop.link.connection import HostLink
from nib_desktop.link.rpc_client import describe
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, library as lib
from nib_desktop.state.store import AppState

WHO = {"user": "You", "assistant": "Agent", "summary": "Summary"}


def hit(found: m.SearchHit, agent: str = "") -> lib.Hit:
    """A hit as the window shows it: outside text made safe to show (bidi controls written
    out), its marks moved with the text they mark; an agent's words under the name of the
    session's agent (`agent`, "" for Nib's own: "Agent")."""
    text, marks, at = "", [], 0
    for start, end in found.marks:
        text += shown_text(found.snippet[at:start])
        marked = shown_text(found.snippet[start:end])
        marks.append((len(text), len(text) + len(marked)))
        text += marked
        at = end
    text += shown_text(found.snippet[at:])
    return lib.Hit(
        found.session_id,
        shown_text(found.title),
        found.seq or 0,
        shown_text(agent) if found.role == "assistant" and agent else WHO.get(found.role or "", ""),
        convert.local_day_time(found.created_at),
        text,
        tuple(marks),
    )


class LibraryWork:
    HANDLES = (
        lib.RenameSession,
        lib.SearchSessions,
        lib.ExportSession,
    )  # the intents it carries out

    def __init__(self, host: HostLink, state: AppState, run: Runner) -> None:
        self._host = host
        self._state = state
        self._run = run
        self._asked = ""  # the newest query asked

    def ask(self, intent: lib.LibraryIntent) -> None:
        match intent:
            case lib.RenameSession(session_id, title):
                params = m.RenameParams(session_id=session_id, title=title)
                self._run(self._host.call(rpc.SESSIONS_RENAME, params), "rename the session")
            case lib.SearchSessions(query):
                self._asked = query
                if not query.strip():
                    self._state.apply(ev.SearchAnswered(lib.Search(query)))
                else:
                    self._run(self.search(query), "search the sessions")
            case lib.ExportSession():
                self._run(self.export(intent), "export the session")

    async def search(self, query: str) -> None:
        try:
            found = await self._host.call(rpc.SESSIONS_SEARCH, m.SearchParams(query=query))
        except Exception as exc:  # said in the search's own words, where it was asked
            if query == self._asked:
                self._state.apply(ev.SearchAnswered(lib.Search(query, error=describe(exc))))
            return
        if query == self._asked:
            agents = {s.session_id: s.agent for s in self._state.sessions}
            hits = tuple(hit(h, agents.get(h.session_id, "")) for h in found.hits)
            self._state.apply(ev.SearchAnswered(lib.Search(query, hits)))

    async def export(self, intent: lib.ExportSession) -> None:
        path = convert.folder_path(intent.path)
        params = m.ExportParams(session_id=intent.session_id, path=path, replace=intent.replace)
        done = await self._host.call(rpc.SESSIONS_EXPORT, params)
        session = self._state.session(intent.session_id)
        title = session.title if session is not None else "The session"
        size = f"{done.bytes / 1024:,.0f} KB" if done.bytes >= 1024 else f"{done.bytes} bytes"
        self._state.apply(ev.NoticeShown(f"“{title}” exported to {done.path} ({size}).", "done"))
