"""One task tried by several agents (contract section 18, second half): an attempt's runs,
each a session in its own worktree from one base commit; what each did (its turn, its
checklist, its files, its usage, its time) and the project's check run in its worktree
once its turn ends; two runs compared. Told as `attempts.changed` (at most 4 a second per
attempt, the last state always told)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from host.clock import now_iso
from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.sessions.service import SessionService
from host.store.db import Database, immediate
from host.worktrees import git, reading, setup
from host.worktrees.bases import Bases

log = logging.getLogger(__name__)
TELL_EVERY_S = 0.25
ATTEMPTS_KEPT = 4096  # sessions whose attempt is held (`_heard`)


class Attempts:
    def __init__(
        self,
        db: Database,
        publisher: Publisher,
        sessions: SessionService,
        checklist: Callable[[str], m.TodoSnapshot],
        bases: Bases,
    ) -> None:
        self._db, self._publisher, self._sessions = db, publisher, sessions
        self._checklist, self._bases = checklist, bases  # the worktrees' (see `compare`)
        self._files: dict[str, tuple[int, int, int]] = {}  # session: files, +, -
        self._usage: dict[str, m.Usage] = {}  # session: as last told
        self._told_at: dict[str, float] = {}
        self._telling: dict[str, asyncio.Task[None]] = {}
        self._checks: set[asyncio.Task[None]] = set()
        # session id: its attempt's id or None, as read once (set when a session is made)
        self._attempt_of: dict[str, str | None] = {}
        publisher.subscribe(self._heard)

    # --- recording ------------------------------------------------------------------------

    def record(self, attempt_id: str, params: m.AttemptStartParams, base: str, commit: str) -> None:
        check = json.dumps(list(params.check)) if params.check else None
        with immediate(self._db):
            self._db.execute(
                "INSERT INTO attempts (id, cwd, text, base, base_commit, check_command,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (attempt_id, params.cwd, params.text, base, commit, check, now_iso()),
            )

    def ran(self, session: m.Session, checked: bool) -> None:
        """A run's session made: its check waits for its turn's end."""
        if checked:
            with immediate(self._db):
                self._db.execute(
                    "INSERT INTO attempt_checks (session_id, state, exit_code, output)"
                    " VALUES (?, 'pending', NULL, '')",
                    (session.id,),
                )

    def forget(self, attempt_id: str) -> None:
        """An attempt none of whose runs could start: not kept."""
        with immediate(self._db):
            self._db.execute("DELETE FROM attempts WHERE id = ?", (attempt_id,))

    # --- reading --------------------------------------------------------------------------

    def get(self, params: m.AttemptRef) -> m.Attempt:
        row = self._db.execute(
            "SELECT id, cwd, text, base, base_commit, check_command, created_at FROM attempts"
            " WHERE id = ?",
            (params.attempt_id,),
        ).fetchone()
        if row is None:
            raise errors.InvalidParams(f"no attempt {params.attempt_id!r}")
        attempt_id, cwd, text, base, commit, check, created = row
        command = tuple(json.loads(check)) if check else None
        runs = tuple(self._run(s, command) for s in self._runs(attempt_id))
        return m.Attempt(
            attempt_id=attempt_id,
            cwd=cwd,
            text=text,
            base=base,
            base_commit=commit,
            created_at=created,
            sessions=runs,
        )

    def listing(self, _params: m.Empty) -> m.AttemptList:
        rows = self._db.execute("SELECT id FROM attempts ORDER BY created_at DESC, id").fetchall()
        return m.AttemptList(
            attempts=tuple(self.get(m.AttemptRef(attempt_id=row[0])) for row in rows)
        )

    def _runs(self, attempt_id: str) -> list[m.Session]:
        found = [s for s in self._sessions.list() if s.attempt_id == attempt_id]
        return sorted(found, key=lambda s: (s.created_at, s.id))

    def _run(self, session: m.Session, command: tuple[str, ...] | None) -> m.AttemptRun:
        turns = self._sessions.turns.newest(session.id, 1)
        turn = turns[0] if turns else None
        items = self._checklist(session.id).items
        done = sum(1 for i in items if i.status == "completed")
        files, added, deleted = self._files.get(session.id, (0, 0, 0))
        return m.AttemptRun(
            session_id=session.id,
            agent=session.agent,
            turn=turn,
            todos=m.Progress(completed=done, total=len(items)),
            files=files,
            additions=added,
            deletions=deleted,
            usage=self._usage.get(session.id),
            duration_ms=_duration(turn),
            check=self._check(session.id, command),
        )

    def _check(self, session_id: str, command: tuple[str, ...] | None) -> m.CheckResult | None:
        if command is None:
            return None
        row = self._db.execute(
            "SELECT state, exit_code, output FROM attempt_checks WHERE session_id = ?",
            (session_id,),
        ).fetchone()
        state, code, output = row if row is not None else ("pending", None, "")
        return m.CheckResult(command=command, state=state, exit_code=code, output=output)

    async def compare(self, params: m.CompareParams) -> m.Compared:
        """From run `a`'s worktree files to run `b`'s, uncommitted changes included."""
        runs = {
            s.id: s
            for s in self._runs(self.get(m.AttemptRef(attempt_id=params.attempt_id)).attempt_id)
        }
        trees: list[m.Worktree] = []
        for run in (params.a, params.b):
            session = runs.get(run)
            if session is None or session.worktree is None:
                raise errors.InvalidParams(f"{run!r} is not a run of this attempt")
            trees.append(session.worktree)
        first, second = Path(trees[0].path), Path(trees[1].path)
        async with self._bases.reading(first, second):  # (their bases as a status reads)
            return await self._compared(trees, first, second)

    async def _compared(self, trees: list[m.Worktree], first: Path, second: Path) -> m.Compared:
        with (
            await reading.scratch_of(first, self._bases) as one,
            await reading.scratch_of(second, self._bases) as two,
        ):
            (a, _), (b, _) = await git.both(  # (trees only: no commit made)
                reading.uncommitted(trees[0], one), reading.uncommitted(trees[1], two)
            )
            alternates = "GIT_ALTERNATE_OBJECT_DIRECTORIES"
            both = {
                **two.env,
                alternates: os.pathsep.join(
                    # the repository's objects and those one's index may name (one's
                    # alternates), one's own, then those two's index may name
                    [one.env[alternates], one.env["GIT_OBJECT_DIRECTORY"], two.env[alternates]]
                ),
            }
            files = await reading.changed_files(second, a.tree, b.tree, both)
        return m.Compared(files=tuple(files))

    # --- following its runs ---------------------------------------------------------------

    def _heard(self, name: str, params: m.Wire) -> None:
        session_id = getattr(params, "session_id", None)
        if not isinstance(session_id, str):
            return
        if name == rpc.WORKTREES_CHANGED.name and isinstance(params, m.WorktreeStatus):
            self._files[session_id] = (
                len(params.files),
                sum(f.additions for f in params.files),
                sum(f.deletions for f in params.files),
            )
        elif name == rpc.AGENTS_CONTROLS_CHANGED.name and isinstance(params, m.AgentControls):
            if params.usage is not None:
                self._usage[session_id] = params.usage
        elif name == rpc.SESSIONS_USAGE.name and isinstance(params, m.SessionUsage):
            self._usage[session_id] = m.Usage(used=params.used, size=params.size)
        elif name not in (rpc.TURNS_CHANGED.name, rpc.TODOS_CHANGED.name):
            return
        if self._attempt_id(session_id) is None:
            return
        try:
            session = self._sessions.get(session_id)
        except errors.RpcError:
            return
        if session.attempt_id is None:
            return
        if isinstance(params, m.Turn) and params.state != "running":
            self._after_turn(session)
        self._soon(session.attempt_id)

    def _attempt_id(self, session_id: str) -> str | None:
        """The attempt the session is a run of (None: none, or no such session). Heard at
        every checklist write and turn end of every session, so read once per session
        (one indexed read, no session built): a session's attempt is set when it is made."""
        if session_id in self._attempt_of:
            return self._attempt_of[session_id]
        row = self._db.execute(
            "SELECT attempt_id FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        if row is None:  # (not kept: no session yet)
            return None
        attempt: str | None = row[0]
        if len(self._attempt_of) >= ATTEMPTS_KEPT:
            self._attempt_of.clear()
        self._attempt_of[session_id] = attempt
        return attempt

    def _after_turn(self, session: m.Session) -> None:
        row = self._db.execute(
            "SELECT a.check_command, c.state FROM attempts a JOIN attempt_checks c"
            " ON c.session_id = ? WHERE a.id = ?",
            (session.id, session.attempt_id),
        ).fetchone()
        if row is None or row[0] is None or row[1] == "running" or session.cwd is None:
            return
        task = asyncio.ensure_future(self._run_check(session, tuple(json.loads(row[0]))))
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def _run_check(self, session: m.Session, command: tuple[str, ...]) -> None:
        """The check in the run's worktree, with the user's environment less Nib's own
        (its token, its model keys: every NIB_ variable); its output's last 8 KiB kept."""
        self._set_check(session.id, "running", None, "")
        self._soon(session.attempt_id or "")
        code, output = await setup.run(list(command), Path(session.cwd or "."))
        state = "error" if code is None else "passed" if code == 0 else "failed"
        self._set_check(session.id, state, code, output[-m.MAX_CHECK_OUTPUT :])
        self._soon(session.attempt_id or "")

    def _set_check(self, session_id: str, state: str, code: int | None, output: str) -> None:
        with immediate(self._db):
            self._db.execute(
                "UPDATE attempt_checks SET state = ?, exit_code = ?, output = ?"
                " WHERE session_id = ?",
                (state, code, output, session_id),
            )

    def _soon(self, attempt_id: str) -> None:
        if not attempt_id or attempt_id in self._telling:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        wait = TELL_EVERY_S - (time.monotonic() - self._told_at.get(attempt_id, -TELL_EVERY_S))
        self._telling[attempt_id] = loop.create_task(self._tell_after(attempt_id, max(wait, 0)))

    async def _tell_after(self, attempt_id: str, wait: float) -> None:
        await asyncio.sleep(wait)
        del self._telling[attempt_id]
        self._told_at[attempt_id] = time.monotonic()
        try:
            told = self.get(m.AttemptRef(attempt_id=attempt_id))
        except errors.RpcError:
            return
        self._publisher.publish(rpc.ATTEMPTS_CHANGED, told)

    async def close(self) -> None:
        for task in [*self._telling.values(), *self._checks]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._telling.clear()


def _duration(turn: m.Turn | None) -> int | None:
    if turn is None or turn.finished_at is None:
        return None
    start = datetime.fromisoformat(turn.started_at.replace("Z", "+00:00"))
    end = datetime.fromisoformat(turn.finished_at.replace("Z", "+00:00"))
    return max(int((end - start).total_seconds() * 1000), 0)
