"""The user's intents carried out: each typed intent (`nib_desktop.state.intents`) to
the host call it means, and the answer or the failure to events. A failure is shown to
the user as the notice, in words ("Could not create a session: …").

The async methods can be awaited directly (tests, scripted runs); `ask` runs one in the
background for the views (`nib_desktop.runner`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.protocol import errors
from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.remote import parse_endpoint
from host.protocol.settings_file import SETTINGS_FILENAME, settings_signature
from host.protocol.text import shorten, shown_text
from nib_desktop import convert, desktop_prefs
from nib_desktop.changes import ChangesWork
from nib_desktop.connection import HostLink
from nib_desktop.loading import Loader
from nib_desktop.motion import still_motion
from nib_desktop.rpc_client import describe
from nib_desktop.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state import intents as it
from nib_desktop.state.store import AppState
from nib_desktop.state.types import RemoteChoice, Session

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer


def endpoint_problem(endpoint: str) -> str:
    """What is wrong with a remote endpoint as typed, or "" if nothing."""
    try:
        parse_endpoint(endpoint)
    except ValueError as exc:
        return str(exc)
    return ""


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
        self._compact_after: set[str] = set()  # sessions whose "/compact" waits for the turn
        self._follow: QTimer | None = None  # settings.json watched (follow_settings)
        state.subscribe(self._at_turn_end)
        self.changes = ChangesWork(host, state, run)

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
                self.set_desktop_pref(name, on)
            case it.DisableServer(name, disabled):
                self.disable_server(name, disabled)
            case it.OpenSettings():
                self.open_settings()
            case it.ViewRevision(revision):
                self._state.apply(ev.RevisionViewed(revision))
            case it.CloseHistory():
                self._state.apply(ev.HistoryClosed())
            case it.ShowSession(session_id):
                self._state.apply(ev.SessionShown(session_id))
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
                self.show_adjacent(step)
            case it.CreateSession(mode, agent, folder):  # one that times out may appear
                self._run(self.create_session(mode, agent, folder), "create a session", "session")
            case it.OpenChanges():
                self.changes.open()
            case it.CloseChanges():
                self.changes.close()
            case it.Restore(checkpoint_id, paths):
                self._run(self.changes.restore(checkpoint_id, paths), "restore the files")
            case it.OpenHistory():
                shown = self._state.shown
                if shown is not None and not shown.checklist_note:  # it has a checklist
                    self._state.apply(ev.HistoryOpened(shown.session_id))
            case _:
                self._run(*self._work(intent))

    def _work(self, intent: it.Intent) -> tuple[Coroutine[Any, Any, object], str]:
        match intent:
            case it.AttachRemote(endpoint, remote_session_id):
                return self.attach_remote(endpoint, remote_session_id), "attach the remote session"
            case it.ListRemoteSessions(endpoint):
                return self.list_remote_sessions(endpoint), "list the remote sessions"
            case it.ForkSession():
                return self.fork_session(), "fork the session"
            case it.DeleteSession(session_id):
                return self.delete_session(session_id), "delete the session"
            case it.Send(text):
                if it.slash_command(text) is not None:
                    return self.command(text), "run the command"
                return self.start_turn(text), "send the message"
            case it.Stop():
                return self.cancel_turn(), "stop the turn"
            case it.Continue():
                return self.continue_turn(), "continue the turn"
            case it.Retry():
                return self.retry(), "start the host"
            case it.RetryRemote():
                return self.retry_remote(), "reach the remote host"
            case it.RetryServer(name):
                return self._host.call(rpc.TOOLS_RETRY, m.ToolsRetryParams(name=name)), (
                    f"start the MCP server {name} again"
                )
            case it.Answer(approval_id, decision):
                return self.respond_approval(approval_id, decision), "answer the approval"
            case it.LoadOlderMessages():
                return self._loader.load_older_messages(), "load earlier messages"
            case it.LoadOlderRevisions():
                return self._loader.load_history(older=True), "load older revisions"
        raise TypeError(f"not an intent for the host: {intent!r}")

    def disable_server(self, name: str, disabled: bool) -> None:
        """Kept in settings.json; the host reads it again and tells the new state."""
        if self._data_dir is None:
            return
        try:
            desktop_prefs.set_server_disabled(self._data_dir, name, disabled)
        except desktop_prefs.PrefsError as exc:
            verb = "disable" if disabled else "enable"
            self._tell(f"Could not {verb} the MCP server {name}: {exc}")

    def open_settings(self) -> None:
        """settings.json in the application the desktop opens JSON files with."""
        if self._data_dir is None:
            return
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        path = self._data_dir / SETTINGS_FILENAME
        try:
            if not path.exists():
                self._data_dir.mkdir(parents=True, exist_ok=True)
                path.write_text("{}\n", encoding="utf-8")
        except OSError as exc:
            self._tell(f"Could not make {path}: {exc.strerror or exc}")
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            self._tell(f"No application here opens {path}; edit it with any text editor.")

    def follow_settings(self) -> None:
        """settings.json edited by hand (or by another window): its "desktop" section read
        again within a second, as the host reads its servers and agents again."""
        if self._data_dir is None or self._follow is not None:
            return
        from PySide6.QtCore import QTimer

        data_dir = self._data_dir
        seen = settings_signature(data_dir)

        def check() -> None:
            nonlocal seen
            now = settings_signature(data_dir)
            if now == seen:
                return
            seen = now
            prefs = desktop_prefs.load(data_dir)
            if prefs != self._state.desktop:
                self._state.apply(ev.DesktopPrefsSet(prefs))
                self._state.apply(ev.ReducedMotionSet(still_motion(prefs.reduced_motion)))

        self._follow = QTimer()
        self._follow.setInterval(1000)
        self._follow.timeout.connect(check)
        self._follow.start()

    def stop_following(self) -> None:
        if self._follow is not None:
            self._follow.stop()
            self._follow = None

    def set_desktop_pref(self, name: str, on: bool | str) -> None:
        """Kept in settings.json first; shown only once kept (a failure is the notice)."""
        if self._data_dir is None:
            return
        changed: dict[str, Any] = {name: on}
        prefs = self._state.desktop._replace(**changed)
        try:
            desktop_prefs.save(self._data_dir, prefs)
        except desktop_prefs.PrefsError as exc:
            self._state.apply(ev.NoticeShown(f"Could not change the setting: {exc}"))
            return
        self._state.apply(ev.DesktopPrefsSet(prefs))
        if name == "reduced_motion":
            self._state.apply(ev.ReducedMotionSet(still_motion(bool(on))))

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

    async def attach_remote(self, endpoint: str, remote_session_id: str) -> m.Session:
        """Attach the session `remote_session_id` of the host at `endpoint`, or with ""
        create one there; the host names it after the remote session and its host."""
        remote = m.RemoteTarget(endpoint=endpoint, remote_session_id=remote_session_id or None)
        params = m.CreateSessionParams(remote=remote)
        return await self._open(await self._host.call(rpc.SESSIONS_CREATE, params))

    async def list_remote_sessions(self, endpoint: str) -> None:
        if not endpoint:
            self._state.apply(ev.RemoteChoicesListed((), ""))
            return
        self._state.apply(ev.RemoteChoicesListed((), "Asking the remote host…"))
        try:
            listing = await self._host.call(
                rpc.REMOTE_SESSIONS, m.RemoteSessionsParams(endpoint=endpoint)
            )
        except Exception as exc:  # said in the dialog, beside the field it is about
            self._state.apply(ev.RemoteChoicesListed((), f"Could not list them: {describe(exc)}"))
            return
        choices = tuple(RemoteChoice(s.id, shown_text(s.title)) for s in listing.sessions)
        note = "" if choices else "That host has no sessions yet: leave the id blank for a new one."
        self._state.apply(ev.RemoteChoicesListed(choices, note))

    async def respond_approval(self, approval_id: str, decision: str) -> None:
        params = m.ApprovalRespondParams.model_validate(
            {"approvalId": approval_id, "decision": decision}
        )
        await self._host.call(rpc.APPROVALS_RESPOND, params)

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

    def show_adjacent(self, step: int) -> None:
        """Show the session `step` rows below (negative: above) the one shown, in the
        sidebar's order; it stops at either end."""
        ids = [s.session_id for s in self._state.sessions]
        if not ids:
            return
        shown = self._state.current
        here = ids.index(shown) if shown in ids else -1
        target = max(0, min(len(ids) - 1, here + step)) if here >= 0 else 0
        self._state.apply(ev.SessionShown(ids[target]))

    async def start_turn(self, text: str) -> m.Turn:
        shown = self._state.current or (await self.create_session("agent")).id
        return await self.start_turn_in(shown, text)

    async def cancel_turn(self) -> m.Turn | None:
        shown = self._state.shown
        if shown is None or not shown.running:
            return None
        ref = m.TurnRef(session_id=shown.session_id, turn_id=shown.running_turn)
        return await self._host.call(rpc.TURNS_CANCEL, ref)

    def _at_turn_end(self, event: ev.Event, _change: object) -> None:
        """When a turn ends: a "/compact" typed during it runs; a message queued during it
        goes once it completes (after a stop or a failure it waits, shown, for the user
        to send, edit or drop it)."""
        if not isinstance(event, ev.TurnChanged) or event.turn.state == "running":
            return
        session_id = event.turn.session_id
        compact = session_id in self._compact_after  # "/compact" typed during the turn
        self._compact_after.discard(session_id)
        text = self._state.queued.get(session_id, "") if event.turn.state == "completed" else ""
        if text:
            self._state.apply(ev.MessageQueued(session_id, ""))
        if compact:  # first: the host takes no turn while it compacts
            self._run(self._compact_then(session_id, text), "compact the conversation")
        elif text:
            self._run(self.start_turn_in(session_id, text), "send the queued message")

    async def _compact_then(self, session_id: str, text: str) -> None:
        try:
            await self._compact_now(session_id)
        finally:  # a failed compaction (said in the notice) does not lose the message
            if text:
                await self.start_turn_in(session_id, text)

    async def start_turn_in(self, session_id: str, text: str) -> m.Turn:
        params = m.StartTurnParams(session_id=session_id, text=text)
        return await self._host.call(rpc.TURNS_START, params)

    async def continue_turn(self) -> m.Turn | None:
        shown = self._state.shown
        if shown is None or shown.running:
            return None
        return await self.start_turn(it.CONTINUE_TEXT)

    async def command(self, text: str) -> None:
        """A composer command, every case answered in words; never sent to the agent."""
        command = it.slash_command(text)
        known = "; ".join(f"{name} ({what})" for name, what in it.COMMANDS.items())
        if command == it.HELP_COMMAND:
            self._tell(f"Commands: {known}.")
            return
        if command not in it.COMMANDS:
            self._tell(f"There is no command “{shorten(text.strip(), 40)}”. Commands: {known}.")
            return
        shown = self._state.shown
        if shown is None:
            self._tell(f"{command} works in a session: open one first.")
            return
        if command == it.CONTINUE_COMMAND:
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
        if held is None or not any(i.status in ("pending", "in_progress") for i in held.items):
            self._tell("Nothing to continue: no step of the checklist is unfinished.")
            return
        await self.continue_turn()

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

    async def retry(self) -> None:
        await self._host.start()

    async def retry_remote(self) -> None:
        """Ctrl+R on an unreachable remote session: any call forwarded to its host makes
        the local host try the link now; the session's row says how that went."""
        shown = self._state.shown
        if shown is None or not shown.remote or shown.reachable:
            return
        page = m.MessageListParams(session_id=shown.session_id, limit=1)
        with contextlib.suppress(errors.RpcError):  # still unreachable: the row says why
            await self._host.call(rpc.MESSAGES_LIST, page)

    async def _open(self, session: m.Session) -> m.Session:
        """A session made here, shown; done once it is loaded."""
        self._state.apply(ev.SessionChanged(convert.session(session)))
        self._state.apply(ev.SessionShown(session.id))
        await self._loader.settled()
        return session
