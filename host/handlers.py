"""The host's answer to every request of the contract (`HostMethods`), on the host's
parts (`HostCore`). A remote session's requests are carried out on its host (section 14),
so nothing of a remote session is ever answered from the local database; the runtime,
the checklists and the links are reached at each call (see `HostCore.load_services`)."""

from __future__ import annotations

import inspect
import logging
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from host.clock import new_id
from host.protocol import errors, models as m
from host.protocol.peers import Answer, handlers

if TYPE_CHECKING:
    from host.core import HostCore
    from host.protocol.serving import Dispatcher

P = TypeVar("P", bound=m.Wire)
R = TypeVar("R", bound=m.Wire)
log = logging.getLogger(__name__)


def _folder(cwd: str) -> str:
    """A session's working folder (section 15): an absolute path to an existing folder."""
    path = Path(cwd)
    if not path.is_absolute():
        raise errors.InvalidParams(f"cwd must be an absolute path, not {cwd!r}")
    if not path.is_dir():
        raise errors.InvalidParams(f"cwd {cwd!r} is not an existing folder")
    return str(path)


class HostHandlers:
    def __init__(self, core: HostCore) -> None:
        self._core = core

    # --- the host -----------------------------------------------------------------------

    def host_shutdown(self, params: m.Empty) -> m.OkResult:
        self._core.on_shutdown_requested()
        return m.OkResult()

    # --- sessions -----------------------------------------------------------------------

    def sessions_create(self, params: m.CreateSessionParams) -> Answer[m.Session]:
        core = self._core
        if params.remote is not None:  # its agent, folder and worktree are the remote's
            return core.remotes.create(params)
        if params.cwd is not None:
            params = params.model_copy(update={"cwd": _folder(params.cwd)})
        if params.agent != m.NIB_AGENT:
            if params.mode != "agent":
                raise errors.InvalidParams(
                    f"a session on the agent {params.agent!r} must be an agent-mode session"
                )
            core.check_agent(params.agent)
            if params.cwd is None:
                params = params.model_copy(update={"cwd": str(Path.home())})
        if params.worktree is not None:
            if params.cwd is None:
                raise errors.InvalidParams(
                    "a worktree is made of the repository cwd is in: give cwd"
                )
            return core.worktrees.create(params)
        return core.sessions.create(params)

    def sessions_list(self, params: m.Empty) -> m.SessionList:
        return m.SessionList(sessions=self._core.sessions.list())

    def sessions_get(self, params: m.SessionRef) -> m.Session:
        return self._core.sessions.get(params.session_id)

    def sessions_fork(self, params: m.ForkParams) -> m.Session:
        return self._core.sessions.fork(params)

    async def sessions_delete(self, params: m.DeleteParams) -> m.Deleted:
        """A remote session's local row goes; the session on its host stays, turn and
        all (another client may be using it). One whose worktree is active says what
        becomes of it (section 18): removed first, with `worktrees.remove`'s refusals, or
        kept for git."""
        core = self._core
        session = core.sessions.get(params.session_id)
        tree = session.worktree
        if tree is not None and tree.state == "active":
            if params.worktree is None:
                raise errors.InvalidParams(
                    f"this session works in the worktree {tree.path} on the branch "
                    f"{tree.branch!r}: say whether it is removed or kept (worktree: "
                    '"remove" or "keep")'
                )
            if params.worktree == "remove":
                removing = m.RemoveWorktreeParams(session_id=session.id)
                await core.worktrees.remove(removing)
        if session.origin == "local" and session.running_turn_id is not None:
            await core.runtime.cancel(
                m.TurnRef(session_id=session.id, turn_id=session.running_turn_id)
            )
        core.sessions.delete(params.session_id)
        core.remotes.forget(params.session_id)
        if core.agents_loaded:
            core.agents().forget(params.session_id)
        return m.Deleted()

    async def sessions_rewind(self, params: m.RewindParams) -> m.Session:
        """A fork up to before one of the user's messages (section 20); with `files` its
        folder back to that turn's start (undoable on the fork), with `text` a turn."""
        from host.checkpoints.restoring import rewind_files

        core = self._core
        parent = core.sessions.require_local(params.session_id)
        message = core.sessions.transcript.message(parent.id, params.message_id)
        if message is None or message.role != "user":
            raise errors.InvalidParams(
                f"no message of the user's {params.message_id!r} in this session"
            )
        target = None
        if params.files:
            if parent.cwd is None:
                raise errors.InvalidParams("this session has no folder (cwd) to restore")
            target = core.checkpoints.turn_start(parent.id, message.turn_id)
            if target is None:
                raise errors.InvalidParams(
                    "that message's turn has no turn-start checkpoint (an imported message, "
                    "or one from before checkpoints were kept): rewind without files"
                )
            for other in core.sessions.list():
                if other.cwd == parent.cwd and other.running_turn_id is not None:
                    raise errors.TurnRunning(
                        f"a turn is running in {other.title!r} on this folder: stop it first"
                    )
        fork = core.sessions.fork(m.ForkParams(session_id=parent.id), before_seq=message.seq)
        if target is not None:
            await rewind_files(core.checkpoints, fork, parent.id, target)
        if params.text is not None:
            started = self.turns_start(m.StartTurnParams(session_id=fork.id, text=params.text))
            if inspect.isawaitable(started):
                await started
        return core.sessions.get(fork.id)

    async def agents_sessions(self, params: m.AgentSessionsParams) -> m.AgentSessions:
        if params.cwd is not None:
            params = params.model_copy(update={"cwd": _folder(params.cwd)})
        if params.agent == m.NIB_AGENT:
            raise errors.InvalidParams("Nib's own sessions are listed by sessions.list")
        self._core.check_agent(params.agent)
        return await self._core.agents().sessions_of(params)

    async def sessions_import(self, params: m.ImportParams) -> m.Session:
        params = params.model_copy(update={"cwd": _folder(params.cwd)})
        if params.agent == m.NIB_AGENT:
            raise errors.InvalidParams("Nib's own sessions are already here: none to import")
        self._core.check_agent(params.agent)
        return await self._core.agents().import_session(params)

    def sessions_rename(self, params: m.RenameParams) -> m.Session:
        return self._core.library.rename(params)

    def sessions_search(self, params: m.SearchParams) -> m.SearchResults:
        return self._core.library.search(params)

    def sessions_export(self, params: m.ExportParams) -> m.Exported:
        return self._core.library.export(params)

    def sessions_compact(self, params: m.SessionRef) -> Answer[m.CompactResult]:
        return self._core.runtime.compaction.compact_session(params)

    def folders_check(self, params: m.FolderCheckParams) -> Answer[m.FolderChecked]:
        """A folder typed for a new session, checked here, or on the remote host named."""
        from host.protocol.folder_check import folder_problem, in_repository

        if params.remote is not None:
            return self._core.remotes.check_folder(params.remote.endpoint, params.cwd)
        return m.FolderChecked(
            problem=folder_problem(params.cwd), repository=in_repository(params.cwd)
        )

    async def files_list(self, params: m.SessionRef) -> m.FilesList:
        """The session's folder's files, as "@" offers them (a remote session's are
        listed by its host: section 19's routing)."""
        from host.protocol.folder_files import listed_for_wire

        session = self._core.sessions.require_local(params.session_id)
        if not session.cwd:
            raise errors.InvalidParams("this session has no folder, so no files to offer")
        if not Path(session.cwd).is_dir():
            raise errors.InvalidParams(f"the folder {session.cwd} no longer exists")
        return await listed_for_wire(Path(session.cwd))

    # --- turns and transcripts ----------------------------------------------------------

    def turns_start(self, params: m.StartTurnParams) -> Answer[m.Turn]:
        self._one_turn_per_worktree(params.session_id)
        if any(isinstance(a, m.ImageAttachment) for a in params.attachments):
            return self._start_with_images(params)
        return self._core.runtime.start(params)

    def _one_turn_per_worktree(self, session_id: str) -> None:
        """A fork of a worktree session works in the same worktree, one turn at a time."""
        session = self._core.sessions.get(session_id)
        tree = session.worktree
        if tree is None:
            return
        for other in self._core.sessions.list():
            if (
                other.id != session_id
                and other.running_turn_id is not None
                and other.worktree is not None
                and other.worktree.path == tree.path
            ):
                raise errors.TurnRunning(
                    f"a turn of {other.title!r} is running in this worktree: one at a time"
                )

    async def _start_with_images(self, params: m.StartTurnParams) -> m.Turn:
        """An image goes only to an agent that takes images: one not started yet is
        started, and decided on its `initialize` answer (section 17)."""
        core = self._core
        session = core.sessions.require_local(params.session_id)
        if session.agent == m.NIB_AGENT:
            raise errors.InvalidParams("attachments go only to an external agent's session")
        await core.agents().ready_for(session.id)
        return core.runtime.start(params)

    def turns_cancel(self, params: m.TurnRef) -> Answer[m.Turn]:
        return self._core.runtime.cancel(params)

    def turns_list(self, params: m.TurnListParams) -> Answer[m.TurnList]:
        return m.TurnList(turns=self._core.sessions.turns.newest(params.session_id, params.limit))

    def messages_list(self, params: m.MessageListParams) -> Answer[m.MessageList]:
        return self._core.sessions.transcript.page(params)

    # --- checklists ---------------------------------------------------------------------

    def todos_get(self, params: m.SessionRef) -> Answer[m.TodoSnapshot]:
        return self._core.todos.snapshot(params.session_id)

    def todos_history(self, params: m.TodoHistoryParams) -> Answer[m.TodoHistory]:
        return self._core.todos.history(params)

    # --- remote hosts, tools, approvals, agents -----------------------------------------

    def remote_sessions(self, params: m.RemoteSessionsParams) -> Answer[m.SessionList]:
        return self._core.remotes.remote_sessions(params)

    def tools_list(self, params: m.Empty) -> m.ToolsList:
        return self._core.runtime.external.listing()

    def tools_retry(self, params: m.ToolsRetryParams) -> Answer[m.OkResult]:
        return self._core.runtime.external.retry(params)

    def approvals_respond(self, params: m.ApprovalRespondParams) -> Answer[m.OkResult]:
        core = self._core
        return core.remotes.respond(params, core.runtime.external.approvals.respond)

    def agents_list(self, params: m.AgentsListParams) -> Answer[m.AgentsList]:
        if params.remote is not None:
            return self._core.remotes.agents(params.remote.endpoint)
        return self._core.agents_listing()

    # --- checkpoints and changes (section 16) -------------------------------------------

    def checkpoints_list(self, params: m.CheckpointListParams) -> Answer[m.CheckpointList]:
        return self._core.checkpoints.listing(params)

    def changes_get(self, params: m.ChangesGetParams) -> Answer[m.Changes]:
        return self._core.checkpoints.changes(params)

    def changes_step(self, params: m.ChangesStepParams) -> Answer[m.Changes]:
        return self._core.checkpoints.step(params)

    def changes_restore(self, params: m.RestoreParams) -> Answer[m.Restored]:
        return self._core.restores.restore(params)

    def changes_revert_hunk(self, params: m.RevertHunkParams) -> Answer[m.Restored]:
        return self._core.restores.revert_hunk(params)

    # --- a worktree per session (section 18) -------------------------------------------

    def worktrees_status(self, params: m.SessionRef) -> Answer[m.WorktreeStatus]:
        self._core.sessions.require_local(params.session_id)
        return self._core.worktrees.status(params)

    def worktrees_merge(self, params: m.MergeParams) -> Answer[m.Merged]:
        self._core.sessions.require_local(params.session_id)
        return self._core.worktrees.merge(params)

    def worktrees_remove(self, params: m.RemoveWorktreeParams) -> Answer[m.RemovedWorktree]:
        self._core.sessions.require_local(params.session_id)
        return self._core.worktrees.remove(params)

    async def attempts_start(self, params: m.AttemptStartParams) -> m.AttemptStarted:
        """One session per entry of `agents`, each in its own worktree from one base
        commit, its turn started with the task. Every agent is checked before anything is
        made; a run whose turn cannot start fails alone, in its own session."""
        from host.protocol.text import run_names
        from host.sessions.service import title_from
        from host.worktrees import making

        core = self._core
        cwd = _folder(params.cwd)
        listed = {a.name: a for a in core.agents_listing().agents}
        for name in params.agents:
            entry = listed.get(name)
            if name != m.NIB_AGENT and entry is None:
                raise errors.InvalidParams(f"no agent named {name!r} in settings.json")
            if entry is not None and entry.state == "failed":
                raise errors.InvalidParams(f"the agent {name!r} cannot start: {entry.error}")
        repo = await making.repo_of(Path(cwd))
        base, commit = await making.base_of(repo, params.base)
        attempt_id = new_id()
        core.attempts.record(attempt_id, params.model_copy(update={"cwd": cwd}), base, commit)
        title = title_from(params.text)
        made: list[m.Session] = []
        for name, run in zip(params.agents, run_names(params.agents), strict=True):
            asked = m.CreateSessionParams(
                title=f"{title} · {run}", agent=name, cwd=cwd, worktree=m.WorktreeRequest()
            )
            session = await core.worktrees.create(asked, (base, commit), attempt_id)
            core.attempts.ran(session, params.check is not None)
            made.append(session)
        for session in made:
            turn = m.StartTurnParams(
                session_id=session.id, text=params.text, attachments=params.attachments
            )
            try:
                started = self.turns_start(turn)
                if inspect.isawaitable(started):
                    await started
            except errors.RpcError as exc:
                log.warning("a run of attempt %s did not start: %s", attempt_id, exc.message)
                core.sessions.transcript.append(
                    session.id, None, "tool", f"This run could not start: {exc.message}"
                )
        sessions = tuple(core.sessions.get(s.id) for s in made)
        return m.AttemptStarted(attempt_id=attempt_id, sessions=sessions)

    def attempts_get(self, params: m.AttemptRef) -> m.Attempt:
        return self._core.attempts.get(params)

    def attempts_list(self, params: m.Empty) -> m.AttemptList:
        return self._core.attempts.listing(params)

    def attempts_compare(self, params: m.CompareParams) -> Answer[m.Compared]:
        return self._core.attempts.compare(params)

    # --- steering an external agent (section 17) ---------------------------------------

    def agents_controls(self, params: m.ControlsParams) -> m.AgentControls:
        core = self._core
        if not core.agents_loaded and not params.open:  # nothing told yet in this host's
            session = core.sessions.require_local(params.session_id)  # life: the SDK (about
            if session.agent == m.NIB_AGENT:  # a second) stays unloaded
                raise errors.InvalidParams("this session is Nib's own: it has no agent to steer")
            return m.AgentControls(session_id=session.id)
        agents = core.agents()
        held = agents.controls(params)
        if params.open:
            agents.open_ahead(params.session_id)
        return held

    def agents_set_mode(self, params: m.SetModeParams) -> Answer[m.AgentControls]:
        return self._core.agents().set_mode(params)

    def agents_set_option(self, params: m.SetOptionParams) -> Answer[m.AgentControls]:
        return self._core.agents().set_option(params)

    def agents_authenticate(self, params: m.AuthenticateParams) -> Answer[m.OkResult]:
        return self._core.agents().authenticate(params)

    def agents_answer(self, params: m.AnswerParams) -> Answer[m.OkResult]:
        """A form or URL an agent asked for, answered (the project's); one a remote
        host's agent asked, answered there."""
        return self._core.remotes.answer(params, self._answer_here)

    def _answer_here(self, params: m.AnswerParams) -> m.OkResult:
        if not self._core.agents_loaded:  # no agent ran in this host's life: none asked
            raise errors.InvalidParams(f"nothing waits as {params.ask_id!r} (answered, or ended)")
        return self._core.agents().asks().answer(params)

    # --- settings.json (the project's) --------------------------------------------------

    def settings_get(self, params: m.Empty) -> m.SettingsView:
        return self._core.settings.get(params)

    def settings_set(self, params: m.SettingsSetParams) -> Answer[m.SettingsView]:
        return self._core.settings.set(params)


def dispatcher(core: HostCore) -> Dispatcher:
    """Every request of the table to its handler, checked whole."""
    from host.remote.whole import remote_routed
    from host.rpc import host_dispatcher  # (asyncio: after the ready line, host.listening)

    # a remote session's requests are carried out on its host before any local room
    # sees its id (section 19); a client that connects is asked what still waits
    table = remote_routed(handlers(HostHandlers(core)), lambda: core.remotes)
    return host_dispatcher(table, core.approvals_waiting)
