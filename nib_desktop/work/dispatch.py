"""The user's intents carried out: each typed intent (`nib_desktop.state.intents`) to
the host call it means, and the answer or the failure to events. A failure is shown to
the user as the notice, in words ("Could not create a session: …").

The async methods can be awaited directly (tests, scripted runs); `ask` runs one in the
background for the views (`nib_desktop.link.runner`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from host.protocol import plain_methods as rpc, plain_models as m
from nib_desktop.inbound import convert
from nib_desktop.inbound.loading import Loader
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, intents as it, sidebar, slash
from nib_desktop.state.folder_intents import CheckRemoteFolder
from nib_desktop.state.store import AppState
from nib_desktop.work.attempt_work import AttemptWork
from nib_desktop.work.changes_work import ChangesWork
from nib_desktop.work.commands_work import CommandsWork
from nib_desktop.work.earlier_work import EarlierWork
from nib_desktop.work.feedback_work import FeedbackWork
from nib_desktop.work.files_work import FilesWork
from nib_desktop.work.history_files import HistoryFiles
from nib_desktop.work.images_work import ImagesWork
from nib_desktop.work.library_work import LibraryWork
from nib_desktop.work.opener import open_place
from nib_desktop.work.remote_work import RemoteWork
from nib_desktop.work.restore_work import RestoreWork
from nib_desktop.work.sessions_work import SessionsWork
from nib_desktop.work.settings_work import SettingsWork
from nib_desktop.work.steering_work import SteeringWork
from nib_desktop.work.step_files import StepFiles
from nib_desktop.work.transcript_copy import copy_transcript
from nib_desktop.work.worktree_work import WorktreeWork


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
        self.images = ImagesWork(state)
        self.files = FilesWork(state, run, host)
        self.sessions = SessionsWork(host, state, loader, self.images, self.files.held)
        self.changes = ChangesWork(host, state, run)
        self.restores = RestoreWork(host, state, run, self.changes.reload)
        self.step_files = StepFiles(host, state, run)
        self.history_files = HistoryFiles(host, state, run)
        self.settings = SettingsWork(host, state, run, data_dir)
        self.feedback = FeedbackWork(state, run, self.sessions.start_turn_in)
        start_in, due = self.sessions.start_turn_in, self.feedback.due
        self.commands = CommandsWork(host, state, run, start_in, due)
        self.remote = RemoteWork(host, state, self.sessions.open)
        self.steering = SteeringWork(host, state, run, self.sessions.start_turn_in)
        self.library = LibraryWork(host, state, run)
        self.worktree = WorktreeWork(host, state, run)
        self.attempts = AttemptWork(host, state, run, self.changes.load, self.images)
        self.earlier = EarlierWork(host, state, run, self.sessions)
        self._handlers = self.handlers()

    # --- running them -----------------------------------------------------------------

    def ask(self, intent: it.Intent) -> None:
        """Carry out `intent` (a view's slot, through `MainRole.ask`, which applies an
        event a view names itself): every intent has its one handler in the table
        (`handlers`), which runs what it asks of the host in the background."""
        self._handlers[type(intent)](intent)

    def handlers(self) -> dict[type, Callable[[Any], None]]:
        """Each intent's type to its handler: the areas' own, then what runs here."""
        table: dict[type, Callable[[Any], None]] = {}
        works = (self.images, self.library, self.restores, self.feedback, self.worktree)
        for work in (*works, self.earlier, self.attempts):
            table |= dict.fromkeys(work.HANDLES, work.ask)
        Job = Callable[[Any], tuple[Coroutine[Any, Any, object], str]]
        background: dict[type, Job] = {
            it.AttachRemote: lambda i: (
                self.remote.attach_remote(i),
                "attach the remote session",
            ),
            it.ListRemoteSessions: lambda i: (
                self.remote.list_remote_sessions(i.endpoint),
                "list the remote sessions",
            ),
            CheckRemoteFolder: lambda i: (
                self.remote.check_folder(i.endpoint, i.folder),
                "check the folder on the remote host",
            ),
            it.ForkSession: lambda _i: (self.sessions.fork_session(), "fork the session"),
            it.AnswerAsk: lambda i: (self._answer_ask(i), "answer the agent"),
            it.DeleteSession: lambda i: (
                self.sessions.delete_session(i.session_id, i.worktree),
                "delete the session",
            ),
            it.Send: self._send,
            it.Resend: self._resend,
            it.Stop: lambda _i: (self.sessions.cancel_turn(), "stop the turn"),
            it.SignIn: lambda i: (
                self.steering.sign_in(i.agent, i.method_id),
                f"sign in to {i.agent}",
            ),
            it.Steer: lambda i: (
                self.steering.steer(i.option, i.value, i.then),
                "change the option" if i.option else "change the mode",
            ),
            it.Continue: self._continue,
            it.Retry: lambda _i: (self.sessions.retry(), "start the host"),
            it.RetryRemote: lambda _i: (self.remote.retry_remote(), "reach the remote host"),
            it.RetryServer: lambda i: (
                self._host.call(rpc.TOOLS_RETRY, m.ToolsRetryParams(name=i.name)),
                f"start the MCP server {i.name} again",
            ),
            it.Answer: lambda i: (
                self._host.call(rpc.APPROVALS_RESPOND, convert.answer(i)),
                "answer the approval",
            ),
            it.CopyTranscript: lambda _i: (
                copy_transcript(self._host, self._state),
                "copy the transcript",
            ),
            it.LoadOlderMessages: lambda _i: (
                self._loader.load_older_messages(),
                "load earlier messages",
            ),
            it.LoadOlderRevisions: lambda _i: (
                self._loader.history.load_older(),
                "load older revisions",
            ),
        }
        for kind, job in background.items():
            table[kind] = self._in_background(job)
        table |= {
            it.SetDesktopPref: lambda i: self.settings.set_desktop_pref(i.name, i.on),
            it.DisableServer: lambda i: self.settings.disable_server(i.name, i.disabled),
            it.OpenSettings: lambda _i: self.settings.open_settings(),
            it.FindFiles: lambda i: self.files.find(i.query),
            it.Queue: self._queue,
            it.SendQueued: self._send_queued,
            it.CloseChoice: lambda i: self.sessions.choose_close(i.stop_remote),
            it.ShowAdjacent: self._show_adjacent,
            it.CreateSession: self._create,
            it.OpenChanges: lambda i: self.changes.open(i.revision),
            it.CloseChanges: lambda _i: self.changes.close(),
            it.OpenPlace: lambda i: open_place(self._state, i.path, i.line),
            it.OpenHistory: self._open_history,
        }
        return table

    def _in_background(
        self, job: Callable[[Any], tuple[Coroutine[Any, Any, object], str]]
    ) -> Callable[[Any], None]:
        def run(intent: Any) -> None:
            self._run(*job(intent))

        return run

    def _create(self, intent: it.CreateSession) -> None:  # one that times out may appear
        self._run(
            self.sessions.create_session(intent.mode, intent.agent, intent.folder, intent.worktree),
            "create a session",
            "session",
        )

    def _send(self, intent: it.Send) -> tuple[Coroutine[Any, Any, object], str]:
        text = intent.text
        theirs = self._state.agent_commands(self._state.current)
        if slash.slash_command(text) is not None and not slash.for_the_agent(text, theirs):
            return self.commands.command(text), "run the command"
        return self.sessions.start_turn(text), "send the message"

    def _resend(self, intent: it.Resend) -> tuple[Coroutine[Any, Any, object], str]:
        editing = self._state.editing
        if editing is None:
            return self.sessions.start_turn(intent.text), "send the message"
        return self.sessions.rewind(editing, intent.text), "send the edited message"

    async def _answer_ask(self, intent: it.AnswerAsk) -> None:
        """The user's answer to what an agent asked (its values checked by the host)."""
        values = dict(intent.values)
        asked = {"askId": intent.ask_id, "action": intent.action, "values": values}
        await self._host.call(rpc.AGENTS_ANSWER, m.AnswerParams.from_wire(asked))

    def _continue(self, _intent: it.Continue) -> tuple[Coroutine[Any, Any, object], str]:
        """Ctrl+Enter, one meaning: go on with the plan, with the asks held on it if any
        (sent as the feedback's message, never dropped for a bare "Continue")."""
        shown = self._state.current
        if shown is not None and self._state.plan_asks.get(shown):
            return self.feedback.send(shown), "send the feedback on the plan"
        return self.sessions.continue_turn(), "continue the turn"

    def _queue(self, intent: it.Queue) -> None:
        current = self._state.current
        if current is not None:  # a second message joins the first
            held = self._state.queued.get(current, "")
            joined = f"{held}\n\n{intent.text}" if held and intent.text else intent.text
            self._state.apply(ev.MessageQueued(current, joined))

    def _send_queued(self, _intent: it.SendQueued) -> None:
        shown = self._state.shown
        text = self._state.queued.get(shown.session_id, "") if shown else ""
        if shown is not None and text and not shown.running:
            self._state.apply(ev.MessageQueued(shown.session_id, ""))
            self._run(self.sessions.start_turn_in(shown.session_id, text), "send the message")

    def _show_adjacent(self, intent: it.ShowAdjacent) -> None:
        if (target := sidebar.adjacent(self._state, intent.step)) is not None:
            self._state.apply(ev.SessionShown(target))

    def _open_history(self, _intent: it.OpenHistory) -> None:
        shown = self._state.shown
        if shown is not None and not shown.checklist_note:  # it has a checklist
            self._state.apply(ev.HistoryOpened(shown.session_id))
