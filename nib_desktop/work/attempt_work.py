"""One task tried by several agents (contract section 18's attempts), from the window: the
runs started, an attempt read again when its view opens, and two runs compared in the
Changes view, above the first run's own steps."""

from __future__ import annotations

import asyncio
import os
import shlex
from collections.abc import Awaitable, Callable

from host.protocol import plain_methods as rpc, plain_models as m
from nib_desktop.inbound import convert
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, intents as it
from nib_desktop.state.attempts import Run
from nib_desktop.state.changes import Changes, Scope
from nib_desktop.state.store import AppState
from nib_desktop.state.worktree_intents import RecallCheck
from nib_desktop.work.changes_work import files_of
from nib_desktop.work.files_work import mentioned
from nib_desktop.work.images_work import ImagesWork


class AttemptWork:
    HANDLES = (
        it.StartAttempt,
        RecallCheck,
        it.ReadAttempt,
        it.CompareRuns,
        it.RemoveRuns,
        it.StopRuns,
    )

    def __init__(
        self,
        host: HostLink,
        state: AppState,
        run: Runner,
        load_changes: Callable[[str], Awaitable[Changes]],
        images: ImagesWork,
    ) -> None:
        self._host, self._state, self._run = host, state, run
        self._load_changes = load_changes
        self._images = images

    def ask(
        self,
        intent: it.StartAttempt
        | RecallCheck
        | it.ReadAttempt
        | it.CompareRuns
        | it.RemoveRuns
        | it.StopRuns,
    ) -> None:
        match intent:
            case it.StartAttempt():
                self._run(self.attempt(intent), "start the runs")
            case RecallCheck(folder):
                self._run(self.recall(folder), "read the last check of the repository")
            case it.ReadAttempt(attempt_id):
                self._run(self.read(attempt_id), "read the attempt")
            case it.CompareRuns(attempt_id, a, b):
                # the view opens at once, saying it loads
                self._state.apply(ev.ChangesShown(Changes(a, loading=True)))
                self._run(self.compare(attempt_id, a, b), "compare the runs")
            case it.RemoveRuns(attempt_id, keep):
                self._run(self.remove_others(attempt_id, keep), "remove the other runs")
            case it.StopRuns(attempt_id):
                self._run(self.stop_all(attempt_id), "stop the runs")

    async def attempt(self, asked: it.StartAttempt) -> None:
        """The runs started, each a session in its worktree; the first one shown. The
        files the task mentions with "@" (under the repository) and the images held in
        the composer it came from go with each run, as a message's would."""
        check = shlex.split(asked.check) if asked.check.strip() else None
        cwd = convert.folder_path(asked.folder)
        files = await asyncio.to_thread(mentioned, cwd, asked.text)
        images = self._images.take(asked.from_session) if asked.from_session else ()
        attached: list[m.Attachment] = [m.FileAttachment(type="file", path=p) for p in files]
        attached += [
            m.ImageAttachment(type="image", mime_type=i.mime_type, data=i.data) for i in images
        ]
        params = m.AttemptStartParams(
            cwd=cwd,
            text=asked.text,
            agents=asked.agents,
            base=asked.base.strip() or None,
            check=tuple(check) if check else None,
            attachments=tuple(attached),
        )
        try:
            started = await self._host.call(rpc.ATTEMPTS_START, params)
        except BaseException:  # not started: the images are held again, none lost
            if images and not self._state.images.get(asked.from_session):
                self._state.apply(ev.ImagesHeld(asked.from_session, images))
            raise
        for session in started.sessions:
            self._state.apply(ev.SessionChanged(convert.session(session)))
        if started.sessions:
            self._state.apply(ev.SessionShown(started.sessions[0].id))
        drafts = self._state.drafts
        if asked.from_session and drafts.get(asked.from_session, "").strip() == asked.text.strip():
            self._state.apply(ev.DraftSaved(asked.from_session, ""))  # taken by the runs
        agents = ", ".join(s.agent for s in started.sessions)
        self._state.apply(ev.NoticeShown(f"Started {len(started.sessions)} runs: {agents}", "done"))

    async def recall(self, folder: str) -> None:
        """The check of the newest attempt on `folder`'s repository that had one."""
        cwd = convert.folder_path(folder)
        listed = await self._host.call(rpc.ATTEMPTS_LIST, m.Empty())
        command = ""
        for attempt in listed.attempts:  # newest first
            checks = [r.check.command for r in attempt.sessions if r.check is not None]
            if os.path.realpath(attempt.cwd) == os.path.realpath(cwd) and checks:
                command = shlex.join(checks[0])
                break
        self._state.apply(ev.CheckRecalled(folder, command))

    async def read(self, attempt_id: str) -> None:
        """The attempt, and each run's checklist not held yet (its plan, side by side)."""
        told = await self._host.call(rpc.ATTEMPTS_GET, m.AttemptRef(attempt_id=attempt_id))
        self._state.apply(ev.AttemptTold(convert.attempt(told)))
        for run in told.sessions:
            if self._state.snapshot(run.session_id) is None:
                ref = m.SessionRef(session_id=run.session_id)
                snapshot = await self._host.call(rpc.TODOS_GET, ref)
                self._state.apply(ev.SnapshotArrived(convert.snapshot(snapshot)))

    async def compare(self, attempt_id: str, a: str, b: str) -> None:
        """From run `a`'s files to run `b`'s (uncommitted work included), pinned above
        `a`'s own steps while the Changes view stays open."""
        try:
            params = m.CompareParams(attempt_id=attempt_id, a=a, b=b)
            compared = await self._host.call(rpc.ATTEMPTS_COMPARE, params)
        except BaseException:
            self._state.apply(ev.ChangesShown(Changes()))
            raise
        named = {r.session_id: r.agent for r in self._runs(attempt_id)}
        title = f"From {named.get(a, 'one run')}'s run to {named.get(b, 'the other')}'s"
        pinned = (Scope(title, "", files_of(compared), False),)
        own = await self._load_changes(a)
        if self._state.changes.session_id == a:
            shown = own._replace(scopes=(*pinned, *own.scopes), pinned=pinned, note="")
            self._state.apply(ev.ChangesShown(shown))

    async def remove_others(self, attempt_id: str, keep: str) -> None:
        """Each other run's worktree and branch removed (`worktrees.remove`, forced: the
        user was told what they had not merged); the one kept stays."""
        removed: list[str] = []
        for run in self._runs(attempt_id):
            if run.session_id == keep:
                continue
            params = m.RemoveWorktreeParams(session_id=run.session_id, force=True)
            await self._host.call(rpc.WORKTREES_REMOVE, params)
            removed.append(f"{run.agent}'s")
        if removed:
            words = ", ".join(removed)
            self._state.apply(ev.NoticeShown(f"Removed the worktrees of {words} runs", "done"))

    async def stop_all(self, attempt_id: str) -> None:
        """Each run whose turn runs stopped, at once (one that will not stop holds none
        of the others). A run's turn is the one its session runs, or else the one the
        attempt told running: the attempt may tell a run's turn before the window has
        heard of it."""
        refs = []
        for run in self._runs(attempt_id):
            session = self._state.session(run.session_id)
            if session is not None and session.running:
                turn = session.running_turn
            else:
                turn = run.turn_id if run.state == "running" else ""
            if turn:
                refs.append(m.TurnRef(session_id=run.session_id, turn_id=turn))
        done = await asyncio.gather(
            *(self._host.call(rpc.TURNS_CANCEL, ref) for ref in refs), return_exceptions=True
        )
        failed = [d for d in done if isinstance(d, BaseException)]
        if failed:
            raise failed[0]
        self._state.apply(ev.NoticeShown(f"Stopped {len(refs)} runs", "done"))

    def _runs(self, attempt_id: str) -> tuple[Run, ...]:
        held = self._state.attempts.get(attempt_id)
        return held.runs if held is not None else ()
