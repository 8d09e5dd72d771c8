"""The user's intents carried out: each typed intent (`nib_desktop.state.intents`) to
the host call it means, and the answer or the failure to events. A failure is shown to
the user as the notice, in words ("Could not create a session: …").

The async methods can be awaited directly (tests, scripted runs); `ask` runs one in the
background for the views (`nib_desktop.link.runner`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from host.protocol import methods as rpc, models as m
from nib_desktop.inbound import convert
from nib_desktop.inbound.loading import Loader
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, intents as it, sidebar, slash
from nib_desktop.state.store import AppState
from nib_desktop.work.changes_work import ChangesWork
from nib_desktop.work.commands_work import CommandsWork
from nib_desktop.work.feedback_work import FeedbackWork
from nib_desktop.work.files_work import FilesWork, mentioned
from nib_desktop.work.history_files import HistoryFiles
from nib_desktop.work.images_work import ImagesWork
from nib_desktop.work.library_work import LibraryWork
from nib_desktop.work.opener import open_place
from nib_desktop.work.remote_work import RemoteWork
from nib_desktop.work.restore_work import RestoreWork
from nib_desktop.work.settings_work import SettingsWork
from nib_desktop.work.steering_work import SteeringWork
from nib_desktop.work.step_files import StepFiles
from nib_desktop.work.transcript_copy import copy_transcript


class Intents:
    def __init__(
        self,
        host: HostLink,
        state: AppState,
        loader: Loader,
        run: Runner,
        data_dir: Path | None = None,
    ) -> None:
        self._data_dir = data_dir
        self._host = host
        self._state = state
        self._loader = loader
        self._run = run
        self.changes = ChangesWork(host, state, run)
        self.restores = RestoreWork(host, state, run, self.changes.reload)
        self.step_files = StepFiles(host, state, run)
        self.history_files = HistoryFiles(host, state, run)
        self.settings = SettingsWork(host, state, run, data_dir)
        self.commands = CommandsWork(host, state, run, self.start_turn_in)
        self.remote = RemoteWork(host, state, self._open)
        self.feedback = FeedbackWork(state, run, self.start_turn_in)
        self.steering = SteeringWork(host, state, run, self.start_turn_in)
        self.files = FilesWork(state, run)
        self.images = ImagesWork(state)
        self.library = LibraryWork(host, state, run)

    # --- running them -----------------------------------------------------------------

    def ask(self, intent: it.Intent) -> None:
        """Carry out `intent` in the background (a view's slot)."""
        match intent:
            case it.SaveDraft(session_id, text):
                self._state.apply(ev.DraftSaved(session_id, text))
            case it.Dismiss():
                self._state.apply(ev.NoticeShown(""))
            case it.ExpandDock(expanded):
                self._state.apply(ev.DockExpanded(expanded))
            case it.SetDesktopPref(name, on):
                self.settings.set_desktop_pref(name, on)
            case it.DisableServer(name, disabled):
                self.settings.disable_server(name, disabled)
            case it.OpenSettings():
                self.settings.open_settings()
            case it.ViewRevision(revision):
                self._state.apply(ev.RevisionViewed(revision))
            case it.CloseHistory():
                self._state.apply(ev.HistoryClosed())
            case it.ShowSession(session_id):
                self._state.apply(ev.SessionShown(session_id))
            case it.FindFiles(query):
                self.files.find(query)
            case it.HoldImage() | it.DropImage():
                self.images.ask(intent)
            case it.Queue(text):
                current = self._state.current
                if current is not None:  # a second message joins the first
                    held = self._state.queued.get(current, "")
                    joined = f"{held}\n\n{text}" if held and text else text
                    self._state.apply(ev.MessageQueued(current, joined))
            case it.SendQueued():
                shown = self._state.shown
                text = self._state.queued.get(shown.session_id, "") if shown else ""
                if shown is not None and text and not shown.running:
                    self._state.apply(ev.MessageQueued(shown.session_id, ""))
                    self._run(self.start_turn_in(shown.session_id, text), "send the message")
            case it.ShowAdjacent(step):
                if (target := sidebar.adjacent(self._state, step)) is not None:
                    self._state.apply(ev.SessionShown(target))
            case it.RenameSession() | it.SearchSessions() | it.ExportSession():
                self.library.ask(intent)
            case it.CreateSession(mode, agent, folder):  # one that times out may appear
                self._run(self.create_session(mode, agent, folder), "create a session", "session")
            case it.OpenChanges(_, revision):
                self.changes.open(revision)
            case it.OpenPlace(path, line):
                open_place(self._state, path, line)
            case it.CloseChanges():
                self.changes.close()
            case it.Restore() | it.RevertHunk() | it.AskRestore() | it.DropRestoreQuestion():
                self.restores.ask(intent)
            case it.AskOnPlan() | it.DropAsk() | it.SendFeedback():
                self.feedback.ask(intent)
            case it.OpenHistory():
                shown = self._state.shown
                if shown is not None and not shown.checklist_note:  # it has a checklist
                    self._state.apply(ev.HistoryOpened(shown.session_id))
            case _:
                self._run(*self._work(intent))

    def _work(self, intent: it.Intent) -> tuple[Coroutine[Any, Any, object], str]:
        match intent:
            case it.AttachRemote(endpoint, remote_session_id):
                attach = self.remote.attach_remote(endpoint, remote_session_id)
                return attach, "attach the remote session"
            case it.ListRemoteSessions(endpoint):
                return self.remote.list_remote_sessions(endpoint), "list the remote sessions"
            case it.ForkSession():
                return self.fork_session(), "fork the session"
            case it.DeleteSession(session_id):
                return self.delete_session(session_id), "delete the session"
            case it.Send(text):
                theirs = self._state.agent_commands(self._state.current)
                if slash.slash_command(text) is not None and not slash.for_the_agent(text, theirs):
                    return self.commands.command(text), "run the command"
                return self.start_turn(text), "send the message"
            case it.Stop():
                return self.cancel_turn(), "stop the turn"
            case it.SignIn(agent, method_id):
                return self.steering.sign_in(agent, method_id), f"sign in to {agent}"
            case it.Steer(option, value, then):
                what = "change the option" if option else "change the mode"
                return self.steering.steer(option, value, then), what
            case it.Continue():
                return self.continue_turn(), "continue the turn"
            case it.Retry():
                return self.retry(), "start the host"
            case it.RetryRemote():
                return self.remote.retry_remote(), "reach the remote host"
            case it.RetryServer(name):
                return self._host.call(rpc.TOOLS_RETRY, m.ToolsRetryParams(name=name)), (
                    f"start the MCP server {name} again"
                )
            case it.Answer() as answer:
                return self._host.call(rpc.APPROVALS_RESPOND, convert.answer(answer)), (
                    "answer the approval"
                )
            case it.CopyTranscript():
                return copy_transcript(self._host, self._state), "copy the transcript"
            case it.LoadOlderMessages():
                return self._loader.load_older_messages(), "load earlier messages"
            case it.LoadOlderRevisions():
                return self._loader.history.load_older(), "load older revisions"
        raise TypeError(f"not an intent for the host: {intent!r}")

    # --- the intents that ask the host ------------------------------------------------

    async def create_session(
        self, mode: str = "agent", agent: str = "", folder: str = ""
    ) -> m.Session:
        fields: dict[str, str] = {"mode": mode}
        if agent:
            fields["agent"] = agent
        if folder.strip():
            fields["cwd"] = convert.folder_path(folder)
        params = m.CreateSessionParams.model_validate(fields)
        return await self._open(await self._host.call(rpc.SESSIONS_CREATE, params))

    async def fork_session(self) -> m.Session | None:
        shown = self._state.current
        if shown is None:
            return None
        params = m.ForkParams(session_id=shown)
        return await self._open(await self._host.call(rpc.SESSIONS_FORK, params))

    async def delete_session(self, session_id: str) -> None:
        await self._host.call(rpc.SESSIONS_DELETE, m.SessionRef(session_id=session_id))

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
        images = self.images.take(session_id)
        if session is not None and session.agent and not session.remote:
            files = await asyncio.to_thread(mentioned, session.cwd, text)
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

    async def continue_turn(self) -> m.Turn | None:
        shown = self._state.shown
        if shown is None or shown.running:
            return None
        return await self.start_turn(slash.CONTINUE_TEXT)

    async def retry(self) -> None:
        await self._host.start()

    async def _open(self, session: m.Session) -> m.Session:
        """A session made here, shown; done once it is loaded."""
        self._state.apply(ev.SessionChanged(convert.session(session)))
        self._state.apply(ev.SessionShown(session.id))
        await self._loader.settled()
        return session
