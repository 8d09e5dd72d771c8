"""Sessions and turns asked of the host: a session made (and shown once loaded), forked,
deleted or shown; a turn started (with the files a message mentions and the images held
for it), stopped, continued; the host started again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from host.protocol import plain_methods as rpc, plain_models as m
from nib_desktop.inbound import convert
from nib_desktop.inbound.loading import Loader
from nib_desktop.link.connection import HostLink
from nib_desktop.state import events as ev, slash
from nib_desktop.state.editing import Editing
from nib_desktop.state.store import AppState
from nib_desktop.work.files_work import mentioned, mentioned_of
from nib_desktop.work.images_work import ImagesWork

log = logging.getLogger(__name__)
STOP_REMOTE_S = 5.0  # what closing waits for remote hosts to stop their turns


class SessionsWork:
    def __init__(
        self,
        host: HostLink,
        state: AppState,
        loader: Loader,
        images: ImagesWork,
        listed: Callable[[str], tuple[str, ...]] = lambda _session_id: (),
    ) -> None:
        self._host, self._state, self._loader, self._images = host, state, loader, images
        self._listed = listed  # a remote session's files as "@" last listed them
        self.stop_remote_on_close = False  # the quit question's answer (CloseChoice)

    async def create_session(
        self,
        mode: str = "agent",
        agent: str = "",
        folder: str = "",
        worktree: tuple[str, str, bool] | None = None,
    ) -> m.Session:
        fields: dict[str, object] = {"mode": mode}
        if agent:
            fields["agent"] = agent
        if folder.strip():
            fields["cwd"] = convert.folder_path(folder)
        if worktree is not None:
            base, branch, carry = worktree
            asked = {"base": base.strip() or None, "branch": branch.strip() or None}
            fields["worktree"] = {**asked, "carry": carry}
        params = m.CreateSessionParams.from_wire(fields)
        return await self.open(await self._host.call(rpc.SESSIONS_CREATE, params))

    async def fork_session(self) -> m.Session | None:
        shown = self._state.current
        if shown is None:
            return None
        params = m.ForkParams(session_id=shown)
        return await self.open(await self._host.call(rpc.SESSIONS_FORK, params))

    async def rewind(self, editing: Editing, text: str) -> m.Session:
        """An earlier message sent again as `text`, in a fork of its session from there
        (`sessions.rewind`), the folder back to that turn's start when asked; the fork
        shown once it is loaded."""
        params = m.RewindParams(
            session_id=editing.session_id,
            message_id=editing.message_id,
            text=text,
            files=editing.files,
        )
        try:
            fork = await self._host.call(rpc.SESSIONS_REWIND, params)
        except BaseException:  # not sent: the edited text back in the input, none lost
            if self._state.editing == editing:
                self._state.apply(ev.EditingSet(None))
                self._state.apply(ev.EditingSet(editing._replace(text=text)))
            raise
        if self._state.editing == editing:
            self._state.apply(ev.EditingSet(None))
        return await self.open(fork)

    async def delete_session(self, session_id: str, worktree: str = "") -> None:
        """The session deleted; one in its own worktree with that worktree removed or
        kept for git, as the user chose (`worktree`)."""
        params = m.DeleteParams.from_wire({"sessionId": session_id, "worktree": worktree or None})
        await self._host.call(rpc.SESSIONS_DELETE, params)

    async def select_session(self, session_id: str) -> None:
        """Show the session; done once it is loaded."""
        self._state.apply(ev.SessionShown(session_id))
        await self._loader.settled()

    async def start_turn(self, text: str) -> m.Turn:
        shown = self._state.current or (await self.create_session("agent")).id
        return await self.start_turn_in(shown, text)

    async def cancel_turn(self) -> m.Turn | None:
        shown = self._state.shown
        if shown is None or not shown.running:
            return None
        ref = m.TurnRef(session_id=shown.session_id, turn_id=shown.running_turn)
        return await self._host.call(rpc.TURNS_CANCEL, ref)

    async def start_turn_in(self, session_id: str, text: str) -> m.Turn:
        """`text` to the session; in a local agent session the files it mentions with
        "@", and the images held for it, go with it as attachments (contract 17)."""
        session = self._state.session(session_id)
        files: tuple[str, ...] = ()
        images = self._images.take(session_id)
        if session is not None and session.agent and not session.remote:
            files = await asyncio.to_thread(mentioned, session.cwd, text)
        elif session is not None and session.agent:  # its files are on its host's machine
            files = mentioned_of(text, frozenset(self._listed(session_id)))
        attached: list[m.Attachment] = [m.FileAttachment(type="file", path=p) for p in files]
        attached += [
            m.ImageAttachment(type="image", mime_type=i.mime_type, data=i.data) for i in images
        ]
        params = m.StartTurnParams(session_id=session_id, text=text, attachments=tuple(attached))
        try:
            return await self._host.call(rpc.TURNS_START, params)
        except BaseException:  # not sent: the images are held again, none lost
            if images and not self._state.images.get(session_id):
                self._state.apply(ev.ImagesHeld(session_id, images))
            raise

    def choose_close(self, stop_remote: bool) -> None:
        """The quit question answered: whether closing stops the remote turns too."""
        self.stop_remote_on_close = stop_remote

    async def before_close(self) -> None:
        """As the window closes, if the user chose so: the turns running on remote hosts
        are stopped there (bounded; a host out of reach keeps its turn)."""
        if not self.stop_remote_on_close:
            return
        refs = [
            m.TurnRef(session_id=s.session_id, turn_id=s.running_turn)
            for s in self._state.sessions
            if s.remote and s.running and s.reachable
        ]
        if refs:
            stops = [self._host.call(rpc.TURNS_CANCEL, ref) for ref in refs]
            done = await asyncio.wait_for(
                asyncio.gather(*stops, return_exceptions=True), STOP_REMOTE_S
            )
            for ref, outcome in zip(refs, done, strict=True):
                if isinstance(outcome, BaseException):
                    log.warning("the remote turn %s was not stopped: %s", ref.turn_id, outcome)

    async def continue_turn(self) -> m.Turn | None:
        shown = self._state.shown
        if shown is None or shown.running:
            return None
        return await self.start_turn(slash.CONTINUE_TEXT)

    async def retry(self) -> None:
        await self._host.start()

    async def open(self, session: m.Session) -> m.Session:
        """A session made here, shown; done once it is loaded."""
        self._state.apply(ev.SessionChanged(convert.session(session)))
        self._state.apply(ev.SessionShown(session.id))
        await self._loader.settled()
        return session
