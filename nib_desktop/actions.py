"""What the user can do, each under one name from the QML slot to the host call
(`createSession` -> `create_session` -> `sessions.create`), and what the window loads
when a session is shown: its transcript, and for a local session its checklist and last
turn. The recovery policy lives here: a local session's snapshot is fetched when it is
first shown and again after every reconnect; a remote session's is never read from local
data: with the "todos" capability its host answers, each time it is shown.
"""

from __future__ import annotations

import logging

from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.text import shown_text
from nib_desktop import convert
from nib_desktop.connection import HostConnection
from nib_desktop.controller import MainController
from nib_desktop.rpc_client import describe
from nib_desktop.sessions import SessionState
from ui.models import RemoteChoice

log = logging.getLogger(__name__)

TRANSCRIPT_PAGE = 200  # messages loaded at a time; older ones as the user scrolls up


class Actions:
    def __init__(
        self, connection: HostConnection, sessions: SessionState, view: MainController
    ) -> None:
        self._host = connection
        self._sessions = sessions
        self._view = view
        self._recovered: set[str] = set()
        self._history_busy = False  # a newest-page load is on its way
        self._history_again = False  # ...and another write came meanwhile

    # --- the user's actions -------------------------------------------------------------

    async def create_session(self, mode: str = "agent") -> m.Session:
        params = m.CreateSessionParams.model_validate({"mode": mode})
        return await self._open(await self._host.call(rpc.SESSIONS_CREATE, params))

    async def attach_remote(self, endpoint: str, remote_session_id: str) -> m.Session:
        """Attach the session `remote_session_id` of the host at `endpoint`, or with ""
        create one there; the host names it after the remote session and its host."""
        remote = m.RemoteTarget(endpoint=endpoint, remote_session_id=remote_session_id or None)
        params = m.CreateSessionParams(remote=remote)
        return await self._open(await self._host.call(rpc.SESSIONS_CREATE, params))

    async def list_remote_sessions(self, endpoint: str) -> None:
        try:
            listing = await self._host.call(
                rpc.REMOTE_SESSIONS, m.RemoteSessionsParams(endpoint=endpoint)
            )
        except Exception as exc:  # said in the dialog, beside the field it is about
            self._view.set_remote_choices([], f"Could not list them: {describe(exc)}")
            return
        choices = [RemoteChoice(s.id, shown_text(s.title)) for s in listing.sessions]
        note = "" if choices else "That host has no sessions yet: leave the id blank for a new one."
        self._view.set_remote_choices(choices, note)

    async def respond_approval(self, approval_id: str, decision: str) -> None:
        params = m.ApprovalRespondParams.model_validate(
            {"approvalId": approval_id, "decision": decision}
        )
        await self._host.call(rpc.APPROVALS_RESPOND, params)

    async def load_tools(self) -> None:
        listing = await self._host.call(rpc.TOOLS_LIST, m.Empty())
        self._view.set_tool_sources(convert.tool_sources(listing))

    async def fork_session(self) -> m.Session | None:
        current = self._sessions.current
        if current is None:
            return None
        params = m.ForkParams(session_id=current.id)
        return await self._open(await self._host.call(rpc.SESSIONS_FORK, params))

    async def delete_session(self, session_id: str) -> None:
        await self._host.call(rpc.SESSIONS_DELETE, m.SessionRef(session_id=session_id))

    async def select_session(self, session_id: str) -> None:
        if self._sessions.select(session_id):
            await self.show_current()

    async def start_turn(self, text: str) -> m.Turn:
        current = self._sessions.current or await self.create_session("agent")
        params = m.StartTurnParams(session_id=current.id, text=text)
        return await self._host.call(rpc.TURNS_START, params)

    async def cancel_turn(self) -> m.Turn | None:
        current = self._sessions.current
        if current is None or current.running_turn_id is None:
            return None
        ref = m.TurnRef(session_id=current.id, turn_id=current.running_turn_id)
        return await self._host.call(rpc.TURNS_CANCEL, ref)

    async def compact_session(self) -> m.CompactResult | None:
        """`/compact`: the shown session's conversation summarised now (the transcript
        gets the line when the summary is stored)."""
        current = self._sessions.current
        if current is None:
            return None
        return await self._host.call(
            rpc.SESSIONS_COMPACT, m.SessionRef(session_id=current.id), timeout=120.0
        )

    async def retry(self) -> None:
        await self._host.start()

    async def load_history(self, older: bool = False) -> None:
        """A page of the open History view's revisions: the newest, or with `older` the
        page before the oldest held. Run again on every write while the view is open;
        writes arriving during a load cost one more load, not one each."""
        if not older and self._history_busy:
            self._history_again = True
            return
        self._history_busy = not older
        try:
            while True:
                self._history_again = False
                await self._load_history_page(older)
                if older or not self._history_again:
                    return
        finally:
            if not older:
                self._history_busy = False

    async def _load_history_page(self, older: bool) -> None:
        dock = self._view.dock_model
        session_id = dock.history_session()
        if session_id is None:
            return
        before = dock.oldest_revision() if older else None
        params = m.TodoHistoryParams(session_id=session_id, before_revision=before or None)
        page = await self._host.call(rpc.TODOS_HISTORY, params)
        revisions = tuple(convert.revision(r) for r in page.revisions)
        dock.set_history(session_id, revisions, page.has_more, older)

    # --- loading ---------------------------------------------------------------------------

    async def reload(self) -> None:
        """After every (re)connect: the sessions afresh; every local snapshot may be stale."""
        listing = await self._host.call(rpc.SESSIONS_LIST, m.Empty())
        self._recovered.clear()
        self._view.clear_approvals()
        self._sessions.replace_all(listing.sessions)
        await self.show_current()
        await self.load_tools()

    async def show_current(self) -> None:
        session = self._sessions.current
        self._sessions.transcript = convert.Transcript()
        self._view.transcript_model.set_rows([])
        self._view.set_transcript_more(False)
        if session is None:
            return
        ref = m.SessionRef(session_id=session.id)
        remote = session.remote
        if remote is not None and remote.state != "connected":
            return  # shown again once its host is linked (the router reloads it)
        turns = await self._host.call(
            rpc.TURNS_LIST, m.TurnListParams(session_id=session.id, limit=100)
        )
        if turns.turns:
            self._view.turnChanged.emit(convert.turn(turns.turns[0]))
        if remote is not None:
            if "todos" in remote.capabilities:  # from its host, every time it is shown
                snapshot = await self._host.call(rpc.TODOS_GET, ref)
                self._view.todosChanged.emit(convert.snapshot(snapshot))
        elif session.id not in self._recovered:
            self._recovered.add(session.id)
            self._view.todosChanged.emit(
                convert.snapshot(await self._host.call(rpc.TODOS_GET, ref))
            )
        page = m.MessageListParams(session_id=session.id, limit=TRANSCRIPT_PAGE)
        listing = await self._host.call(rpc.MESSAGES_LIST, page)
        if (shown := self._sessions.current) is not None and shown.id == session.id:
            transcript = self._sessions.transcript
            transcript.messages = list(listing.messages)
            transcript.turns = turns.turns
            transcript.has_more = listing.has_more
            self._view.transcript_model.set_rows(transcript.rebuild())
            self._view.set_transcript_more(listing.has_more)

    async def load_older_messages(self) -> None:
        """The page of the shown session's transcript before the oldest message loaded."""
        session = self._sessions.current
        transcript = self._sessions.transcript
        if session is None or not transcript.has_more or not transcript.messages:
            return
        if transcript.loading:
            return  # the page before is on its way
        params = m.MessageListParams(
            session_id=session.id, before_seq=transcript.messages[0].seq, limit=TRANSCRIPT_PAGE
        )
        transcript.loading = True
        try:
            listing = await self._host.call(rpc.MESSAGES_LIST, params)
        finally:
            transcript.loading = False
        if self._sessions.current is not session or self._sessions.transcript is not transcript:
            return  # another session is shown now
        transcript.messages[:0] = listing.messages
        transcript.has_more = listing.has_more
        self._view.transcript_model.replace_keeping_tail(transcript.rebuild())
        self._view.set_transcript_more(listing.has_more)

    async def _open(self, session: m.Session) -> m.Session:
        self._sessions.update(session)
        await self.select_session(session.id)
        return session
